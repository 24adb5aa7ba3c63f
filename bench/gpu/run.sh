#!/usr/bin/env bash
# On a GPU machine: compiles each generated harness with nvcc, runs it (it verifies
# against its C reference and times with CUDA events), and prints three tables. Norms:
# time, GB/s of the lower-bound bytes against a device-to-device copy of the same bytes,
# fused/unfused measured side by side in this run, and modeled against measured time.
# Contractions: TFLOP/s of polyfuse's tiled matmuls (FMA units, tensor cores) against cuBLAS SGEMM
# (FP32, TF32) at the same shapes.
# Attention: polyfuse's plans (split streamed tile, whole, two-pass) against the
# hand-written FlashAttention-style baseline (flash_ref.cu) at d = 64 and 128, S = 4096.
# Usage: bench/gpu/run.sh [ARCH [POINT...]]   (ARCH defaults to native; POINTs are folder
# names or globs in gen/, default all)
set -uo pipefail
cd "$(dirname "$0")/gen"
arch=${1:-native}
shift || true
points=$(ls -d ${@:-*}/ 2> /dev/null | sed 's,/$,,')
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
# nvcc takes seconds a harness: every core compiles; the runs that time stay one at a time.
echo "$points" | xargs -P "$(nproc)" -I{} sh -c \
  '"$0" -O3 -arch="$1" -Xcompiler -fopenmp "{}/harness.cu" -o "{}/harness" 2> "{}/nvcc.log" || echo "{}: nvcc failed" >&2' "$nvcc" "$arch"
: > results.jsonl
for d in $points; do
  [ -x "$d/harness" ] || continue
  line=$(timeout 120 "./$d/harness" 1 20 | tee "$d/run.log" | grep '^JSON ' | cut -c6-)
  [ -n "$line" ] && python3 - "$d" "$line" >> results.jsonl <<'PY'
import json, sys
d, j = sys.argv[1], json.loads(sys.argv[2])
plan = json.load(open(f"{d}/plan.json"))
j.update(point=d, modeled_us=plan["modeled_us"], kernels=len(plan["kernels"]), flops=plan["flops"])
print(json.dumps(j))
PY
done
# cuBLAS at each contraction's shape (rows N, columns M, depth K), FP32 and TF32.
: > cublas.txt
if "$nvcc" -O3 -arch="$arch" cublas_sgemm.cu -lcublas -o cublas_sgemm 2> cublas.log; then
  for d in $points; do
    case $d in matmul*) [ -f "$d/plan.json" ] && python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["sizes"]; print(s["N"], s["M"], s["K"])' "$d/plan.json" ;; esac
  done | sort -u | while read -r n m k; do
    for mode in fp32 tf32; do ./cublas_sgemm "$n" "$m" "$k" 20 $mode >> cublas.txt; done
  done
fi
: > flash.jsonl
for d in 64 128; do
  "$nvcc" -O3 -arch="$arch" -DFR_D=$d flash_ref.cu -o flash_ref_d$d 2> flash.log && ./flash_ref_d$d 4096 20 | grep '^JSON ' | cut -c6- >> flash.jsonl
done
python3 - <<'PY'
import json
rows = [json.loads(l) for l in open("results.jsonl")]
by = {r["point"]: r for r in rows}
print("| program | row | strategy | kernels | ms | GB/s | copy GB/s | % of copy | fused/unfused | modeled us | measured/modeled | verified |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    if r["point"].startswith(("matmul", "attention", "decode")): continue
    prog, m, strat = r["point"].rsplit("_", 2)
    gbs = r["lower_bound_bytes"] / (r["total_ms"] * 1e6)
    copy = r["lower_bound_bytes"] / (r["copy_ms"] * 1e6)
    other = by.get(f"{prog}_{m}_nofuse")
    ratio = f"{other['total_ms'] / r['total_ms']:.2f}x" if strat == "ilp" and other else ""
    print(f"| {prog} | {m[1:]} | {strat} | {r['kernels']} | {r['total_ms']:.4f} | {gbs:.0f} | {copy:.0f} | {100 * gbs / copy:.0f}% | {ratio} | "
          f"{r['modeled_us']:.1f} | {r['total_ms'] * 1e3 / r['modeled_us']:.2f} | {r['verified']} |")
mm = [r for r in rows if r["point"].startswith("matmul")]
cub = {}
for l in open("cublas.txt"):
    f = dict(x.split("=") for x in l.split())
    cub[(int(f["m"]), int(f["n"]), int(f["k"]), f["mode"])] = float(f["ms"])
print()
print("| contraction | numerics | tile, micro, stages | ms | TFLOP/s | cuBLAS same mode ms | polyfuse/cuBLAS | cuBLAS FP32 ms | cuBLAS TF32 ms | modeled us | measured/modeled | verified |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in mm:
    plan = json.load(open(f"{r['point']}/plan.json"))
    s, numerics = plan["sizes"], plan.get("numerics", "default")
    shape = (s["N"], s["M"], s["K"])
    mode = "tf32" if numerics == "tf32" else "fp32"
    gemm_flops = 2 * s["N"] * s["M"] * s["K"]
    same, fp32, tf32 = (cub.get(shape + (m,)) for m in (mode, "fp32", "tf32"))
    fmt = lambda v: f"{v:.4f}" if v else "n/a"
    ratio = f"{same / r['total_ms']:.2f}" if same else "n/a"
    tiles = [t for k in plan["kernels"] for t in k.get("contraction_tiles", [])]
    how = ", ".join(f"{t['tile'][0]}x{t['tile'][1]} m{t['micro_tile']} s{t.get('stages', 1)}" for t in tiles) or "untiled"
    print(f"| {r['point']} | {numerics} | {how} | {r['total_ms']:.4f} | {gemm_flops / (r['total_ms'] * 1e9):.1f} | {fmt(same)} | {ratio} | "
          f"{fmt(fp32)} | {fmt(tf32)} | {r['modeled_us']:.1f} | {r['total_ms'] * 1e3 / r['modeled_us']:.2f} | {r['verified']} |")
print()
print("| attention | d | plan | kernels | ms | FlashAttention-style baseline ms | baseline/polyfuse | modeled us | measured/modeled | verified |")
print("|---|---|---|---|---|---|---|---|---|---|")
flash = {}
try:
    for l in open("flash.jsonl"):
        f = json.loads(l)
        flash[str(f["D"])] = f
except OSError:
    pass
for r in rows:
    if not r["point"].startswith(("attention", "decode")): continue
    prog, m, strat = r["point"].split("_", 2)
    f = flash.get(m[1:]) if prog == "attention" else None
    ref = f"{f['run_median_ms']:.4f} | {f['run_median_ms'] / r['total_ms']:.2f}" if f else "n/a | n/a"
    print(f"| {prog} | {m[1:]} | {strat} | {r['kernels']} | {r['total_ms']:.4f} | {ref} | {r['modeled_us']:.1f} | "
          f"{r['total_ms'] * 1e3 / r['modeled_us']:.2f} | {r['verified']} |")
for d, f in sorted(flash.items()):
    print(f"| flash_ref | {d} | baseline | 1 | {f['run_median_ms']:.4f} | | | | | {f['verified']} |")
PY
