#!/bin/bash
# The search on whole exported models: one markdown row a file, with the command behind
# each figure. `bench/model_search.sh [--time-limit S] FILE.mlir...` runs, per file,
#   polyfuse fuse FILE --time-limit S --json                (ilp; whole `fuse` timed)
#   polyfuse fuse FILE --strategy iree-aggressive --json
#   polyfuse fuse FILE --strategy greedy --json
# and prints statements, candidates, kernels and modeled time of each, the status and gap
# of ilp, its search seconds (solver.seconds), the whole command's seconds and peak memory
# (GNU time). The device is polyfuse's default (h100 model).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
polyfuse="${POLYFUSE:-$here/build/bin/polyfuse}"
limit=120
if [ "${1:-}" = "--time-limit" ]; then limit="$2"; shift 2; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "| model | statements | candidates | ilp: kernels, modeled | iree-aggressive | greedy | status | gap | search s | whole \`fuse\` s | peak MB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for f in "$@"; do
  /usr/bin/time -f "%e %M" -o "$work/time" "$polyfuse" fuse "$f" --time-limit "$limit" --json > "$work/ilp.json" 2> "$work/err" || {
    echo "| $(basename "$f") | fails: $(grep -m1 error "$work/err" | cut -c1-160) |"; continue; }
  "$polyfuse" fuse "$f" --strategy iree-aggressive --json > "$work/iree.json" 2> /dev/null
  "$polyfuse" fuse "$f" --strategy greedy --json > "$work/greedy.json" 2> /dev/null
  /usr/bin/python3 - "$f" "$work" <<'PY'
import json, os, re, sys
name, work = os.path.basename(sys.argv[1]), sys.argv[2]
load = lambda k: json.load(open(os.path.join(work, k + ".json")))
ilp, iree, greedy = load("ilp"), load("iree"), load("greedy")
wall, peak_kb = open(os.path.join(work, "time")).read().split()
s = ilp["solver"]
m = re.match(r"(\d+) candidate", s.get("note", ""))
cell = lambda d: "%d, %.1f us" % (d["num_kernels"], d["modeled_us"])
print("| %s | %s | %s | %s | %s | %s | %s | %.3f | %.1f | %.1f | %d |" % (
    name, format(len(ilp["statements"]), ","), m.group(1) if m else "?", cell(ilp), cell(iree), cell(greedy),
    s["status"], s.get("gap", 0.0), s["seconds"], float(wall), int(peak_kb) // 1024))
PY
done
