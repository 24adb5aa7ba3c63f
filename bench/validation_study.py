#!/usr/bin/python3
"""Is the cost model right, at scale? Ranks modeled against measured time over hundreds of
partitions on one device, as `polyfuse validate` does for one program.

    bench/validation_study.py [--backend opencl|cuda] [--device FILE.yaml] [--out DIR]
                              [--budget SECONDS] [--summarize]

The programs: the normalization family (softmax, LayerNorm with and without its affine,
SkipLayerNorm, RMSNorm: every legal partition), one attention head and a MiniLM encoder
layer from gen_encoder.py (the K best by the exact search), and random programs in the
held-out style (chains of elementwise maps, row reductions and broadcasts over one
matrix, drawn from a seed: the 30 best partitions). Each partition runs on the device,
verified against the interpreter, `--repeat` timed runs after a warm-up (median taken).

The model is the device's own: `polyfuse calibrate` runs first and the study uses what it
wrote (or `--device`). Per program and pooled: Kendall's tau-b, Spearman's rho, regret
(the measured time of the model's pick over the fastest), and the median relative error
of modeled time. The pooled correlation ranks across programs, so it also asks whether
the model's absolute times are right; the mean of the per-program taus asks only for
the order within a program, which is what the search needs.

Writes DIR/partitions.jsonl (the raw data, one partition a line), DIR/run.json (how it
was measured), DIR/summary.md (the
table), DIR/validation.svg and .pdf (measured against modeled time, pooled, log-log) and
DIR/device.yaml (the calibration). The GPU sizes are larger (the same programs, sized for
an H100): under 5 minutes on one, with bench/gpu/run.sh (bench/gpu/session.sh runs both).
partitions.jsonl is rewritten after each program, so a run cut short keeps what it
measured; `--summarize` draws the table and figure again from it, running nothing.
`--budget` shares a time limit among the programs left (validate's --time-limit: the
partitions are run best-modeled first, and the summary says how many of each ran).
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POLYFUSE = os.path.join(ROOT, "build", "bin", "polyfuse")
EX = os.path.join(ROOT, "examples")

# (name, family, path, sizes on a CPU under PoCL, sizes on a GPU, top K or None for all)
NORMS = [
    ("softmax", "norm", f"{EX}/softmax.tc", "N=256,M=1031", "N=4096,M=4096", None),
    ("layernorm", "norm", f"{EX}/layernorm.tc", "N=256,M=1031", "N=4096,M=4096", None),
    ("layernorm_plain", "norm", f"{EX}/layernorm_plain.tc", "N=256,M=1031", "N=4096,M=4096", None),
    ("skip_layernorm", "norm", f"{EX}/skip_layernorm.tc", "N=256,M=1031", "N=4096,M=4096", None),
    ("rmsnorm", "norm", f"{EX}/rmsnorm.tc", "N=256,M=1031", "N=4096,M=4096", None),
]
OTHERS = [
    ("attention", "attention", f"{EX}/attention.tc", "S=129,D=64", "S=2048,D=64", 40),
]


def random_program(seed):
    """A random chain over X(N, M) in the held-out style: elementwise maps of earlier
    values, row reductions (sum or max over j) and their broadcasts back over the rows."""
    rng = random.Random(seed)
    lines, mats, rows = [], ["X"], []
    n = rng.randint(4, 7)
    for k in range(n):
        name = f"t{k}"
        kind = rng.choice(["map", "map", "reduce", "broadcast"] if rows else ["map", "reduce"])
        a = rng.choice(mats)
        if kind == "map":
            f = rng.choice(["exp({a}(i, j) * 0.5)", "tanh({a}(i, j))", "{a}(i, j) * {b}(i, j)", "{a}(i, j) + {b}(i, j)"])
            lines.append(f"  {name}(i, j) = " + f.format(a=a, b=rng.choice(mats)))
            mats.append(name)
        elif kind == "reduce":
            op = rng.choice(["+=!", "max=!"])
            lines.append(f"  {name}(i) {op} {a}(i, j)")
            rows.append(name)
        else:
            r = rng.choice(rows)
            lines.append(f"  {name}(i, j) = {a}(i, j) {rng.choice(['-', '*', '/'])} {r}(i)")
            mats.append(name)
    out = mats[-1] if mats[-1] != "X" else None
    body = "\n".join(lines) + (f"\n  Y(i, j) = {out}(i, j) + 1.0" if out else "\n  Y(i, j) = X(i, j) * 2.0")
    return f"def random{seed}(float(N, M) X) -> (Y) {{\n{body}\n}}\n"


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def kendall_tau_b(x, y):
    conc = disc = tx = ty = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            a, b = x[i] - x[j], y[i] - y[j]
            if a == 0 and b == 0:
                continue
            if a == 0:
                tx += 1
            elif b == 0:
                ty += 1
            elif (a > 0) == (b > 0):
                conc += 1
            else:
                disc += 1
    d = math.sqrt((conc + disc + tx) * (conc + disc + ty))
    return (conc - disc) / d if d else 0.0


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    sy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return sxy / (sx * sy) if sx and sy else 0.0


def stats(parts):
    m = [p["modeled_us"] for p in parts]
    t = [p["measured_ms"] * 1e3 for p in parts]
    pick = min(range(len(m)), key=lambda i: m[i])
    rel = sorted(abs(a - b) / b for a, b in zip(m, t))
    return {"partitions": len(parts), "kendall_tau": kendall_tau_b(m, t), "spearman_rho": spearman(m, t),
            "regret": t[pick] / min(t), "median_rel_error": rel[len(rel) // 2]}


def minilm_layer(gpu):
    """One MiniLM encoder layer as gen_encoder.py writes it (linalg on tensors)."""
    return run([sys.executable, f"{EX}/models/gen_encoder.py", "--layers", "1", "--no-embedding",
                "--seq", "128" if gpu else "32", "--hidden", "384", "--heads", "12", "--ffn", "1536"])


def measure(args, gpu):
    """Runs validate on every program; returns the rows (one a partition) and the command's words."""
    t0 = time.time()
    device = args.device
    if not device:
        device = os.path.join(args.out, "device.yaml")
        run([POLYFUSE, "calibrate", "--backend", args.backend, "--name", "calibrated", "-o", device])
    env = dict(os.environ)
    env.setdefault("POCL_CACHE_DIR", os.path.join(tempfile.gettempdir(), "polyfuse-validation-pocl"))
    work = tempfile.mkdtemp(prefix="polyfuse-validation-")
    programs = [(n, f, p, g if gpu else c, k) for n, f, p, c, g, k in NORMS + OTHERS]
    if args.minilm_top:
        layer = args.layer or os.path.join(work, "minilm_layer.mlir")
        if not args.layer:
            with open(layer, "w") as f:
                f.write(minilm_layer(gpu))
        programs.append(("minilm_layer", "encoder", layer, "", args.minilm_top))
    for s in range(1, args.random + 1):
        path = os.path.join(work, f"random{s}.tc")
        with open(path, "w") as f:
            f.write(random_program(s))
        programs.append((f"random{s}", "random", path, "N=4096,M=4096" if gpu else "N=256,M=1031", args.random_top or None))
    if args.programs:
        programs = [p for p in programs if p[0] in args.programs.split(",")]
    rows = []
    for k, (name, family, path, sizes, top) in enumerate(programs):
        cmd = [POLYFUSE, "validate", path, "--backend", args.backend, "--device", device, "--repeat", str(args.repeat),
               "--json"]
        if sizes:
            cmd += ["--size", sizes]
        if top:
            cmd += ["--top", str(top)]
        if args.budget:
            cmd += ["--time-limit", str(max(5, int((args.budget - (time.time() - t0)) / (len(programs) - k))))]
        try:
            v = json.loads(run(cmd, env=env))
        except subprocess.CalledProcessError as e:
            if top or "--top" not in e.stderr:
                sys.exit(f"validation_study: {name}: {e.stderr.strip()}")
            v = json.loads(run(cmd + ["--top", "40"], env=env))  # over 200 legal partitions: the 40 best
        parts = [p for p in v["partitions"] if p["verified"]]
        if len(parts) != len(v["partitions"]):
            sys.exit(f"validation_study: {name}: a partition failed verification")
        for p in parts:
            rows.append({"program": name, "family": family, "sizes": v["sizes"], "device": v["device"],
                         "validated": v["partitions_validated"], **p})
        print(f"{name}: {v['partitions_validated']} ({int(time.time() - t0)} s)", file=sys.stderr, flush=True)
        with open(os.path.join(args.out, "partitions.jsonl"), "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    shown = os.path.relpath(device, ROOT) if os.path.abspath(device).startswith(ROOT + os.sep) else os.path.basename(device)
    words = (f"model: `{shown}` (calibrated there); {args.repeat} timed runs a partition, "
             f"median; {time.time() - t0:.0f} s")
    return rows, words


def summarize(args, rows, words, command=None):
    """The table (summary.md) and the figure (validation.svg, .pdf) from the rows."""
    command = command or (f"bench/validation_study.py --backend {args.backend}"
                          f"{f' --budget {args.budget}' if args.budget else ''}")
    summary = []
    for name in dict.fromkeys(r["program"] for r in rows):
        parts = [r for r in rows if r["program"] == name]
        if len(parts) >= 2:
            summary.append({"program": name, "family": parts[0]["family"], **stats(parts)})
    pooled = stats(rows)
    norms = [s for s in summary if s["family"] == "norm"]
    mean = lambda k, ss: sum(s[k] for s in ss) / len(ss) if ss else float("nan")  # noqa: E731
    where = rows[0]["device"]
    lines = [f"# Model against measurement: {len(rows)} partitions of {len(summary)} programs",
             "", f"Device: {where}; {words}. Command: `{command}`.", "",
             "| program | family | partitions | Kendall's tau | Spearman's rho | regret | median rel. error |",
             "|---|---|---|---|---|---|---|"]
    for s in summary:
        lines.append(f"| {s['program']} | {s['family']} | {s['partitions']} | {s['kendall_tau']:.3f} | "
                     f"{s['spearman_rho']:.3f} | {s['regret']:.3f} | {s['median_rel_error']:.2f} |")
    lines.append(f"| **pooled** | all | {pooled['partitions']} | {pooled['kendall_tau']:.3f} | "
                 f"{pooled['spearman_rho']:.3f} | – | {pooled['median_rel_error']:.2f} |")
    lines += ["", f"Mean over programs: tau {mean('kendall_tau', summary):.3f}, regret {mean('regret', summary):.3f}, "
              f"worst regret {max(s['regret'] for s in summary):.3f}. Normalization family: mean tau "
              f"{mean('kendall_tau', norms):.3f}, mean regret {mean('regret', norms):.3f}.", ""]
    cut = sorted({f"{r['program']}: {r['validated']}" for r in rows if "time limit" in r.get("validated", "")})
    if cut:
        lines += ["Cut short by the time budget (the best-modeled partitions ran first): " + "; ".join(cut) + ".", ""]
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write("\n".join(lines))
    with open(os.path.join(args.out, "run.json"), "w") as f:  # what --summarize keeps of the measuring run
        json.dump({"words": words, "command": command}, f)
    print("\n".join(lines))
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "polyfuse"
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    for family, color in [("norm", "#2b7bb9"), ("attention", "#c0392b"), ("encoder", "#27ae60"), ("random", "#999999")]:
        pts = [r for r in rows if r["family"] == family]
        if pts:
            ax.scatter([r["modeled_us"] for r in pts], [r["measured_ms"] * 1e3 for r in pts], s=12, color=color,
                       label=f"{family} ({len(pts)})", alpha=0.8)
    lo = min(min(r["modeled_us"], r["measured_ms"] * 1e3) for r in rows)
    hi = max(max(r["modeled_us"], r["measured_ms"] * 1e3) for r in rows)
    ax.plot([lo, hi], [lo, hi], color="#333", linewidth=0.8, linestyle="--", label="measured = modeled")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("modeled time (µs)")
    ax.set_ylabel("measured time (µs), median")
    ax.set_title(f"{len(rows)} partitions on {where}\npooled Kendall's tau {pooled['kendall_tau']:.2f}", fontsize=8)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "validation.svg"), metadata={"Date": None})
    fig.savefig(os.path.join(args.out, "validation.pdf"), metadata={"CreationDate": None})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", choices=["opencl", "cuda"], default="opencl")
    ap.add_argument("--device", help="a device YAML (default: polyfuse calibrate on the backend, written to DIR)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "validation"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--random", type=int, default=6, help="random programs (seeds 1..K)")
    ap.add_argument("--random-top", type=int, default=30, help="partitions of each random program: the K best (0: all)")
    ap.add_argument("--minilm-top", type=int, default=40, help="partitions of the MiniLM layer (0: none)")
    ap.add_argument("--layer", help="the MiniLM layer from this file (.mlir or .tc) instead of gen_encoder.py's "
                    "(a machine without polyfuse's MLIR plugin: bench/gpu/pack.sh writes it as TC)")
    ap.add_argument("--programs", help="only these programs (comma-separated names, as the table names them)")
    ap.add_argument("--budget", type=int, default=0, help="seconds for all programs, shared among those left (0: none)")
    ap.add_argument("--summarize", action="store_true",
                    help="run nothing: the table and figure again from DIR/partitions.jsonl")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.summarize:
        with open(os.path.join(args.out, "partitions.jsonl")) as f:
            rows = [json.loads(line) for line in f]
        try:  # the measuring run's words and command stay
            with open(os.path.join(args.out, "run.json")) as f:
                run = json.load(f)
            words, command = run["words"], run.get("command")
        except (OSError, ValueError, KeyError):
            words, command = "summarized again from partitions.jsonl", None
        summarize(args, rows, words, command)
    else:
        try:
            rows, words = measure(args, args.backend == "cuda")
        except subprocess.CalledProcessError as e:
            sys.exit(f"validation_study: {' '.join(e.cmd[:3])}: {e.stderr.strip()}")
        summarize(args, rows, words)


if __name__ == "__main__":
    main()
