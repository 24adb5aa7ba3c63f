"""Compare fusion strategies on one program from Python, as a notebook would.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/strategies.py \
        examples/layernorm.tc N=4096,M=4096 [--run N=33,M=129]

Prints, per strategy: kernels, DRAM bytes against the lower bound, modeled time and the
solver's status; with --run, each plan also runs on the OpenCL device (PoCL here) at the
given sizes, verified against the reference interpreter. Then the exact search's reasons
for the edges it left unfused.
"""
import argparse

import polyfuse


def sizes(text):
    return {k: int(v) for k, v in (kv.split("=") for kv in text.split(","))} if text else {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("program")
    ap.add_argument("sizes", nargs="?", default="", help="e.g. N=4096,M=4096 (none for a static MLIR function)")
    ap.add_argument("--device", default="h100")
    ap.add_argument("--strategies", default="nofuse,greedy,iree-aggressive,bytes-greedy,ilp")
    ap.add_argument("--run", metavar="SIZES", help="also run each plan at these sizes on PoCL")
    args = ap.parse_args()

    prog = polyfuse.load(args.program, sizes=sizes(args.sizes))
    print(f"{prog.name}: {len(prog.statements)} statements at {prog.sizes} on the {args.device} model")
    header = f"{'strategy':<16} {'kernels':>7} {'DRAM MiB':>9} {'x bound':>8} {'modeled us':>11} {'status':>10}"
    if args.run:
        header += f" {'measured ms':>12} verified"
    print(header)
    best = None
    for strategy in args.strategies.split(","):
        plan = prog.fuse(strategy=strategy, device=args.device)[0]
        row = (f"{strategy:<16} {plan.num_kernels:>7} {plan.dram_bytes / 2**20:>9.2f} "
               f"{plan.dram_bytes / plan.lower_bound_bytes:>8.2f} {plan.modeled_us:>11.2f} {plan.solver['status']:>10}")
        if args.run:
            r = plan.run(backend="opencl", sizes=sizes(args.run))
            row += f" {r['median_ms']:>12.3f} {'yes' if r['verified'] else 'NO'}"
        print(row)
        if strategy == "ilp":
            best = plan
    if best is not None:
        print("\nedges the exact search left unfused, and why:")
        for d in best.explain():
            if not d["fused"]:
                print(f"  {d['a']} -> {d['b']} ({d['verdict']}): {d['reason']}")


if __name__ == "__main__":
    main()
