#!/usr/bin/env bash
# One lease of a GPU machine as one command: what is measured there, in the order that
# matters if the lease runs out. The machine has CUDA and Python but none of polyfuse's
# build dependencies, so everything is prepared here first:
#
#   make build && bench/gpu/prepare.sh && bench/gpu/pack.sh
#
# then, on the machine (the device tool, carrying .gpu and bench/gpu/gen):
#
#   bench/gpu/session.sh [SECONDS]
#
# A shorter lease rechecks what a change touched: POINTS (run.sh's globs) and PROGRAMS
# (validation_study.py --programs) narrow the two steps, NCU=0 skips the counters.
#
# 1. run.sh: the generated harnesses (norms, long rows, column softmax, matmul against
#    cuBLAS, attention against the FlashAttention-style baseline), each verified and timed
#    with CUDA events; the tables go to $OUT/tables.md.
# 2. Nsight Compute's DRAM and L2 bytes for the fused kernels: $OUT/ncu.csv.
# 3. validation_study.py --backend cuda, with what is left of SECONDS (default 480) as its
#    budget: calibrate, then partitions run best-modeled first; $OUT/validation.tgz.
# Everything lands in $OUT (or /tmp/polyfuse-gpu): at most 8 files come back.
set -uo pipefail
out=${OUT:-/tmp/polyfuse-gpu}
total=${1:-480}
start=$(date +%s)
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:/usr/local/nvidia/bin:$PATH PYTHONUNBUFFERED=1
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv
  nvcc --version | tail -1
  python3 --version
  nproc
} 2>&1 | tee "$out/machine.txt"
# There, the packed build is the build (here, the build stays as it is).
[ -e build/bin/polyfuse ] || { mkdir -p build/bin && ln -s ../../.gpu/bin/polyfuse build/bin/polyfuse; }
build/bin/polyfuse --version 2>&1 | tee -a "$out/machine.txt"

bench/gpu/run.sh sm_90 ${POINTS:-} > "$out/tables.md" 2> "$out/run.log"
cat "$out/tables.md"
(cd bench/gpu/gen && tar czf "$out/raw.tgz" results.jsonl flash.jsonl cublas.txt */run.log */nvcc.log 2> /dev/null)
echo "tables done at $(($(date +%s) - start)) s"

# DRAM and L2 bytes of the fused kernels as the hardware counts them (Nsight Compute, the
# clocks left alone): does each read its input once, as the plan says?
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | head -1)
if [ -n "$ncu" ] && [ "${NCU:-1}" != 0 ]; then
  for d in softmax_M4096_ilp softmax_M32768_ilp layernorm_M4096_ilp skip_layernorm_M4096_ilp colsoftmax_M4096_ilp \
           softmax_M151936_ilp softmax_M1048576_ilp attention_D64_ilp decode_T32768_ilp; do
    [ -x "bench/gpu/gen/$d/harness" ] || continue
    echo "== $d"
    timeout 60 "$ncu" --clock-control none --csv --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,gpu__time_duration.sum \
      "bench/gpu/gen/$d/harness" 1 1 2>&1 | grep '^"'
  done > "$out/ncu.csv"
  echo "counters done at $(($(date +%s) - start)) s"
fi

left=$((total - ($(date +%s) - start) - 30))
if [ "$left" -lt 60 ]; then
  echo "no time left for the validation study ($left s)"
  exit 0
fi
python3 bench/validation_study.py --backend cuda --out "$out/validation" --budget "$left" \
  --layer .gpu/minilm_layer.tc ${PROGRAMS:+--programs "$PROGRAMS"} 2>&1 | tee "$out/validation.log"
(cd "$out" && tar czf validation.tgz validation && rm -rf validation)
echo "done at $(($(date +%s) - start)) s"
