#!/usr/bin/env bash
# Generates what run.sh measures on a GPU machine (which need not have polyfuse's build
# dependencies): the CUDA harnesses of softmax, LayerNorm, RMSNorm and SkipLayerNorm at
# row lengths 1024, 4096 and 32768 (256 MiB of X each: larger than any cache), fused
# (ilp) against unfused (nofuse), and the tiled contractions (FMA units and tensor cores)
# beside cuBLAS SGEMM of the same shapes and modes; attention beside a FlashAttention-style baseline. Each harness verifies against the C reference and
# times with CUDA events; its plan.json carries the modeled time.
# Usage (repository root, after make build): bench/gpu/prepare.sh [DEVICE]   (default h200)
set -euo pipefail
dev=${1:-h200}
out=bench/gpu/gen
rm -rf "$out" && mkdir -p "$out"
for rows in "65536 1024" "16384 4096" "2048 32768"; do
  set -- $rows
  for prog in softmax layernorm rmsnorm skip_layernorm; do
    for s in nofuse ilp; do
      build/bin/polyfuse codegen examples/$prog.tc --target cuda --size N=$1,M=$2 --strategy $s --device "$dev" \
        -o "$out/${prog}_M$2_$s" > /dev/null
    done
  done
done
# Issue 23's long rows: a vocabulary (151936) and the parallelism trap (8 rows of 1M);
# and the column softmax, with its column tiles and without (--no-column-tiles).
for rows in "512 151936" "8 1048576"; do
  set -- $rows
  for s in nofuse ilp; do
    build/bin/polyfuse codegen examples/softmax.tc --target cuda --size N=$1,M=$2 --strategy $s --device "$dev" \
      -o "$out/softmax_M$2_$s" > /dev/null
  done
done
for variant in "nofuse --strategy nofuse" "ilp" "notile --no-column-tiles"; do
  set -- $variant
  build/bin/polyfuse codegen test/lit/Inputs/colsoftmax.tc --target cuda --size N=4096,M=4096 --device "$dev" \
    ${2:-} ${3:-} -o "$out/colsoftmax_M4096_$1" > /dev/null
done
# Contractions on FMA units (numerics default: f32) and on tensor cores (tf32), beside
# cuBLAS in the same two modes: square 2048, and the GEMM of a BERT-large FFN (4096 x 3072
# x 768) with and without its bias-and-GELU epilogue; odd sizes check the edges.
for numerics in default tf32; do
  build/bin/polyfuse codegen examples/matmul.tc --target cuda --size N=2048,K=2048,M=2048 --device "$dev" \
    --numerics $numerics -o "$out/matmul_2048_$numerics" > /dev/null
  for prog in matmul matmul_bias_gelu; do
    build/bin/polyfuse codegen examples/$prog.tc --target cuda --size N=4096,K=768,M=3072 --device "$dev" \
      --numerics $numerics -o "$out/${prog}_4096x3072x768_$numerics" > /dev/null
  done
done
# 8 x 8 micro-tiles on the FMA units (--wide-fma-tiles, off by default until timed here),
# beside the default plans above.
for shape in "2048 N=2048,K=2048,M=2048" "4096x3072x768 N=4096,K=768,M=3072"; do
  set -- $shape
  build/bin/polyfuse codegen examples/matmul.tc --target cuda --size $2 --device "$dev" --wide-fma-tiles \
    -o "$out/matmul_$1_wide_fma" > /dev/null
done
# The same with other stages, side by side (--stages 4: four buffers in dynamic shared
# memory; 1: stage a step, then compute it); and the edges: odd sizes (4-byte copies) and
# multiples of 4 that no tile divides (16-byte copies, zero-filled past the extents).
for numerics in default tf32; do
  for stages in 1 4; do
    build/bin/polyfuse codegen examples/matmul.tc --target cuda --size N=2048,K=2048,M=2048 --device "$dev" \
      --numerics $numerics --stages $stages -o "$out/matmul_2048_${numerics}_stages$stages" > /dev/null
    build/bin/polyfuse codegen examples/matmul.tc --target cuda --size N=4096,K=768,M=3072 --device "$dev" \
      --numerics $numerics --stages $stages -o "$out/matmul_4096x3072x768_${numerics}_stages$stages" > /dev/null
  done
  build/bin/polyfuse codegen examples/matmul_bias_gelu.tc --target cuda --size N=1001,K=333,M=777 --device "$dev" \
    --numerics $numerics -o "$out/matmul_bias_gelu_odd_$numerics" > /dev/null
  build/bin/polyfuse codegen examples/matmul_bias_gelu.tc --target cuda --size N=1000,K=332,M=776 --device "$dev" \
    --numerics $numerics -o "$out/matmul_bias_gelu_mult4_$numerics" > /dev/null
done
# f16 and bf16 operands into f32 (mma.sync m16n8k16 under the default numerics) beside
# the strict plan on FMA units, at the BERT-large FFN shape and at odd sizes (each run
# verifies against the reference; harness.cu's timing gives the side-by-side ratio).
# linear_half: the weight stored [out x in], its slice with lines along k.
sed 's/half(/bfloat16(/g; s/matmul_half/matmul_bf16/' test/lit/Inputs/matmul_half.tc > "$out/matmul_bf16.tc"
for prog in test/lit/Inputs/matmul_half.tc "$out/matmul_bf16.tc" test/lit/Inputs/linear_half.tc; do
  name=$(basename "$prog" .tc)
  for numerics in default strict; do
    build/bin/polyfuse codegen "$prog" --target cuda --size N=4096,K=768,M=3072 --device "$dev" \
      --numerics $numerics -o "$out/${name}_4096x3072x768_$numerics" > /dev/null
  done
  build/bin/polyfuse codegen "$prog" --target cuda --size N=1001,K=333,M=777 --device "$dev" \
    -o "$out/${name}_odd" > /dev/null
done
# One attention head at S=4096, d = 64 and 128 (docs/streaming.md): the plan the search
# takes (a streamed tile split over the keys), the whole streamed tile (--no-stream-split)
# and the two-pass plan (--no-stream), beside the hand-written FlashAttention-style
# baseline (flash_ref.cu); and a grouped-query decode step, 4 key-value heads of 8 query
# heads over 32768 cached keys.
# Under TF32 numerics the tile runs both contractions on tensor cores (tf32_*; "Tensor
# cores in a streamed tile"), and mixed-precision attention (f16 queries and keys) its
# scores (f16_*).
for d in 64 128; do
  for variant in "ilp" "whole --no-stream-split" "twopass --no-stream" "tf32_ilp --numerics tf32" \
      "tf32_whole --no-stream-split --numerics tf32" "tf32_twopass --no-stream --numerics tf32"; do
    set -- $variant
    build/bin/polyfuse codegen examples/attention.tc --target cuda --size S=4096,D=$d --device "$dev" "${@:2}" \
      -o "$out/attention_D${d}_$1" > /dev/null
  done
  build/bin/polyfuse codegen test/lit/Inputs/attention_mixed.tc --target cuda --size S=4096,D=$d --device "$dev" \
    -o "$out/attention_D${d}_f16_ilp" > /dev/null
done
for variant in "ilp" "whole --no-stream-split"; do
  set -- $variant
  build/bin/polyfuse codegen test/lit/Inputs/attention_variants.tc --entry grouped --target cuda \
    --size S=1,G=8,H=4,T=32768,D=128,E=128 --device "$dev" ${2:-} -o "$out/decode_T32768_$1" > /dev/null
done
# Split-K (docs/cost-model.md, "splits"): few outputs over a long reduction, as the search
# plans it (chunks of k, a combine launch) and the same plan with its split_chunks set
# to 1 (each block its tile's whole reduction): 64 x 64 outputs of 65536 terms, and
# MiniLM's second FFN projection (128 x 384 outputs of 1536 terms).
for shape in "64 65536 64" "128 1536 384"; do
  set -- $shape
  tag="$1x$3x$2"
  build/bin/polyfuse codegen examples/matmul.tc --target cuda --size N=$1,K=$2,M=$3 --device "$dev" \
    -o "$out/splitk_${tag}_ilp" > /dev/null
  /usr/bin/python3 -c "import json, sys; p = json.load(open(sys.argv[1])); [k.update(split_chunks=1) for k in p['kernels']]; json.dump(p, open(sys.argv[2], 'w'))" \
    "$out/splitk_${tag}_ilp/plan.json" "$out/splitk_${tag}.whole.json"
  build/bin/polyfuse codegen examples/matmul.tc --target cuda --plan "$out/splitk_${tag}.whole.json" --device "$dev" \
    -o "$out/splitk_${tag}_whole" > /dev/null
done
cp bench/gpu/cublas_sgemm.cu bench/gpu/flash_ref.cu bench/gpu/flash_ref.h "$out/"
echo "generated $(ls -d "$out"/*/ | wc -l) harnesses in $out"
