#!/usr/bin/env python3
"""Every example under every strategy, at random sizes, on PoCL against the interpreter.

The example tests run one size set each; this draws new ones (the size parameters are
found by asking `polyfuse fuse` which one it misses) to reach plans those sets do not:
partial tiles, a warp per row with idle warps, tiled contractions at odd extents.
Usage (repository root, after make build):
  tools/random_sizes_sweep.py SEED [SIZE ...]   (sizes drawn from; default small odd ones)
Prints one line per example and every failure; exits 1 if any.
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("seed", nargs="?", type=int, default=1, help="random seed (default 1)")
ap.add_argument("sizes", nargs="*", type=int, help="the sizes drawn from (default small odd ones)")
args = ap.parse_args()
seed = args.seed
menu = args.sizes or [1, 2, 3, 5, 7, 13, 31, 33, 63, 65, 96, 100, 129, 257]
random.seed(seed)
os.environ.setdefault("POCL_CACHE_DIR", "build/pocl-cache")
polyfuse = os.environ.get("POLYFUSE", "build/bin/polyfuse")
failures = 0
for f in sorted(glob.glob("examples/*.tc")):
    sizes = {}
    while True:
        given = ",".join(f"{k}={v}" for k, v in sizes.items()) or "PF_NONE=1"
        r = subprocess.run([polyfuse, "fuse", f, "--size", given], capture_output=True, text=True)
        m = re.search(r"missing size '(\w+)'", r.stderr)
        if not m:
            break
        sizes[m.group(1)] = random.choice(menu)
    given = ",".join(f"{k}={v}" for k, v in sizes.items())
    for strategy in ["ilp", "nofuse", "greedy", "maxfuse"]:
        r = subprocess.run([polyfuse, "exec", f, "--backend", "opencl", "--size", given, "--strategy", strategy,
                            "--repeat", "1"], capture_output=True, text=True)
        if "verified: yes" not in r.stdout:
            failures += 1
            print("FAIL", f, given, strategy, (r.stdout + r.stderr)[-400:])
    print("ok" if not failures else "..", f, given, flush=True)
print("failures", failures)
sys.exit(1 if failures else 0)
