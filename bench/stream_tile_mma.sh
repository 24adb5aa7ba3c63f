#!/usr/bin/env bash
# The modeled table of bench/RESULTS.md "Streamed tiles on tensor cores": each attention
# program planned on h100's model by each polyfuse binary given (default build/bin/polyfuse),
# a row per program: kernels, DRAM bytes over the lower bound, modeled microseconds.
# Usage (repository root): bench/stream_tile_mma.sh [POLYFUSE ...]
#   e.g. bench/stream_tile_mma.sh /tmp/before/build/bin/polyfuse build/bin/polyfuse
set -euo pipefail
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/bin/polyfuse)
V=test/lit/Inputs/attention_variants.tc
M=test/lit/Inputs/attention_mixed.tc
bf=$(mktemp --suffix=.tc)
trap 'rm -f "$bf"' EXIT
sed 's/half(/bfloat16(/g; s/attention_f16/attention_bf16/' "$M" > "$bf"
rows=(
  "one head S=4096 D=64, tf32|examples/attention.tc --size S=4096,D=64 --numerics tf32"
  "the same, whole tile|examples/attention.tc --size S=4096,D=64 --numerics tf32 --no-stream-split"
  "one head S=16384 D=128, tf32|examples/attention.tc --size S=16384,D=128 --numerics tf32"
  "causal S=4096 D=64, tf32|$V --entry causal --size S=4096,D=64 --numerics tf32"
  "8 heads S=T=2048, tf32|$V --entry heads --size H=8,S=2048,T=2048,D=64,E=64 --numerics tf32"
  "normalize-first H=12 S=T=512 D=32, tf32|$V --entry normalized --size H=12,S=512,T=512,D=32,E=32 --numerics tf32"
  "grouped-query S=T=512 G=8 H=4, tf32|$V --entry grouped --size S=512,G=8,H=4,T=512,D=64,E=64 --numerics tf32"
  "pooling N=M=4096 D=64, tf32|$V --entry pooled --size N=4096,M=4096,D=64 --numerics tf32"
  "f16 queries and keys S=4096 D=64|$M --size S=4096,D=64"
  "the same, whole tile|$M --size S=4096,D=64 --no-stream-split"
  "bf16 queries and keys S=4096 D=64|$bf --size S=4096,D=64"
  "one head S=4096 D=64, default numerics|examples/attention.tc --size S=4096,D=64"
)
printf '| program |'; for b in "${bins[@]}"; do printf ' %s |' "$b"; done; echo
printf '|---|'; for b in "${bins[@]}"; do printf -- '---|'; done; echo
for row in "${rows[@]}"; do
  name=${row%%|*}; args=${row#*|}
  printf '| %s |' "$name"
  for b in "${bins[@]}"; do
    # shellcheck disable=SC2086
    total=$("$b" fuse $args | grep '^total:')
    printf ' %s |' "$(echo "$total" | sed -E 's/total: ([0-9]+) kernel\(s\), dram_bytes [0-9]+ \(lower bound [0-9]+, ([0-9.]+x)\).*modeled ([0-9.]+) us.*/\1 kernels, \2, \3 us/')"
  done
  echo
done
