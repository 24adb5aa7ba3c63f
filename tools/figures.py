"""Figures of an experiment report, drawn with matplotlib (SVG and PDF, fit for a paper).

polyfuse embeds this script and runs it as `python3 figures.py FIGURES_DIR` after an
experiment; FIGURES_DIR/data.json holds what to draw (written by src/driver/Report.cpp):

  {"caption": "...", "groups": [{"title", "strategies", "modeled_us", "dram_ratio",
   "measured_ms", "measured_min_ms", "measured_max_ms", "measured_label", "measured_spread",
   "spread_flag"}, ...],
   "summary": {"programs": [...], "strategies": [...], "speedup": [[...], ...]},
   "sweeps": [{"title", "param", "values", "strategies", "modeled_us": [[per value] per
   strategy], "winner": [ilp partition number per value]}, ...],
   "validations": [{"title", "modeled_us", "measured_ms", "label"}, ...]}

For group i it writes fig{i}_modeled, fig{i}_bytes (and fig{i}_measured when measured)
and, across groups, summary_speedup, per sweep i, sweep{i}, and per validation i,
validation{i} (modeled against measured time of every partition, with the fitted line), each as .svg and .pdf. The output is deterministic:
no timestamps in the files, fixed SVG ids.
"""
import json
import os
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "polyfuse"
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, smaller
matplotlib.rcParams["font.size"] = 9
import matplotlib.pyplot as plt  # noqa: E402

ILP = "#2b7bb9"
OTHER = "#9bbbd4"


def save(fig, out, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out, name + ".svg"), metadata={"Date": None})
    fig.savefig(os.path.join(out, name + ".pdf"), metadata={"CreationDate": None})
    plt.close(fig)


def bars(ax, labels, values, xlabel):
    colors = [ILP if s == "ilp" else OTHER for s in labels]
    y = range(len(labels))
    ax.barh(y, values, color=colors, height=0.6)
    ax.set_yticks(list(y), labels)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_ylabel("strategy")
    for i, v in enumerate(values):
        ax.annotate(f"{v:.3g}", (v, i), xytext=(3, 0), textcoords="offset points", va="center", fontsize=8)
    ax.margins(x=0.18)


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print("usage: figures.py FIGURES_DIR   (FIGURES_DIR/data.json: what to draw; see the module's docstring)",
              file=sys.stderr if len(sys.argv) != 2 else sys.stdout)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    out = sys.argv[1]
    with open(os.path.join(out, "data.json")) as f:
        data = json.load(f)
    caption = data["caption"]
    for i, g in enumerate(data["groups"]):
        n = len(g["strategies"])
        height = 1.0 + 0.32 * n

        fig, ax = plt.subplots(figsize=(5.2, height))
        bars(ax, g["strategies"], g["modeled_us"], "modeled time (µs)")
        ax.set_title(g["title"], fontsize=9)
        save(fig, out, f"fig{i}_modeled")

        fig, ax = plt.subplots(figsize=(5.2, height))
        bars(ax, g["strategies"], g["dram_ratio"], "DRAM bytes / lower bound (×)")
        ax.axvline(1.0, color="#c0392b", linestyle="--", linewidth=1, label="lower bound")
        ax.legend(loc="lower right", fontsize=8)
        ax.set_title(g["title"], fontsize=9)
        save(fig, out, f"fig{i}_bytes")

        if g.get("measured_ms"):
            med, lo, hi = g["measured_ms"], g["measured_min_ms"], g["measured_max_ms"]
            fig, ax = plt.subplots(figsize=(5.2, height))
            bars(ax, g["strategies"], med, "measured time (ms), median; whiskers: min to max")
            ax.errorbar(med, range(n), xerr=[[m - a for m, a in zip(med, lo)], [b - m for m, b in zip(med, hi)]],
                        fmt="none", ecolor="#333", capsize=3, linewidth=1)
            # A spread above the flag is marked on its bar: its median orders nothing.
            for k, sp in enumerate(g.get("measured_spread", [])):
                if sp > g.get("spread_flag", 0.1):
                    ax.annotate(f"spread {sp:.0%}", (hi[k], k), xytext=(3, -8), textcoords="offset points",
                                va="center", fontsize=7, color="#c0392b")
            ax.set_title(g["title"] + "\n" + g["measured_label"], fontsize=9)
            save(fig, out, f"fig{i}_measured")

    s = data.get("summary")
    if s and s["programs"] and s["strategies"]:
        programs, strategies, speedup = s["programs"], s["strategies"], s["speedup"]
        fig, ax = plt.subplots(figsize=(max(5.2, 0.9 * len(programs) + 2), 3.4))
        width = 0.8 / len(strategies)
        palette = plt.get_cmap("tab10")
        for k, st in enumerate(strategies):
            xs = [p + (k - (len(strategies) - 1) / 2) * width for p in range(len(programs))]
            ys = [row[k] if row[k] is not None else 0 for row in speedup]
            ax.bar(xs, ys, width=width, label=st, color=palette(k))
        ax.axhline(1.0, color="#333", linewidth=0.8)
        ax.set_xticks(range(len(programs)), programs, rotation=30, ha="right")
        ax.set_ylabel("speedup of ilp (modeled, ×)")
        ax.set_xlabel("program at sizes")
        ax.legend(title="over", fontsize=8, title_fontsize=8, ncol=min(len(strategies), 3))
        ax.set_title("ilp against each strategy (modeled time ratio, higher is better for ilp)", fontsize=9)
        lines = textwrap.wrap(caption, int(fig.get_figwidth() * 16))  # about 16 characters an inch at 6.5 pt
        fig.set_figheight(3.4 + 0.12 * len(lines))
        fig.tight_layout(rect=(0, 0.04 * len(lines), 1, 1))
        fig.text(0.01, 0.01, "\n".join(lines), fontsize=6.5, color="#555", va="bottom")
        fig.savefig(os.path.join(out, "summary_speedup.svg"), metadata={"Date": None})
        fig.savefig(os.path.join(out, "summary_speedup.pdf"), metadata={"CreationDate": None})
        plt.close(fig)

    for i, w in enumerate(data.get("sweeps", [])):
        sweep_figure(out, i, w)
    for i, v in enumerate(data.get("validations", [])):
        validation_figure(out, i, v)


def validation_figure(out, i, v):
    """Every validated partition as a point (modeled, measured), the model's pick marked,
    and the least-squares line through them."""
    xs, ys = v["modeled_us"], v["measured_ms"]
    fig, ax = plt.subplots(figsize=(4.6, 3.4))
    ax.scatter(xs, ys, s=14, color=OTHER, edgecolor="#333", linewidth=0.5, zorder=3, label="partition")
    pick = min(range(len(xs)), key=lambda k: xs[k])
    ax.scatter([xs[pick]], [ys[pick]], s=40, color=ILP, edgecolor="#333", linewidth=0.6, zorder=4, label="model's pick")
    n = len(xs)
    if n >= 2:
        mx, my = sum(xs) / n, sum(ys) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        if sxx > 0:
            slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
            lo, hi = min(xs), max(xs)
            ax.plot([lo, hi], [my + slope * (lo - mx), my + slope * (hi - mx)], color="#c0392b", linewidth=1,
                    label="least squares", zorder=2)
    ax.set_xlabel("modeled time (µs)")
    ax.set_ylabel("measured time (ms)")
    ax.set_title(v["title"], fontsize=8)
    ax.legend(fontsize=7, loc="best")
    lines = textwrap.wrap(v["label"], 80)
    fig.set_figheight(3.4 + 0.12 * len(lines))
    fig.tight_layout(rect=(0, 0.05 * len(lines), 1, 1))
    fig.text(0.01, 0.01, "\n".join(lines), fontsize=6.5, color="#555", va="bottom")
    fig.savefig(os.path.join(out, f"validation{i}.svg"), metadata={"Date": None})
    fig.savefig(os.path.join(out, f"validation{i}.pdf"), metadata={"CreationDate": None})
    plt.close(fig)


def sweep_figure(out, i, w):
    """Modeled time of each strategy along a swept parameter; the background shows which
    ilp partition wins (P1, P2, ...), so the value where the conclusion flips is visible."""
    xs = w["values"]
    fig, ax = plt.subplots(figsize=(6.2, 3.0))
    palette = plt.get_cmap("tab10")
    for k, st in enumerate(w["strategies"]):
        pts = [(x, y) for x, y in zip(xs, w["modeled_us"][k]) if y is not None]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3, linewidth=1.2,
                    color=ILP if st == "ilp" else palette((k + 1) % 10), label=st, zorder=3)
    log = len(xs) > 1 and min(xs) > 0 and max(xs) / min(xs) >= 10
    if log:
        ax.set_xscale("log")

    def mid(a, b):
        return (a * b) ** 0.5 if log else (a + b) / 2

    # Spans of equal ilp partition, bounded halfway between neighbouring values.
    shades = ["#f2f2f2", "#dde8f3"]
    start = 0
    for j in range(1, len(xs) + 1):
        if j == len(xs) or w["winner"][j] != w["winner"][start]:
            lo = xs[start] if start == 0 else mid(xs[start - 1], xs[start])
            hi = xs[j - 1] if j == len(xs) else mid(xs[j - 1], xs[j])
            if w["winner"][start] is not None:
                ax.axvspan(lo, hi, color=shades[w["winner"][start] % 2], zorder=0)
                ax.annotate(f"P{w['winner'][start]}", (mid(lo, hi), 1.0),
                            xycoords=("data", "axes fraction"), xytext=(0, -10), textcoords="offset points",
                            ha="center", fontsize=8, color="#555")
            start = j
    ax.set_xlabel(w["param"])
    ax.set_ylabel("modeled time (µs)")
    ax.set_title(w["title"], fontsize=8)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    save(fig, out, f"sweep{i}")


if __name__ == "__main__":
    main()
