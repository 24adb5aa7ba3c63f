#!/usr/bin/env bash
# Regenerates papers/minilm/: MiniLM-L12-H384 (and BERT-base) at sequence 128, imported
# from linalg, fused by every strategy on the h100 model.
#   papers/minilm/run.sh            (from anywhere; builds first)
set -euo pipefail
cd "$(dirname "$0")/../.."
make build >/dev/null
out=results/minilm
mkdir -p "$out"
for model in minilm-l12 bert-base; do
  python3 examples/models/gen_encoder.py --model "$model" --seq 128 > "$out/$model.mlir"
  for s in nofuse greedy iree-aggressive bytes-greedy ilp; do
    start=$(date +%s.%N)
    build/bin/polyfuse fuse "$out/$model.mlir" --strategy "$s" --device h100 --json > "$out/$model.$s.json"
    end=$(date +%s.%N)
    echo "$model $s $(python3 -c "print(f'{$end - $start:.2f}')")" >> "$out/seconds.txt.new"
  done
done
mv "$out/seconds.txt.new" "$out/seconds.txt"
python3 papers/minilm/generate.py "$out" > papers/minilm/README.md
