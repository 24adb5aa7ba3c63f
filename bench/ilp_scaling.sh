#!/usr/bin/env bash
# ILP solve time against statement count on generated transformer encoders.
# Usage: bench/ilp_scaling.sh [LAYERS...]   (from the repository root, after make build)
set -euo pipefail
bin=${POLYFUSE:-build/bin/polyfuse}
tmp=$(mktemp -d)
echo "| layers | statements | candidates | kernels (ilp) | kernels (greedy) | modeled us (ilp) | modeled us (greedy) | status | search s | total s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for L in ${@:-1 2 4 8 12 24 48 104}; do
  python3 bench/gen_encoder.py "$L" > "$tmp/enc$L.tc"
  start=$(date +%s.%N)
  "$bin" fuse "$tmp/enc$L.tc" --size S=512,D=768,F=3072 --device h100 --json > "$tmp/ilp.json"
  end=$(date +%s.%N)
  "$bin" fuse "$tmp/enc$L.tc" --size S=512,D=768,F=3072 --device h100 --strategy greedy --json > "$tmp/greedy.json"
  python3 - "$tmp/ilp.json" "$tmp/greedy.json" "$L" "$start" "$end" <<'PY'
import json, sys
ilp, greedy = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
L, start, end = sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
cands = ilp["solver"]["note"].split(" ")[0]
print(f"| {L} | {len(ilp['statements'])} | {cands} | {ilp['num_kernels']} | {greedy['num_kernels']} | "
      f"{ilp['modeled_us']:.1f} | {greedy['modeled_us']:.1f} | {ilp['solver']['status']} | "
      f"{ilp['solver']['seconds']:.2f} | {end - start:.2f} |")
PY
done
rm -rf "$tmp"
