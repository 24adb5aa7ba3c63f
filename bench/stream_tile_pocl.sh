#!/usr/bin/env bash
# Streamed tiles (docs/streaming.md, "Streamed tiles") against the plans without any
# streamed form (--no-stream), side by side in one run (bench/side_by_side.sh).
# Usage: bench/stream_tile_pocl.sh [REPEAT]     (from the repository root, after make build)
set -euo pipefail
R=${1:-5}
. "$(dirname "$0")/side_by_side.sh"
echo "| program | sizes | plan | kernels | DRAM x lower bound (h100) | modeled us (h100) | wall ms, median [min-max] | without / with | verified |"
echo "|---|---|---|---|---|---|---|---|---|"
tile() { side_by_side --no-stream "two-pass" "streamed tile" "k['row_mapping'] == 'streamed-tile'" "$@"; }
tile examples/attention.tc "" S=4096,D=64
tile test/lit/Inputs/attention_variants.tc causal S=4096,D=64
tile test/lit/Inputs/attention_variants.tc normalized H=12,S=512,T=512,D=32,E=32
tile test/lit/Inputs/attention_variants.tc pooled N=4096,M=4096,D=64
# Split streamed tiles (docs/streaming.md, "Split streamed tiles") against whole ones.
split() { side_by_side --no-stream-split "whole tile" "split tile" "k['row_mapping'] == 'streamed-tile' and k['split_chunks'] > 1" "$@"; }
split test/lit/Inputs/attention_variants.tc grouped S=1,G=8,H=2,T=16384,D=128,E=128
split examples/attention.tc "" S=4096,D=64
