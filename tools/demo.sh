#!/usr/bin/env bash
# The main job: the motivating study, as far as the pipeline goes.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/polyfuse
if [ -f examples/experiments/seed.yaml ] && $bin experiment --help >/dev/null 2>&1; then
  $bin experiment examples/experiments/seed.yaml -o results/seed
  echo "report: results/seed/report.html (and report.md)"
  exit 0
fi
echo "== polyfuse check examples/softmax.tc"
$bin check examples/softmax.tc
if $bin fuse --help >/dev/null 2>&1; then
  for s in nofuse greedy ilp; do
    echo "== polyfuse fuse examples/softmax.tc --size N=4096,M=4096 --device h100 --strategy $s"
    $bin fuse examples/softmax.tc --size N=4096,M=4096 --device h100 --strategy $s
  done
fi
echo "== polyfuse exec examples/softmax.tc --backend ref --size N=33,M=129"
$bin exec examples/softmax.tc --backend ref --size N=33,M=129
