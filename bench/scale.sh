#!/usr/bin/env bash
# Runs the cost curves of BENCHMARKS.md (BenchmarkScale*, only selected
# here: they need -scale) and writes their raw output, the machine and
# load averages, the Markdown tables and the SVG curves into results/.
# `make bench-scale` runs it after `make deps`. Progress goes to stderr,
# one timestamped line per step; the full run takes about 20 minutes on
# a 2-core machine, most of it the 1M-edge load and reads.
#
# Knobs (environment): SIZES (default 10000,100000,1000000), ROUNDS
# (alternating PutMany / BatchWriteItem loads at sizes up to 100000,
# default 3), SHARDS (default 1,8,32,100), SHARD_EDGES (default 10000),
# DELETE_EDGES (default 100000), GRAPH_NODES (default 10000), OUT
# (default results).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

SIZES="${SIZES:-10000,100000,1000000}"
ROUNDS="${ROUNDS:-3}"
SHARDS="${SHARDS:-1,8,32,100}"
SHARD_EDGES="${SHARD_EDGES:-10000}"
DELETE_EDGES="${DELETE_EDGES:-100000}"
GRAPH_NODES="${GRAPH_NODES:-10000}"
OUT="${OUT:-results}"
GO="${GO:-go}"
mkdir -p "$OUT"

. ./machine.sh
{
	machine
	echo "nice: $(nice)"
	load before
} | tee "$OUT/scale-machine.txt"

$GO test -c -o "$OUT/scale.test" .
trap 'rm -f "$OUT/scale.test"' EXIT
# run NAME BENCH ARGS...: one benchmark set into $OUT/scale-NAME.txt.
run() {
	local name=$1 bench=$2
	shift 2
	echo "--- $name ($bench), $(date -u +%H:%M:%SZ)" >&2
	"$OUT/scale.test" -test.run '^$' -test.bench "^$bench\$" -test.benchtime 1x -test.timeout 3h -scale "$@" | tee "$OUT/scale-$name.txt"
	grep -q '^PASS' "$OUT/scale-$name.txt"
	load "after $name" | tee -a "$OUT/scale-machine.txt"
}
# The quick sets first, the long load last.
run shards BenchmarkScaleShards -scale.shards "$SHARDS" -scale.shardedges "$SHARD_EDGES"
run delete BenchmarkScaleDelete -scale.delete "$DELETE_EDGES"
run twohop BenchmarkScaleTwoHop -scale.graph "$GRAPH_NODES"
run load BenchmarkScaleLoad -scale.sizes "$SIZES" -scale.rounds "$ROUNDS"
echo "finished: $(date -u +%Y-%m-%dT%H:%M:%SZ)" | tee -a "$OUT/scale-machine.txt"

echo "--- report and curves" >&2
$GO run ./cmd/report -svg "$OUT" "$OUT"/scale-{load,shards,delete,twohop}.txt | tee "$OUT/scale-report.md"
