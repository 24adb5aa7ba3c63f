#!/usr/bin/env bash
# Regenerates papers/seed-study/ from fresh runs of the seed experiments: the main study,
# the model against measurement on PoCL, the launch-latency sweep, and LayerNorm's three
# best partitions.
set -euo pipefail
cd "$(dirname "$0")/.."
make build >/dev/null
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/pocl-cache}
jobs=$(nproc)
build/bin/polyfuse experiment examples/experiments/seed.yaml -o results/seed --jobs "$jobs"
build/bin/polyfuse experiment examples/experiments/seed_validate.yaml -o results/seed-validate --jobs 1
build/bin/polyfuse experiment examples/experiments/seed_launch.yaml -o results/seed-launch --jobs "$jobs"
build/bin/polyfuse fuse examples/layernorm.tc --size N=4096,M=4096 --top 3 --json > results/seed/layernorm_top3.json
python3 papers/seed-study/generate.py results/seed results/seed-validate results/seed-launch
