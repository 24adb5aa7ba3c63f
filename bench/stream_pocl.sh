#!/usr/bin/env bash
# Streamed sums (docs/streaming.md) against the two-pass plans, side by side in one run:
# the same program planned with and without streaming (h100's model: the plans a GPU
# would run), each executed on the CPU device (PoCL) at the planned sizes, verified
# against the reference, wall time the median of REPEAT runs after a warm-up.
# Usage: bench/stream_pocl.sh [REPEAT]     (from the repository root, after make build)
set -euo pipefail
R=${1:-5}
bin=${POLYFUSE:-build/bin/polyfuse}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$(mktemp -d)}
echo "| program | sizes | plan | kernels | DRAM x lower bound (h100) | wall ms, median [min-max] | two-pass / streamed | verified |"
echo "|---|---|---|---|---|---|---|---|"
run() {  # program entry sizes
  local base=""
  for flag in --no-stream ""; do
    local fuse exec
    fuse=$("$bin" fuse "$1" ${2:+--entry $2} --size "$3" $flag --json)
    exec=$("$bin" exec "$1" ${2:+--entry $2} --size "$3" $flag --backend opencl --repeat "$R" --json)
    row=$(/usr/bin/python3 -c "
import json, sys
f = json.loads(sys.argv[1]); e = json.loads(sys.argv[2]); base = sys.argv[3]
ratio = f'{float(base) / e[\"total_ms\"]:.2f}' if base else '1.00'
x = f['dram_bytes'] / f['lower_bound_bytes']
plan = 'streamed' if any(k['streams'] for k in f['kernels']) else 'two-pass'
print(f\"{e['total_ms']}|| ${2:-$(basename $1 .tc)} | $3 | {plan} | {len(e['kernels'])} | {x:.2f} | {e['total_ms']:.2f} [{e['total_min_ms']:.2f}-{e['total_max_ms']:.2f}] | {ratio} | {e['verified']} |\")" "$fuse" "$exec" "$base")
    [ -z "$base" ] && base=${row%%||*}
    echo "|${row#*||}"
  done
}
run examples/softmax.tc "" N=512,M=151936
run test/lit/Inputs/stream_variants.tc logsumexp N=512,M=151936
run test/lit/Inputs/colsoftmax.tc "" N=4096,M=4096
