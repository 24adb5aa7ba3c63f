#!/usr/bin/env bash
# Streamed sums (docs/streaming.md) against the two-pass plans, side by side in one run
# (bench/side_by_side.sh). The column softmax runs in one column tile either way now:
# bench/column_pocl.sh measures it.
# Usage: bench/stream_pocl.sh [REPEAT]     (from the repository root, after make build)
set -euo pipefail
R=${1:-5}
. "$(dirname "$0")/side_by_side.sh"
echo "| program | sizes | plan | kernels | DRAM x lower bound (h100) | modeled us (h100) | wall ms, median [min-max] | two-pass / streamed | verified |"
echo "|---|---|---|---|---|---|---|---|---|"
stream() { side_by_side --no-stream two-pass streamed "k['streams']" "$@"; }
stream examples/softmax.tc "" N=512,M=151936
stream test/lit/Inputs/stream_variants.tc logsumexp N=512,M=151936
