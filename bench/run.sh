#!/usr/bin/env bash
# Runs every benchmark set and writes the raw results, benchstat's
# summaries and the Markdown tables of BENCHMARKS.md into results/.
# `make bench` runs it after `make deps` (Java + DynamoDB Local). About
# 19 minutes on a 2-core machine.
#
# Knobs (environment): COUNT (client-side passes, default 10),
# BENCHTIME (client-side, default 1s), ROUNDS (e2e alternations, default
# 10; benchstat needs 6 for a 95% interval), E2E_BENCHTIME (default 2s),
# BULK_ROUNDS (default 5), BULK_EDGES
# (default 10000), VERIFY_ROUNDS (default 10), VERIFY_ITEMS (default
# 10000), OUT (default results).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

COUNT="${COUNT:-10}"
BENCHTIME="${BENCHTIME:-1s}"
ROUNDS="${ROUNDS:-10}"
E2E_BENCHTIME="${E2E_BENCHTIME:-2s}"
BULK_ROUNDS="${BULK_ROUNDS:-5}"
BULK_EDGES="${BULK_EDGES:-10000}"
VERIFY_ROUNDS="${VERIFY_ROUNDS:-10}"
VERIFY_ITEMS="${VERIFY_ITEMS:-10000}"
OUT="${OUT:-results}"
GO="${GO:-go}"
mkdir -p "$OUT"

. ./machine.sh

machine | tee "$OUT/machine.txt"
load before | tee -a "$OUT/machine.txt"

echo "--- tests: same requests and results, requests per access pattern"
$GO test -count=1 -v -run 'Test' . 2>&1 | tee "$OUT/tests.txt" | grep -E '^(--- |ok|FAIL|PASS)' || true
grep -q '^ok' "$OUT/tests.txt"

# COUNT passes of -count 1 rather than one -count $COUNT: each pass runs
# the three implementations of an operation back to back, so a burst of
# other load on the machine spreads over all of them instead of landing on
# one implementation's runs in a row, and cmd/report can compare them pass
# by pass. -client.rotate changes which implementation runs first.
echo "--- client-side (canned responses): $COUNT interleaved passes, -benchtime $BENCHTIME"
$GO test -c -o "$OUT/bench.test" .
: >"$OUT/client.txt"
for pass in $(seq "$COUNT"); do
	echo "# pass $pass of $COUNT" >&2
	"$OUT/bench.test" -test.run '^$' -test.bench '^(BenchmarkClient|BenchmarkKeys|BenchmarkIndex)$' -test.count 1 -test.benchtime "$BENCHTIME" -client.rotate "$pass" | tee -a "$OUT/client.txt"
done
rm -f "$OUT/bench.test"
load "after client-side" | tee -a "$OUT/machine.txt"

echo "--- end to end (DynamoDB Local): $ROUNDS alternating rounds, -benchtime $E2E_BENCHTIME"
$GO test -run '^$' -bench '^BenchmarkE2E$' -benchtime "$E2E_BENCHTIME" -timeout 30m . -args -rounds "$ROUNDS" | tee "$OUT/e2e.txt"
load "after e2e" | tee -a "$OUT/machine.txt"

echo "--- bulk load of $BULK_EDGES edges (DynamoDB Local): $BULK_ROUNDS rounds"
$GO test -run '^$' -bench '^BenchmarkBulk$' -benchtime 1x -timeout 30m . -args -rounds "$BULK_ROUNDS" -bulk.edges "$BULK_EDGES" | tee "$OUT/bulk.txt"
load "after bulk" | tee -a "$OUT/machine.txt"

# Each iteration is a whole pass over the table; the benchmark prints the
# per-round ratio verify/scan and its median itself.
echo "--- verify against a plain parallel Scan of $VERIFY_ITEMS items (DynamoDB Local): $VERIFY_ROUNDS rounds"
$GO test -run '^$' -bench '^BenchmarkVerify$' -benchtime 3x -timeout 30m . -args -rounds "$VERIFY_ROUNDS" -verify.items "$VERIFY_ITEMS" | tee "$OUT/verify.txt"
load "after verify" | tee -a "$OUT/machine.txt"

echo "--- benchstat"
{
	$GO tool benchstat -col '/impl@(sdk adjlist guregu)' "$OUT/client.txt"
	echo
	$GO tool benchstat -col /impl -ignore /round "$OUT/e2e.txt"
	echo
	$GO tool benchstat -col /way -ignore /round "$OUT/bulk.txt"
	echo
	$GO tool benchstat -col /way -ignore /round "$OUT/verify.txt"
} | tee "$OUT/benchstat.txt"

echo "--- report"
$GO run ./cmd/report "$OUT/client.txt" "$OUT/e2e.txt" "$OUT/bulk.txt" | tee "$OUT/report.md"
