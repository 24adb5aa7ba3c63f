# Shared by bench/stream_pocl.sh and bench/column_pocl.sh (sourced): one program planned
# with h100's model with and without a search flag, each plan executed on the CPU device
# (PoCL) at the planned sizes, verified against the reference, wall time the median of
# $R runs after a warm-up; one table row per plan, the ratio against the flag's plan.
# side_by_side FLAG OFF-LABEL ON-LABEL IS-ON-PYTHON-EXPR PROGRAM ENTRY SIZES
bin=${POLYFUSE:-build/bin/polyfuse}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$(mktemp -d)}
side_by_side() {
  local flag=$1 off=$2 on=$3 test=$4 base=""
  shift 4
  for f in "$flag" ""; do
    local fuse exec row
    fuse=$("$bin" fuse "$1" ${2:+--entry $2} --size "$3" $f --json)
    exec=$("$bin" exec "$1" ${2:+--entry $2} --size "$3" $f --backend opencl --repeat "$R" --json)
    row=$(/usr/bin/python3 -c "
import json, sys
f = json.loads(sys.argv[1]); e = json.loads(sys.argv[2]); base = sys.argv[3]
ratio = f'{float(base) / e[\"total_ms\"]:.2f}' if base else '1.00'
x = f['dram_bytes'] / f['lower_bound_bytes']
plan = '$on' if any($test for k in f['kernels']) else '$off'
print(f\"{e['total_ms']}|| ${2:-$(basename $1 .tc)} | $3 | {plan} | {len(e['kernels'])} | {x:.2f} | {f['modeled_us']:.1f} | {e['total_ms']:.2f} [{e['total_min_ms']:.2f}-{e['total_max_ms']:.2f}] | {ratio} | {e['verified']} |\")" "$fuse" "$exec" "$base")
    [ -z "$base" ] && base=${row%%||*}
    echo "|${row#*||}"
  done
}
