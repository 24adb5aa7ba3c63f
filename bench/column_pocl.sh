#!/usr/bin/env bash
# Column tiles (docs/cost-model.md, "Column tiles") against the plans without them
# (--no-column-tiles), side by side in one run (bench/side_by_side.sh).
# Usage: bench/column_pocl.sh [REPEAT]     (from the repository root, after make build)
set -euo pipefail
R=${1:-5}
. "$(dirname "$0")/side_by_side.sh"
echo "| program | sizes | plan | kernels | DRAM x lower bound (h100) | modeled us (h100) | wall ms, median [min-max] | without / with | verified |"
echo "|---|---|---|---|---|---|---|---|---|"
column() { side_by_side --no-column-tiles "no column tile" "column tiles" "k['row_mapping'] == 'column-tile'" "$@"; }
column test/lit/Inputs/colsoftmax.tc "" N=4096,M=4096
column test/lit/Inputs/colreduce.tc "" B=8,N=512,M=1024,K=4096
