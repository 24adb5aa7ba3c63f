#!/usr/bin/python3
"""Runs polyfuse over a corpus of linalg files as a new user would, and counts.

For each file, each public function with a body is imported (`check`); an imported one
is fused (`fuse --json`, the default strategy, a short time limit) and its DRAM bytes
compared with the lower bound; one whose DRAM traffic is small is run on the OpenCL
backend and must verify (`exec`). A dynamic extent gets --default-size. Files are
counted by folder (a kind of file: an exporter, a test suite): a file imports when every
function it has imports. Nothing is edited: the files are read as their exporters wrote
them.

  corpus_check.py DIR [DIR ...] --polyfuse BIN [--time-limit S] [--verify-below BYTES]
                  [--default-size N] [--no-exec] [--log FILE]

Prints one line a function to --log (status, the first error), then a table a folder:
files, files imported, functions imported, fused with DRAM at or above the bound, and
verified of those run. Exit status 1 when an imported function fuses below its lower
bound or fails verification, else 0.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HEADER = re.compile(r"^\s*(?:func\.func|util\.func)\s+(public\s+|private\s+)?@([\w.$-]+)\s*\(", re.M)


def functions(path):
    """The public functions with a body, as the file names them (the entry choices)."""
    text = open(path, encoding="utf-8", errors="replace").read()
    names = []
    heads = list(HEADER.finditer(text))
    for k, m in enumerate(heads):
        if (m.group(1) or "").strip() == "private":
            continue
        # The argument list may span lines: past its closing parenthesis, a body opens
        # before the next function does.
        i, depth = m.end(), 1
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        end = heads[k + 1].start() if k + 1 < len(heads) else len(text)
        if "{" in text[i:end]:
            names.append(m.group(2))
    return sorted(set(names))


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout
    except OSError as e:  # the binary being rebuilt, say
        return 126, "", "error: could not run %s: %s" % (cmd[0], e)


def first_error(err):
    for line in err.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()[:200]
    return err.strip().splitlines()[-1][:200] if err.strip() else ""


def with_sizes(a, cmd, timeout):
    """Runs cmd, giving each missing size --default-size until none is missing."""
    sizes = []
    for _ in range(32):
        rc, out, err = run(cmd + (["--size", ",".join(sizes)] if sizes else []), timeout)
        m = re.search(r"missing size '([\w.$-]+)'", err)
        if rc == 0 or not m:
            return rc, out, err
        sizes.append("%s=%d" % (m.group(1), a.default_size))
    return rc, out, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--polyfuse", required=True)
    ap.add_argument("--time-limit", type=float, default=10)
    ap.add_argument("--verify-below", type=float, default=16e6, help="run exec when the plan moves fewer DRAM bytes")
    ap.add_argument("--default-size", type=int, default=13)
    ap.add_argument("--no-exec", action="store_true")
    ap.add_argument("--log", default="")
    a = ap.parse_args()
    log = open(a.log, "w") if a.log else None
    bad = 0
    rows = []
    for d in a.dirs:
        files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".mlir")) if os.path.isdir(d) else [d]
        c = dict(files=0, files_ok=0, fns=0, fns_ok=0, fused=0, at_bound=0, run=0, verified=0)
        for f in files:
            names = functions(f)
            if not names:
                continue
            c["files"] += 1
            all_ok = True
            for fn in names:
                c["fns"] += 1
                rc, _, err = with_sizes(a, [a.polyfuse, "check", f, "--entry", fn], 120)
                status = "imports" if rc == 0 else "refused: " + first_error(err)
                if rc != 0:
                    all_ok = False
                else:
                    c["fns_ok"] += 1
                    frc, out, ferr = with_sizes(
                        a, [a.polyfuse, "fuse", f, "--entry", fn, "--json", "--time-limit", str(a.time_limit)],
                        int(a.time_limit * 3 + 120))
                    plan = None
                    try:
                        plan = json.loads(out) if frc == 0 else None
                    except ValueError:
                        plan = None
                    if plan is None:
                        status += "; fuse failed: " + first_error(ferr)
                        bad += 1
                    else:
                        c["fused"] += 1
                        dram, bound = plan["dram_bytes"], plan["lower_bound_bytes"]
                        status += "; %d kernel(s), DRAM %d (bound %d)" % (plan["num_kernels"], dram, bound)
                        if dram + 1e-9 * bound >= bound:
                            c["at_bound"] += 1
                        else:
                            status += " BELOW THE BOUND"
                            bad += 1
                        if not a.no_exec and dram < a.verify_below:
                            c["run"] += 1
                            erc, eout, eerr = with_sizes(a, [a.polyfuse, "exec", f, "--entry", fn, "--backend", "opencl"], 300)
                            if erc == 0 and "verified: yes" in eout:
                                c["verified"] += 1
                                status += "; verified"
                            else:
                                status += "; NOT VERIFIED: " + (first_error(eerr) or "verified: no")
                                bad += 1
                if log:
                    log.write("%s %s: %s\n" % (f, fn, status))
                    log.flush()
            c["files_ok"] += all_ok
        rows.append((d, c))
    print("| corpus | files | import | functions import | fused, DRAM >= bound | verified (run) |")
    print("|---|---|---|---|---|---|")
    for d, c in rows:
        pct = 100.0 * c["files_ok"] / c["files"] if c["files"] else 0.0
        print("| %s | %d | %d (%.0f%%) | %d of %d | %d of %d | %d of %d |" % (
            os.path.basename(os.path.normpath(d)), c["files"], c["files_ok"], pct, c["fns_ok"], c["fns"],
            c["at_bound"], c["fused"], c["verified"], c["run"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
