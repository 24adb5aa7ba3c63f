#!/bin/sh
# run_strategies.sh DIR PROGRAM [exec options]: runs PROGRAM on PoCL with --numerics
# strict under nofuse, maxfuse and ilp (the two ends of the range and the search's
# choice), each verified against the reference, and fails unless every output of each
# is byte for byte nofuse's.
set -e
dir=$1; shift
test "$(polyfuse exec "$@" --backend opencl --numerics strict --strategy nofuse,maxfuse,ilp --repeat 1 --dump "$dir" 2>/dev/null |
  grep -c "verified: yes")" = 3
n=0
for f in "$dir"/nofuse/*.npy; do
  for s in maxfuse ilp; do cmp "$f" "$dir/$s/$(basename "$f")"; done
  n=$((n + 1))
done
test $n -gt 0
