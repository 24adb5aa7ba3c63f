#!/usr/bin/env bash
# ILP solve time against statement count on generated transformer encoders, then on the
# linalg models of examples/models (MiniLM-L12, BERT-base at sequence 128, imported from
# MLIR).
# Usage: bench/ilp_scaling.sh [LAYERS...]   (from the repository root, after make build)
#        MODELS="" bench/ilp_scaling.sh 1 2   (without the linalg model rows)
set -euo pipefail
bin=${POLYFUSE:-build/bin/polyfuse}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# row LABEL FILE [FUSE ARGS...]: one table row, the exact search beside IREE's rule.
row() {
  local label=$1 file=$2
  shift 2
  local start end
  start=$(date +%s.%N)
  "$bin" fuse "$file" "$@" --device h100 --json > "$tmp/ilp.json"
  end=$(date +%s.%N)
  "$bin" fuse "$file" "$@" --device h100 --strategy greedy --json > "$tmp/greedy.json"
  python3 - "$tmp/ilp.json" "$tmp/greedy.json" "$label" "$start" "$end" <<'PY'
import json, sys
ilp, greedy = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
label, start, end = sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
cands = ilp["solver"]["note"].split(" ")[0]
print(f"| {label} | {len(ilp['statements'])} | {cands} | {ilp['num_kernels']} | {greedy['num_kernels']} | "
      f"{ilp['modeled_us']:.1f} | {greedy['modeled_us']:.1f} | {ilp['solver']['status']} | "
      f"{ilp['solver']['seconds']:.2f} | {end - start:.2f} |")
PY
}

echo "| layers | statements | candidates | kernels (ilp) | kernels (greedy) | modeled us (ilp) | modeled us (greedy) | status | search s | total s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for L in ${@:-1 2 4 8 12 24 48 104}; do
  python3 bench/gen_encoder.py "$L" > "$tmp/enc$L.tc"
  row "$L" "$tmp/enc$L.tc" --size S=512,D=768,F=3072
done
for model in ${MODELS-minilm-l12 bert-base}; do
  python3 examples/models/gen_encoder.py --model "$model" > "$tmp/$model.mlir"
  row "$model (linalg, embeddings + 12 layers)" "$tmp/$model.mlir"
done
