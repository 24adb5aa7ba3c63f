#!/usr/bin/env bash
# Regenerates papers/seed-study/ from a fresh run of the seed experiment.
set -euo pipefail
cd "$(dirname "$0")/.."
make build >/dev/null
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/pocl-cache}
build/bin/polyfuse experiment examples/experiments/seed.yaml -o results/seed --jobs "$(nproc)"
python3 papers/seed-study/generate.py results/seed
