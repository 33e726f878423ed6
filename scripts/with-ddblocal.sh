#!/usr/bin/env bash
# Runs a command with one DynamoDB Local for all of it: `make test` runs
# `go test ./...` this way, so that the test binaries share one server (each
# would otherwise start a JVM of its own) through AWS_ENDPOINT_URL_DYNAMODB,
# as the README's "Testing your service" shows. The server is stopped when
# the command ends, whatever its result.
set -euo pipefail
GO="${GO:-go}"
dir=$(mktemp -d)
pid=""
# One EXIT trap, set before anything it cleans up exists: it stops the
# server, if started, and waits for it before removing its files, so
# nothing reads or writes them once they are gone.
cleanup() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT
"$GO" build -o "$dir/adjlist-ddblocal" ./cmd/adjlist-ddblocal
# The files exist before the server starts: the background shell creates
# its redirections only when it gets to run, and the loop below must never
# read a file that is not there yet.
: >"$dir/out"
: >"$dir/err"
"$dir/adjlist-ddblocal" start -port 0 >>"$dir/out" 2>>"$dir/err" &
pid=$!
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
"$@"
