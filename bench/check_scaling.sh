#!/usr/bin/env bash
# `polyfuse check` time and memory against the number of in-place updates of one
# tensor (the memory-based dependence analysis keeps direct dependences only).
# Usage: bench/check_scaling.sh [COUNTS...]   (from the repository root, after make build)
set -euo pipefail
bin=${POLYFUSE:-build/bin/polyfuse}
tmp=$(mktemp -d)
echo "| in-place updates | dependences | check s | max RSS MB |"
echo "|---|---|---|---|"
for n in "${@:-50 100 300 600}"; do
  python3 - "$n" > "$tmp/inplace.tc" <<'PY'
import sys
n = int(sys.argv[1])
print("def inplace(float(N, M) X) -> (Y) {")
print("  Y(i) +=! X(i, j)")
for _ in range(n - 1):
    print("  Y(i) += X(i, j)")
print("}")
PY
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$bin" check "$tmp/inplace.tc" > "$tmp/out.txt"
  deps=$(grep -c -- "->" "$tmp/out.txt" || true)
  read -r secs kb < "$tmp/time"
  echo "| $n | $deps | $secs | $((kb / 1024)) |"
done
rm -rf "$tmp"
