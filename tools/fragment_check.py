#!/usr/bin/env python3
"""Checks a generated CUDA kernel's tensor-core fragment loads without a GPU.

Each `ldmatrix` of a tiled contraction (polyfuse's pf_ldmatrix_* helpers) is emulated for
every thread of the block (and TF32's B words read one a thread from an r-major slice): the row address each lane gives is evaluated from the kernel's
own expression, split into the slice's line and column (the expression's `(LINE) * L +
COLUMN` form), and what PTX's ldmatrix hands each lane is compared with the element the
mma instruction expects in that register (PTX ISA: mma.m16n8k16 .f16/.bf16 and
mma.m16n8k8 .tf32 fragment layouts). The plan (plan.json beside kernels.cu) gives the
tiles, warp tiles, engine and each slice's layout (`slice_lines`).

usage: fragment_check.py CUDA_DIR   (exit 1 and the first mismatch when a lane is wrong)
"""
import json
import re
import sys
from pathlib import Path

CALL = re.compile(r"(pf_ldmatrix_x4(?:_trans)?(?:_b16)?)\((pf_fa\[pf_a\]|pf_fb \+ 2 \* pf_b), &pf_stage(?:16)?\[(?:pf_cb \+ )?(?:(\d+) \+ )?(.*)\]\);")


# TF32's B fragment from an r-major slice: a word a thread, register h of fragment b.
SCALAR = re.compile(r"pf_fb\[2 \* pf_b \+ pf_h\] = pf_tf32\(pf_stage\[(?:pf_cb \+ )?(?:(\d+) \+ )?(.*)\]\);")


def split_line_column(expr):
    """`(LINE) * L + COLUMN` at the top level of `expr`: LINE, L, COLUMN."""
    depth = 0
    for i, ch in enumerate(expr):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and ch == ")":
            rest = expr[i + 1:]
            m = re.match(r" \* (\d+) \+ (.*)$", rest)
            if m and expr.startswith("("):
                return expr[1:i], int(m.group(1)), m.group(2)
            break
    raise SystemExit(f"fragment_check: no (line) * L + column form in {expr}")


def value(expr, env):
    return eval(expr, {"__builtins__": {}}, dict(env))  # C's + * >> & on non-negative ints


def main():
    cuda = Path(sys.argv[1])
    plan = json.loads((cuda / "plan.json").read_text())
    source = (cuda / "kernels.cu").read_text()
    checked = 0
    for k in plan["kernels"]:
        for tile in k.get("contraction_tiles", []):
            engine = tile["engine"]
            if not engine.startswith("mma"):
                continue
            half = engine in ("mma-f16", "mma-bf16")
            warp_p, warp_q = tile["warp_tile"]
            warps_q = tile["tile"][1] // warp_q
            tiles_p, tiles_q = warp_p // 16, warp_q // 8
            step = 16 if half else 8  # r per mma
            lines = tile["slice_lines"]
            threads = k["threads_per_block"]
            body = source[source.index(k["function"] + "("):]
            body = body[:body.find("\n}\n")]
            calls = CALL.findall(body)
            for _, expr in SCALAR.findall(body):
                line_expr, _, col_expr = split_line_column(expr)
                layout = lines[1]
                for tid in range(threads):
                    g, t = (tid & 31) >> 2, tid & 3
                    for r0 in range(0, tile["k_step"], step):
                        for b in range(tiles_q):
                            for h in range(2):
                                env = {"pf_tid": tid, "pf_wp": (tid >> 5) // warps_q, "pf_wq": (tid >> 5) % warps_q,
                                       "pf_r": r0, "pf_b": b, "pf_h": h, "pf_g": g, "pf_t": t}
                                got = (value(line_expr, env), value(col_expr, env))
                                q = env["pf_wq"] * warp_q + b * 8 + g
                                want = (r0 + t + 4 * h, q) if layout == "r" else (q, r0 + t + 4 * h)
                                if got != want:
                                    raise SystemExit(f"fragment_check: {k['function']} B word into pf_fb[2 b + h]: thread {tid}, "
                                                     f"r {r0}, tile {b}, register {h}: loads {got}, the mma wants {want}")
                                checked += 1
            if not calls:
                raise SystemExit(f"fragment_check: {k['function']}: no ldmatrix of a tensor-core tile")
            for helper, target, _, expr in calls:
                line_expr, _, col_expr = split_line_column(expr)
                is_a = target.startswith("pf_fa")
                layout = lines[0] if is_a else lines[1]  # the slice along p, then along q (their order in the plan)
                trans = "_trans" in helper
                for tid in range(threads):
                    for r0 in range(0, tile["k_step"], step):
                        for idx in range(tiles_p if is_a else tiles_q):
                            if not is_a and idx % 2:
                                continue
                            env = {"pf_tid": tid, "pf_wp": (tid >> 5) // warps_q, "pf_wq": (tid >> 5) % warps_q,
                                   "pf_r": r0, "pf_a": idx, "pf_b": idx}
                            warp0 = tid & ~31
                            lane = tid & 31
                            g, t = lane >> 2, lane & 3
                            for reg in range(4):
                                # The lanes whose addresses are the rows of matrix `reg`.
                                def row_of(row):
                                    e = dict(env, pf_tid=warp0 + 8 * reg + row)
                                    return value(line_expr, e), value(col_expr, e)
                                got = []
                                for h in range(2 if half else 1):
                                    if trans:  # lane gets (row 2t + h, column g) of the 8 x 8 block
                                        ln, col = row_of(2 * t + h)
                                        got.append((ln, col + g))
                                    else:  # lane gets row g, its word t (two halves, or one float)
                                        ln, col = row_of(g)
                                        got.append((ln, col + (2 * t + h if half else t)))
                                # What the mma expects there, as (p or q, r) of the warp's tiles.
                                if is_a:
                                    p = env["pf_wp"] * warp_p + idx * 16 + g + 8 * (reg & 1)
                                    want = [(p, r0 + (2 * t + h if half else t) + (reg >> 1) * (8 if half else 4))
                                            for h in range(2 if half else 1)]
                                else:
                                    q = env["pf_wq"] * warp_q + (idx + (reg >> 1)) * 8 + g
                                    want = [(q, r0 + (2 * t + h if half else t) + (reg & 1) * (8 if half else 4))
                                            for h in range(2 if half else 1)]
                                # The slice's lines run across p or q ("p", "q") or across r ("r").
                                if layout == "r":
                                    want = [(rr, qq) for qq, rr in want]
                                if got != want:
                                    raise SystemExit(f"fragment_check: {k['function']} {helper} into {target}: thread {tid}, "
                                                     f"r {r0}, tile {idx}, register {reg}: loads {got}, the mma wants {want}")
                                checked += 1
    if not checked:
        raise SystemExit("fragment_check: no tensor-core tile in the plan")
    print(f"fragment_check: {checked} fragment registers as the mma expects them")


if __name__ == "__main__":
    main()
