#!/usr/bin/env bash
# Fused (ilp) against unfused (nofuse) wall time on the OpenCL CPU device (PoCL),
# side by side in one run, at a size larger than the caches.
# Usage: bench/pocl_fusion.sh [N] [M] [REPEAT]     (from the repository root, after make build)
set -euo pipefail
N=${1:-4096}; M=${2:-4096}; R=${3:-5}
bin=${POLYFUSE:-build/bin/polyfuse}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$(mktemp -d)}
echo "| program | strategy | kernels | kernel ms (sum of medians) | wall ms (median) | verified |"
echo "|---|---|---|---|---|---|"
for prog in softmax layernorm rmsnorm; do
  for s in nofuse greedy ilp; do
    "$bin" exec examples/$prog.tc --backend opencl --size N=$N,M=$M --strategy $s --repeat "$R" --json |
      python3 -c "
import json, sys
j = json.load(sys.stdin)
ks = sum(k['ms'] for k in j['kernels'])
print(f\"| $prog | $s | {len(j['kernels'])} | {ks:.1f} | {j['total_ms']:.1f} | {j['verified']} |\")"
  done
done
