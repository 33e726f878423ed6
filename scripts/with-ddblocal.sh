#!/usr/bin/env bash
# Runs a command with one DynamoDB Local for all of it: `make test` runs
# `go test ./...` this way, so that the test binaries share one server (each
# would otherwise start a JVM of its own) through AWS_ENDPOINT_URL_DYNAMODB,
# as the README's "Testing your service" shows. The server is stopped when
# the command ends, whatever its result.
set -euo pipefail
GO="${GO:-go}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$GO" build -o "$dir/adjlist-ddblocal" ./cmd/adjlist-ddblocal
"$dir/adjlist-ddblocal" start -port 0 >"$dir/out" 2>"$dir/err" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
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
