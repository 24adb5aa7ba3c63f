#!/usr/bin/env python3
"""Writes a LLaMA-style decoder stack as linalg on tensors, in the op vocabulary
torch-mlir lowers such a model to. No network, no framework: the geometry is all it
needs.

  gen_decoder.py --model tinyllama --layers 2 --seq 128 > prefill.mlir
  gen_decoder.py --model llama-3.2-1b --layers 1 --decode 512 > decode.mlir
  gen_decoder.py --layers 1 --hidden 16 --heads 4 --kv-heads 2 --ffn 24 --seq 5   (any geometry)

Per layer, from the hidden states x [S, D] (D = H x Dh):
  RMSNorm: the mean of squares per row, x * rsqrt(ms + eps) * g;
  Q, K, V projections (linalg.matmul with a zero fill; no bias), K and V with KVH heads;
  heads: tensor.expand_shape, Q to [S, KVH, G, Dh] (G = H / KVH query heads share a key
  head: grouped-query attention), K and V to [S, KVH, Dh];
  rotary embeddings on Q and K: x * cos + rotate_half(x) * sin, rotate_half as torch
  writes it: the two halves sliced (tensor.extract_slice), the second negated, the two
  concatenated in swapped order (tensor.concat); cos and sin are [S, Dh] arguments;
  decode (--decode T): one new token; the K and V caches, [T - 1, KVH, Dh] arguments,
  take the new key and value by tensor.concat;
  scores over Dh, a scale, the causal mask (computed from the positions with
  linalg.index: -inf where the key is later than the query), softmax as max / exp of
  the difference / sum / divide, the weighted sum of values;
  heads merged by tensor.collapse_shape, the output projection and the residual;
  RMSNorm, SwiGLU (silu(x Wg) * x Wu), the down projection and the residual.
A final RMSNorm ends the stack.

Choices, and where they differ from torch-mlir's output: batch 1 is folded away; the
weights are function arguments laid out [in, out]; the rotary tables are arguments
(torch-mlir computes them from constant buffers); the mask is computed in the scores'
body instead of read from a constant buffer. For the TC form, `polyfuse check FILE --tc`
prints the program the importer reads.
"""
import argparse
import math
import sys

MODELS = {
    # name: layers, hidden, heads, kv heads, ffn
    "tinyllama": (22, 2048, 32, 4, 5632),
    "llama-3.2-1b": (16, 2048, 32, 8, 8192),
}


def ty(*shape):
    return "tensor<" + "x".join(str(s) for s in shape) + "xf32>"


def idmap(rank):
    ds = ", ".join(f"d{k}" for k in range(rank))
    return f"affine_map<({ds}) -> ({ds})>"


def amap(rank, dims):
    """An affine map of `rank` loops onto the loops listed (numbers) or expressions."""
    ds = ", ".join(f"d{k}" for k in range(rank))
    return f"affine_map<({ds}) -> ({', '.join(d if isinstance(d, str) else f'd{d}' for d in dims)})>"


class Writer:
    def __init__(self):
        self.lines = []

    def w(self, line):
        self.lines.append(line)

    def generic(self, dst, ins, out_shape, iters, body, init=None, out_dims=None):
        """ins: (value, type, map); the result indexed by out_dims (default: the first loops)."""
        rank = len(iters)
        out_ty = ty(*out_shape)
        out_map = amap(rank, out_dims if out_dims is not None else list(range(len(out_shape))))
        self.w(f"  %{dst}_e = tensor.empty() : {out_ty}")
        outs = f"%{dst}_e"
        if init is not None:
            self.w(f"  %{dst}_i = linalg.fill ins(%{init} : f32) outs(%{dst}_e : {out_ty}) -> {out_ty}")
            outs = f"%{dst}_i"
        maps = ", ".join([m for _, _, m in ins] + [out_map])
        it = ", ".join(f'"{i}"' for i in iters)
        self.w(f"  %{dst} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{it}]}}")
        self.w(f"      ins({', '.join('%' + v for v, _, _ in ins)} : {', '.join(t for _, t, _ in ins)}) "
               f"outs({outs} : {out_ty}) {{")
        self.w(f"  ^bb0({', '.join(f'%a{k}: f32' for k in range(len(ins)))}, %acc: f32):")
        for line in body:
            self.w("    " + line)
        self.w(f"  }} -> {out_ty}")

    def matmul(self, dst, a, b, m, k, n):
        self.w(f"  %{dst}_e = tensor.empty() : {ty(m, n)}")
        self.w(f"  %{dst}_z = linalg.fill ins(%zero : f32) outs(%{dst}_e : {ty(m, n)}) -> {ty(m, n)}")
        self.w(f"  %{dst} = linalg.matmul ins(%{a}, %{b} : {ty(m, k)}, {ty(k, n)}) "
               f"outs(%{dst}_z : {ty(m, n)}) -> {ty(m, n)}")


def decoder(L, D, H, KVH, F, S, T):
    """S query positions; T key positions (T = S in prefill, the cache plus one in decode)."""
    Dh, G, KD = D // H, H // KVH, (D // H) * KVH
    half = Dh // 2
    P = T - S  # the first query's position
    out = Writer()
    w = out.w
    args = [f"%x0: {ty(S, D)}", f"%cos: {ty(S, Dh)}", f"%sin: {ty(S, Dh)}"]
    for l in range(L):
        args += [f"%gn1_{l}: {ty(D)}", f"%Wq_{l}: {ty(D, D)}", f"%Wk_{l}: {ty(D, KD)}", f"%Wv_{l}: {ty(D, KD)}",
                 f"%Wo_{l}: {ty(D, D)}", f"%gn2_{l}: {ty(D)}", f"%Wg_{l}: {ty(D, F)}", f"%Wu_{l}: {ty(D, F)}",
                 f"%Wd_{l}: {ty(F, D)}"]
        if T > S:
            args += [f"%kc_{l}: {ty(T - S, KVH, Dh)}", f"%vc_{l}: {ty(T - S, KVH, Dh)}"]
    args.append(f"%gf: {ty(D)}")
    mode = f"decode of {S} token(s) after {T - S} cached" if T > S else f"prefill of {S} tokens"
    w(f"// {L} decoder layer(s): D={D}, H={H}, KVH={KVH}, F={F}, {mode} "
      f"(generated by examples/models/gen_decoder.py)")
    w("func.func @decoder(" + ",\n    ".join(args) + f") -> {ty(S, D)} {{")
    w("  %zero = arith.constant 0.0 : f32")
    w("  %one = arith.constant 1.0 : f32")
    w("  %ninf = arith.constant 0xFF800000 : f32")
    w(f"  %scale = arith.constant {1 / math.sqrt(Dh):.8f} : f32")
    w("  %eps = arith.constant 1.0e-5 : f32")
    w(f"  %dlen = arith.constant {float(D)} : f32")
    w(f"  %first = arith.constant {P} : index")

    def rmsnorm(dst, x, g):
        out.generic(f"{dst}_ss", [(x, ty(S, D), amap(2, [0, 1]))], [S], ["parallel", "reduction"],
                    ["%q = arith.mulf %a0, %a0 : f32", "%r = arith.addf %q, %acc : f32", "linalg.yield %r : f32"],
                    init="zero")
        out.generic(dst, [(x, ty(S, D), amap(2, [0, 1])), (f"{dst}_ss", ty(S), amap(2, [0])), (g, ty(D), amap(2, [1]))],
                    [S, D], ["parallel", "parallel"],
                    ["%m = arith.divf %a1, %dlen : f32", "%v = arith.addf %m, %eps : f32", "%r = math.rsqrt %v : f32",
                     "%n = arith.mulf %a0, %r : f32", "%y = arith.mulf %n, %a2 : f32", "linalg.yield %y : f32"])
        return dst

    def rope(dst, x, shape):
        """x * cos + rotate_half(x) * sin over the last dimension; rows are dimension 0."""
        r = len(shape)
        lo = list(shape[:-1]) + [half]
        zeros, ones = ", ".join(["0"] * r), ", ".join(["1"] * r)
        sizes = ", ".join(str(s) for s in lo)
        w(f"  %{dst}_a = tensor.extract_slice %{x}[{zeros}] [{sizes}] [{ones}] : {ty(*shape)} to {ty(*lo)}")
        w(f"  %{dst}_b = tensor.extract_slice %{x}[{', '.join(['0'] * (r - 1) + [str(half)])}] [{sizes}] [{ones}] "
          f": {ty(*shape)} to {ty(*lo)}")
        out.generic(f"{dst}_n", [(f"{dst}_b", ty(*lo), idmap(r))], lo, ["parallel"] * r,
                    ["%n = arith.negf %a0 : f32", "linalg.yield %n : f32"])
        w(f"  %{dst}_h = tensor.concat dim({r - 1}) %{dst}_n, %{dst}_a : ({ty(*lo)}, {ty(*lo)}) -> {ty(*shape)}")
        table = amap(r, [0, r - 1])
        out.generic(dst, [(x, ty(*shape), idmap(r)), (f"{dst}_h", ty(*shape), idmap(r)), ("cos", ty(S, Dh), table),
                          ("sin", ty(S, Dh), table)], list(shape), ["parallel"] * r,
                    ["%c = arith.mulf %a0, %a2 : f32", "%s = arith.mulf %a1, %a3 : f32", "%y = arith.addf %c, %s : f32",
                     "linalg.yield %y : f32"])
        return dst

    x = "x0"
    for l in range(L):
        p = f"_{l}"
        y = rmsnorm(f"n1{p}", x, f"gn1{p}")
        out.matmul(f"q{p}", y, f"Wq{p}", S, D, D)
        out.matmul(f"k{p}", y, f"Wk{p}", S, D, KD)
        out.matmul(f"v{p}", y, f"Wv{p}", S, D, KD)
        w(f"  %q4{p} = tensor.expand_shape %q{p} [[0], [1, 2, 3]] output_shape [{S}, {KVH}, {G}, {Dh}] "
          f": {ty(S, D)} into {ty(S, KVH, G, Dh)}")
        for n in "kv":
            w(f"  %{n}3{p} = tensor.expand_shape %{n}{p} [[0], [1, 2]] output_shape [{S}, {KVH}, {Dh}] "
              f": {ty(S, KD)} into {ty(S, KVH, Dh)}")
        qr = rope(f"qr{p}", f"q4{p}", (S, KVH, G, Dh))
        kr = rope(f"kr{p}", f"k3{p}", (S, KVH, Dh))
        keys, values = kr, f"v3{p}"
        if T > S:
            for n, new in (("k", kr), ("v", f"v3{p}")):
                w(f"  %{n}all{p} = tensor.concat dim(0) %{n}c{p}, %{new} : ({ty(T - S, KVH, Dh)}, {ty(S, KVH, Dh)}) "
                  f"-> {ty(T, KVH, Dh)}")
            keys, values = f"kall{p}", f"vall{p}"
        # Scores (h, g, s, t), reduced over d; the causal mask from the positions.
        out.generic(f"sc{p}", [(qr, ty(S, KVH, G, Dh), amap(5, [2, 0, 1, 4])), (keys, ty(T, KVH, Dh), amap(5, [3, 0, 4]))],
                    [KVH, G, S, T], ["parallel", "parallel", "parallel", "parallel", "reduction"],
                    ["%m = arith.mulf %a0, %a1 : f32", "%r = arith.addf %m, %acc : f32", "linalg.yield %r : f32"],
                    init="zero")
        par4 = ["parallel"] * 4
        out.generic(f"z{p}", [(f"sc{p}", ty(KVH, G, S, T), idmap(4))], [KVH, G, S, T], par4,
                    ["%s = linalg.index 2 : index", "%t = linalg.index 3 : index", "%pos = arith.addi %s, %first : index",
                     "%later = arith.cmpi sgt, %t, %pos : index", "%b = arith.select %later, %ninf, %zero : f32",
                     "%x = arith.mulf %a0, %scale : f32", "%y = arith.addf %x, %b : f32", "linalg.yield %y : f32"])
        rows = amap(4, [0, 1, 2])
        out.generic(f"mx{p}", [(f"z{p}", ty(KVH, G, S, T), idmap(4))], [KVH, G, S], par4[:3] + ["reduction"],
                    ["%r = arith.maximumf %a0, %acc : f32", "linalg.yield %r : f32"], init="ninf")
        out.generic(f"pe{p}", [(f"z{p}", ty(KVH, G, S, T), idmap(4)), (f"mx{p}", ty(KVH, G, S), rows)], [KVH, G, S, T],
                    par4, ["%d = arith.subf %a0, %a1 : f32", "%e = math.exp %d : f32", "linalg.yield %e : f32"])
        out.generic(f"sm{p}", [(f"pe{p}", ty(KVH, G, S, T), idmap(4))], [KVH, G, S], par4[:3] + ["reduction"],
                    ["%r = arith.addf %a0, %acc : f32", "linalg.yield %r : f32"], init="zero")
        out.generic(f"pr{p}", [(f"pe{p}", ty(KVH, G, S, T), idmap(4)), (f"sm{p}", ty(KVH, G, S), rows)], [KVH, G, S, T],
                    par4, ["%d = arith.divf %a0, %a1 : f32", "linalg.yield %d : f32"])
        # Weighted values (s, h, g, d), reduced over t; heads merged back.
        out.generic(f"at{p}", [(f"pr{p}", ty(KVH, G, S, T), amap(5, [1, 2, 0, 4])),
                               (values, ty(T, KVH, Dh), amap(5, [4, 1, 3]))],
                    [S, KVH, G, Dh], ["parallel", "parallel", "parallel", "parallel", "reduction"],
                    ["%m = arith.mulf %a0, %a1 : f32", "%r = arith.addf %m, %acc : f32", "linalg.yield %r : f32"],
                    init="zero")
        w(f"  %mg{p} = tensor.collapse_shape %at{p} [[0], [1, 2, 3]] : {ty(S, KVH, G, Dh)} into {ty(S, D)}")
        out.matmul(f"o{p}", f"mg{p}", f"Wo{p}", S, D, D)
        out.generic(f"r1{p}", [(x, ty(S, D), idmap(2)), (f"o{p}", ty(S, D), idmap(2))], [S, D], ["parallel"] * 2,
                    ["%y = arith.addf %a0, %a1 : f32", "linalg.yield %y : f32"])
        y2 = rmsnorm(f"n2{p}", f"r1{p}", f"gn2{p}")
        out.matmul(f"gt{p}", y2, f"Wg{p}", S, D, F)
        out.matmul(f"up{p}", y2, f"Wu{p}", S, D, F)
        out.generic(f"sw{p}", [(f"gt{p}", ty(S, F), idmap(2)), (f"up{p}", ty(S, F), idmap(2))], [S, F], ["parallel"] * 2,
                    ["%n = arith.negf %a0 : f32", "%e = math.exp %n : f32", "%d = arith.addf %e, %one : f32",
                     "%s = arith.divf %a0, %d : f32", "%y = arith.mulf %s, %a1 : f32", "linalg.yield %y : f32"])
        out.matmul(f"dn{p}", f"sw{p}", f"Wd{p}", S, F, D)
        out.generic(f"r2{p}", [(f"r1{p}", ty(S, D), idmap(2)), (f"dn{p}", ty(S, D), idmap(2))], [S, D], ["parallel"] * 2,
                    ["%y = arith.addf %a0, %a1 : f32", "linalg.yield %y : f32"])
        x = f"r2{p}"
    y = rmsnorm("nf", x, "gf")
    w(f"  return %{y} : {ty(S, D)}")
    w("}")
    return "\n".join(out.lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description="Write a LLaMA-style decoder stack as linalg on tensors (see the "
                                             "module's docstring for the ops and the choices).")
    ap.add_argument("--model", choices=sorted(MODELS), help="a preset geometry; the options below override it")
    ap.add_argument("--layers", type=int, help="decoder layers")
    ap.add_argument("--hidden", type=int, help="model width D")
    ap.add_argument("--heads", type=int, help="query heads H")
    ap.add_argument("--kv-heads", type=int, help="key and value heads KVH (H a multiple of it)")
    ap.add_argument("--ffn", type=int, help="SwiGLU width F")
    ap.add_argument("--seq", type=int, default=128, help="prefill: tokens (default 128)")
    ap.add_argument("--decode", type=int, metavar="T",
                    help="one-token decode with T positions in all (T - 1 cached keys and values)")
    a = ap.parse_args()
    L, D, H, KVH, F = MODELS[a.model] if a.model else (1, 64, 4, 2, 128)
    L = a.layers or L
    D, H, KVH, F = a.hidden or D, a.heads or H, a.kv_heads or KVH, a.ffn or F
    if min(L, D, H, KVH, F, a.seq) < 1:
        ap.error("every size must be at least 1")
    if D % H or H % KVH or (D // H) % 2:
        ap.error("the width must split into heads of an even size, and the heads into key-value groups")
    S, T = (1, a.decode) if a.decode else (a.seq, a.seq)
    if T < 2 and a.decode:
        ap.error("--decode needs at least 2 positions (one cached)")
    sys.stdout.write(decoder(L, D, H, KVH, F, S, T))


if __name__ == "__main__":
    main()
