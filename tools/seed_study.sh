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
# Recomputation at the parallelism trap: the same search with and without it, and both
# plans run (plan chosen at the trap's sizes) and verified on PoCL at odd sizes.
for mode in recompute no-recompute; do
  flag=$([ $mode = recompute ] && echo "" || echo "--no-recompute")
  build/bin/polyfuse fuse examples/softmax.tc --size N=8,M=1048576 $flag --explain --json > results/seed/trap_$mode.json
  build/bin/polyfuse exec examples/softmax.tc --backend opencl --size N=8,M=4099 --plan-size N=8,M=1048576 $flag --json \
    > results/seed/trap_${mode}_exec.json
done
python3 papers/seed-study/generate.py results/seed results/seed-validate results/seed-launch
