#!/usr/bin/env bash
# The main job: the motivating study (examples/experiments/seed.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/pocl-cache}
build/bin/polyfuse experiment examples/experiments/seed.yaml -o results/seed --jobs "$(nproc)"
echo
echo "== the exact search's LayerNorm kernel and why each edge is fused:"
build/bin/polyfuse inspect results/seed --point layernorm_M4096_N4096_h100_ilp
echo
echo "open results/seed/report.html (or read results/seed/report.md)"
