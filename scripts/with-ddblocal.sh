#!/usr/bin/env bash
# Runs a command with one DynamoDB Local for all of it: `make test` runs
# `go test ./...` this way, so that the test binaries share one server (each
# would otherwise start a JVM of its own) through AWS_ENDPOINT_URL_DYNAMODB,
# as the README's "Testing your service" shows. Where python3 has cfn-lint,
# they share one cfn-lint too (internal/cfnlint/server.py, through
# ADJLIST_CFNLINT_SOCKET; each would otherwise import cfnlint, about 2
# CPU-seconds). The servers are stopped when the command ends, whatever its
# result.
set -euo pipefail
GO="${GO:-go}"
dir=$(mktemp -d)
pid=""
lintpid=""
# One EXIT trap, set before anything it cleans up exists: it stops the
# servers, if started, and waits for them before removing their files, so
# nothing reads or writes them once they are gone.
cleanup() {
	for p in $pid $lintpid; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$dir"
}
trap cleanup EXIT
# DynamoDB Local's JVMs, this script's and those tests start, compile with
# C1 only: C2's compiler threads cost far more CPU than they save in a test
# run (measured: 5 -> 2 CPU-s to start, 40 -> 16 CPU-s serving the
# examples' and streams' tests, 93 -> 73 the root package's). The serial
# collector likewise: G1's concurrent threads cost more than they save on
# a server this small (measured: 80-85 -> 74 CPU-s serving the root
# package's tests).
export JAVA_TOOL_OPTIONS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC${JAVA_TOOL_OPTIONS:+ $JAVA_TOOL_OPTIONS}"
# cfn-lint imports while DynamoDB Local starts.
: >"$dir/lint.out"
if command -v python3 >/dev/null; then
	python3 "$(dirname "$0")/../internal/cfnlint/server.py" "$dir/cfnlint.sock" >>"$dir/lint.out" 2>/dev/null </dev/null &
	lintpid=$!
fi
"$GO" build -o "$dir/adjlist-ddblocal" ./cmd/adjlist-ddblocal
# The files exist before the server starts: the background shell creates
# its redirections only when it gets to run, and the loop below must never
# read a file that is not there yet.
: >"$dir/out"
: >"$dir/err"
"$dir/adjlist-ddblocal" start -port 0 >>"$dir/out" 2>>"$dir/err" &
pid=$!
# WITH_DDBLOCAL_FIRST, if set, is a command that needs no DynamoDB Local
# (make test's go vet): it runs while the servers start, which take some
# seconds, and its failure ends the script.
if [ -n "${WITH_DDBLOCAL_FIRST:-}" ]; then
	sh -c "$WITH_DDBLOCAL_FIRST"
fi
for _ in $(seq 1200); do
	grep -q '^export ' "$dir/out" && break
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "with-ddblocal: DynamoDB Local did not start:" >&2
		cat "$dir/err" >&2
		exit 1
	fi
	sleep 0.1
done
grep -q '^export ' "$dir/out" || { echo "with-ddblocal: DynamoDB Local did not start in 2 minutes" >&2; exit 1; }
eval "$(grep '^export ' "$dir/out")"
# Without cfnlint (or python3) the server exits, and each test binary
# lints on its own, as outside this script.
if [ -n "$lintpid" ]; then
	for _ in $(seq 300); do
		grep -q '^ready$' "$dir/lint.out" && break
		kill -0 "$lintpid" 2>/dev/null || break
		sleep 0.1
	done
	if grep -q '^ready$' "$dir/lint.out"; then
		export ADJLIST_CFNLINT_SOCKET="$dir/cfnlint.sock"
	fi
fi
"$@"
