#!/usr/bin/env bash
# The generated CUDA as ptxas compiles it, beside the plan (sm_90, no GPU needed): per
# program and row length, the row mapping, registers, spills, shared memory, blocks per
# SM and what limits them, compiled against modeled occupancy, 128-bit global accesses,
# barriers a block executes, inputs cached on chip, modeled time; and the tiled
# contraction's FMAs per global load. Usage (repository root, after make build):
#   bench/static_kernels.sh [ROWS...]     (default 128 1024 4096; N=4096 rows)
set -euo pipefail
rows=${*:-128 1024 4096}
bin=${POLYFUSE:-build/bin/polyfuse}
tmp=$(mktemp -d)
echo "| program | row length | row mapping | rows per block | threads | registers | spill bytes | shared B/block | blocks/SM (limit) | compiled | plan | 128-bit loads, stores | block barriers (warp) | cached on chip | modeled µs |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for prog in softmax layernorm rmsnorm skip_layernorm; do
  for m in $rows; do
    d=$tmp/${prog}_$m
    "$bin" codegen examples/$prog.tc --target cuda --size N=4096,M=$m -o "$d/cuda" > /dev/null
    cp "$d/cuda/plan.json" "$d/plan.json"
    "$bin" inspect "$d" 2> /dev/null > "$d/inspect.txt"
    python3 - "$prog" "$m" "$d" <<'PY'
import json, re, sys
prog, m, d = sys.argv[1:]
plan = json.load(open(f"{d}/cuda/plan.json"))
t = open(f"{d}/inspect.txt").read()
for k in plan["kernels"]:
    g = lambda pat: re.search(pat, t)
    p = g(r"ptxas \(sm_90\): (\d+) registers, \d+ B smem \(static\), (\d+) B spill stores")
    o = g(r"occupancy: compiled (\d+) block\(s\)/SM x \d+ warps = (\d+)% of 64 warps \(limited by ([a-z ]+); (\d+) B shared memory per block\); modeled (\d+)%")
    v = g(r"global memory in PTX: (\d+) loads, (\d+) of them 128-bit; (\d+) stores, (\d+) of them 128-bit")
    b = g(r"barriers per block: (\d+)( \(and (\d+) warp barriers\))?")
    rows = 1
    for x in k["tile"]: rows *= x
    warp = f" ({b.group(3)})" if b.group(3) else ""
    cached = ", ".join(k["cached_inputs"]) or "-"
    print(f"| {prog} | {m} | {k['row_mapping']} | {rows} | {k['threads_per_block']} | {p.group(1)} | {p.group(2)} | {o.group(4)} | "
          f"{o.group(1)} ({o.group(3)}) | {o.group(2)}% | {o.group(5)}% | {v.group(2)}/{v.group(1)}, {v.group(4)}/{v.group(3)} | "
          f"{b.group(1)}{warp} | {cached} | {k['modeled_us']:.1f} |")
PY
  done
done
d=$tmp/matmul
"$bin" codegen examples/matmul_bias_gelu.tc --target cuda --size N=1024,K=1024,M=1024 -o "$d/cuda" > /dev/null
cp "$d/cuda/plan.json" "$d/plan.json"
echo
echo "matmul_bias_gelu at 1024^3 (\`$bin inspect\`):"
echo '```'
"$bin" inspect "$d" 2> /dev/null | sed -n '2,9p'
echo '```'
rm -rf "$tmp"
