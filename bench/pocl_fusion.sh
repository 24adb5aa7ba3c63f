#!/usr/bin/env bash
# Fused (ilp) against unfused (nofuse) and IREE's rule (greedy): wall time of the
# generated OpenCL on the CPU device (PoCL), side by side in one run, at a size larger
# than the caches. Plans are made for two cost models: the H100 preset (the plans a GPU
# would run) and this machine's OpenCL device as `polyfuse calibrate` measures it.
# Usage: bench/pocl_fusion.sh [N] [M] [REPEAT]     (from the repository root, after make build)
set -euo pipefail
N=${1:-4096}; M=${2:-4096}; R=${3:-5}
bin=${POLYFUSE:-build/bin/polyfuse}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$(mktemp -d)}
cal=$(mktemp -d)/pocl-measured.yaml
"$bin" calibrate --backend opencl --name pocl-measured -o "$cal" 2> /dev/null
grep -v '^#' "$cal" | tr '\n' ' ' | sed 's/^/calibrated: /'; echo; echo
echo "| program | plan device | strategy | kernels | kernel ms (sum of medians) | wall ms (median) | unfused / this | verified |"
echo "|---|---|---|---|---|---|---|---|"
for prog in softmax layernorm rmsnorm; do
  for dev in h100 "$cal"; do
    base=""
    for s in nofuse greedy ilp; do
      json=$("$bin" exec examples/$prog.tc --backend opencl --size N=$N,M=$M --strategy $s --device "$dev" --repeat "$R" --json)
      row=$(python3 -c "
import json, sys
j = json.loads(sys.argv[1]); base = sys.argv[2]
ks = sum(k['ms'] for k in j['kernels'])
ratio = f'{float(base) / j[\"total_ms\"]:.2f}' if base else '1.00'
print(f\"{j['total_ms']}|| $prog | $(basename $dev .yaml) | $s | {len(j['kernels'])} | {ks:.1f} | {j['total_ms']:.1f} | {ratio} | {j['verified']} |\")" "$json" "$base")
      [ -z "$base" ] && base=${row%%||*}
      echo "|${row#*||}"
    done
  done
done
