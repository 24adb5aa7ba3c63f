#!/usr/bin/env bash
# Generates the CUDA harnesses that run.sh measures on a GPU machine (which need not
# have polyfuse's build dependencies): fused (ilp) against unfused (nofuse) and IREE's
# rule (greedy), at a size larger than the caches.
# Usage (repository root, after make build): bench/gpu/prepare.sh [N] [M]
set -euo pipefail
N=${1:-8192}; M=${2:-8192}
out=bench/gpu/gen
rm -rf "$out" && mkdir -p "$out"
for prog in softmax layernorm rmsnorm skip_layernorm; do
  for s in nofuse greedy ilp; do
    build/bin/polyfuse codegen examples/$prog.tc --target cuda --size N=$N,M=$M --strategy $s --device h200 \
      -o "$out/${prog}_$s" > /dev/null
  done
done
echo "generated $(ls "$out" | wc -l) harnesses in $out"
