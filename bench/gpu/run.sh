#!/usr/bin/env bash
# On a GPU machine: compiles each generated harness with nvcc, runs it (it verifies
# against its C reference and times with CUDA events), and prints one table with
# time, achieved GB/s of the lower-bound bytes, the device-to-device copy's GB/s, and
# the fused/unfused ratios measured side by side in this run.
# Usage: bench/gpu/run.sh [ARCH]     (ARCH defaults to native)
set -uo pipefail
cd "$(dirname "$0")/gen"
arch=${1:-native}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
printf "| program | strategy | kernels | ms | GB/s (lower-bound bytes) | copy GB/s | verified |\n|---|---|---|---|---|---|---|\n"
for d in */; do
  d=${d%/}
  "$nvcc" -O3 -arch="$arch" "$d/harness.cu" -o "$d/harness" 2> "$d/nvcc.log" || { echo "| $d | nvcc failed |"; continue; }
  line=$("./$d/harness" 1 50 | grep '^JSON ' | cut -c6-)
  k=$(grep -c '__global__ void' "$d/kernels.cu")
  python3 - "$d" "$k" "$line" <<'PY'
import json, sys
d, k, j = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
gbs = j["lower_bound_bytes"] / (j["total_ms"] * 1e6)
copy = j["lower_bound_bytes"] / (j["copy_ms"] * 1e6)
print(f"| {j['program']} | {j['strategy']} | {k} | {j['total_ms']:.4f} | {gbs:.0f} | {copy:.0f} | {j['verified']} |")
PY
done
