#!/usr/bin/python3
"""An evaluation of a TC program by NumPy, independent of polyfuse's interpreter.

polyfuse's interpreter is the oracle every generated kernel is verified against; this
tool checks the oracle. It reads the program as `polyfuse check` states it (tensors,
statements, each statement's index ranges), evaluates every statement with NumPy in
double precision, whole index grids at a time (the right-hand side over all points, then
the reduction over the reduction dimensions), and compares the outputs with what
`polyfuse exec --backend ref` computes from the same inputs.

  tc_numpy.py FILE.tc --polyfuse BIN [--size N=33,M=129] [--entry DEF] [--seed S]

Float inputs are uniform in [-1, 1] (rounded to float for float tensors); integer
inputs are uniform over the extent of the dimension they index; scalars uniform in
[0.5, 1.5]. An output matches when every element is within 1e-4 of the output's largest
magnitude (the program may compute in float; this evaluation does not round). Exit
status 0 when every output matches, 1 otherwise, 2 on a usage or tool error.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

TYPES = {"float": np.float32, "double": np.float64, "int32": np.int32, "int64": np.int64}
erf = np.vectorize(math.erf, otypes=[np.float64])


def fail(msg):
    print("tc_numpy: " + msg, file=sys.stderr)
    sys.exit(2)


def maximum(a, b):  # NaN propagates: np.maximum
    return np.maximum(a, b)


FUNCTIONS = {
    "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "rsqrt": lambda x: 1.0 / np.sqrt(x), "tanh": np.tanh, "erf": erf,
    "fabs": np.abs, "fmax": np.fmax, "fmin": np.fmin, "pow": np.power, "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "maximum": np.maximum, "minimum": np.minimum, "trunc": np.trunc, "fma": lambda a, b, c: a * b + c,
    "asin": np.arcsin, "acos": np.arccos, "sinh": np.sinh, "cosh": np.cosh, "asinh": np.arcsinh,
    "acosh": np.arccosh, "atanh": np.arctanh, "cbrt": np.cbrt, "erfc": np.vectorize(math.erfc, otypes=[np.float64]),
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "atan": np.arctan, "atan2": np.arctan2, "floor": np.floor,
    "ceil": np.ceil, "round": lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5), "rint": np.rint, "log1p": np.log1p,
    "log2": np.log2, "log10": np.log10, "exp2": np.exp2, "expm1": np.expm1, "copysign": np.copysign, "fmod": np.fmod,
}


# ---- expressions: TC syntax to a Python expression over NumPy grids ----

TOKEN = re.compile(r"\s*(?:(\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\d+)|([A-Za-z_]\w*)|"
                   r"(<=|>=|==|!=|[-+*/(),?:<>]))")


def tokens(text):
    out, i = [], 0
    while i < len(text):
        m = TOKEN.match(text, i)
        if not m:
            if text[i:].strip() == "":
                break
            fail("cannot read %r" % text[i:])
        out.append(m.group(1) and ("num", m.group(1)) or m.group(2) and ("name", m.group(2)) or ("op", m.group(3)))
        i = m.end()
    return out


class Expr:
    """Pratt parser; `code` returns Python source evaluated with the grids in scope."""

    def __init__(self, text, tensors):
        self.t, self.i, self.tensors = tokens(text), 0, tensors

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else ("end", "")

    def take(self, want=None):
        tok = self.peek()
        if want and tok[1] != want:
            fail("expected %r, found %r" % (want, tok[1]))
        self.i += 1
        return tok

    def parse(self, min_prec=0):
        kind, v = self.take()
        if v == "(":
            left = self.parse()
            self.take(")")
        elif v == "-":
            left = "(-%s)" % self.parse(3)
        elif kind == "num":
            left = "np.float64(%s)" % v
        elif kind == "name":
            if self.peek()[1] == "(":
                self.take("(")
                args = []
                while self.peek()[1] != ")":
                    args.append(self.parse())
                    if self.peek()[1] == ",":
                        self.take(",")
                self.take(")")
                if v in self.tensors:
                    left = "T[%r][%s]" % (v, ", ".join("ix(%s)" % a for a in args) or "()")
                elif v in FUNCTIONS:
                    left = "F[%r](%s)" % (v, ", ".join(args))
                elif v in ("wrap", "zext", "idiv", "irem", "floordiv", "ceildiv", "round_f32", "round_f16", "round_bf16"):
                    fail("%s() is MLIR's cast; this evaluator reads TC programs" % v)
                else:
                    fail("unknown function %s" % v)
            elif v in self.tensors:  # a rank-0 tensor
                left = "T[%r][()]" % v
            else:
                left = "V[%r]" % v
        else:
            fail("unexpected %r" % v)
        while True:
            op = self.peek()[1]
            prec = {"?": 0, "<": 1, "<=": 1, ">": 1, ">=": 1, "==": 1, "!=": 1, "+": 2, "-": 2, "*": 3, "/": 3}.get(op)
            if prec is None or prec < min_prec or (prec == 0 and min_prec > 0):
                return left
            self.take()
            if op == "?":
                a = self.parse()
                self.take(":")
                b = self.parse()
                left = "np.where(%s, %s, %s)" % (left, a, b)
                continue
            right = self.parse(prec + 1)
            left = "(%s %s %s)" % (left, op, right)


def ix(x):
    """A subscript: an integer grid (a gathered id is read as a value, then an index)."""
    return np.asarray(x).astype(np.int64)


# ---- the program as `polyfuse check` states it ----

def read_program(text):
    tensors, scalars, stmts = {}, [], []
    section = None
    for line in text.splitlines():
        if line.startswith("scalars:"):
            scalars = [w for w in line.split()[1:] if w not in ("float", "double")]
        elif line.startswith("tensors:"):
            section = "tensors"
        elif line.startswith("statements:"):
            section = "statements"
        elif line.startswith("dependences:"):
            section = None
        elif section == "tensors" and line.startswith("  "):
            name, role, typ = line.split(None, 2)
            m = re.match(r"(\w+)(?:\((.*)\))?", typ.strip())
            tensors[name] = (role, m.group(1), [d.strip() for d in m.group(2).split(",")] if m.group(2) else [])
        elif section == "statements":
            m = re.match(r"  S\d+ \(line \d+\): (.*)", line)
            if m:
                stmts.append({"text": m.group(1), "ranges": []})
            m = re.match(r"    ranges:\s+(.*)", line)
            if m and stmts:
                for r in re.split(r",\s*(?=\w+ in )", m.group(1)):
                    idx, rng = r.split(" in ", 1)
                    lo, hi = rng.split(":", 1)
                    stmts[-1]["ranges"].append((idx.strip(), lo, hi))
    return tensors, scalars, stmts


def size_value(expr, sizes):
    return int(eval(expr.replace("/", "//"), {"__builtins__": {}}, dict(sizes)))


REDUCE = {"+=": (np.sum, 0.0), "*=": (np.prod, 1.0), "max=": (np.max, -np.inf), "min=": (np.min, np.inf),
          "fmax=": (np.nanmax, -np.inf), "fmin=": (np.nanmin, np.inf)}
COMBINE = {"+=": np.add, "*=": np.multiply, "max=": np.maximum, "min=": np.minimum, "fmax=": np.fmax, "fmin=": np.fmin}


def evaluate(tensors, stmts, sizes, values, scalars):
    T = dict(values)
    for name, (role, typ, dims) in tensors.items():
        if role != "input":
            T[name] = np.zeros([size_value(d, sizes) for d in dims])
    for st in stmts:
        m = re.match(r"(\w+)(?:\(([^)]*)\))?\s*(=|\+=|\*=|max=|min=|fmax=|fmin=)(!?)\s*(.*)", st["text"])
        lhs, lidx, op, bang, rhs = m.groups()
        lidx = [x.strip() for x in lidx.split(",")] if lidx else []
        names = [r[0] for r in st["ranges"]]
        spans = [np.arange(size_value(lo, sizes), size_value(hi, sizes)) for _, lo, hi in st["ranges"]]
        if any(len(s) == 0 for s in spans):
            continue  # an empty domain executes nothing, its '!' included
        grids = np.meshgrid(*spans, indexing="ij") if spans else []
        V = dict(sizes)
        V.update(scalars)
        V.update({n: g for n, g in zip(names, grids)})
        code = Expr(rhs, tensors).parse()
        val = np.broadcast_to(eval(code, {"np": np, "ix": ix, "F": FUNCTIONS, "T": T, "V": V}), grids[0].shape if grids else ())
        out = T[lhs]
        if not all(n in names for n in lidx):
            # A temporary stored flat (polyir/CollapseLoops.h) is written at an affine
            # function of whole loops, `r(35*a + 7*b + c)`: the loops it names are the
            # parallel ones, in range order, and each subscript is evaluated over them.
            used = [k for k, n in enumerate(names) if any(re.search(r"\b%s\b" % n, x) for x in lidx)]
            at_of = lambda W: tuple(ix(eval(x.replace("/", "//"), {}, W)) for x in lidx)
            if op == "=":
                out[at_of(V)] = val
                continue
            red = [k for k in range(len(names)) if k not in used]
            reduce_fn, identity = REDUCE[op]
            reduced = reduce_fn(val, axis=tuple(red)) if red else val
            W = dict(sizes)
            W.update(zip([names[k] for k in used], np.meshgrid(*[spans[k] for k in used], indexing="ij")))
            at = at_of(W)
            start = np.full(reduced.shape, identity) if bang else out[at]
            out[at] = COMBINE[op](start, reduced)
            continue
        red = [k for k, n in enumerate(names) if n not in lidx]
        par = [names.index(n) for n in lidx]
        if op == "=":
            out[tuple(ix(V[n]) for n in lidx)] = val
            continue
        reduce_fn, identity = REDUCE[op]
        reduced = reduce_fn(val, axis=tuple(red)) if red else val
        # The reduced array's axes are the parallel ones in range order; put them in lhs order.
        order = [sorted(par).index(p) for p in par]
        reduced = np.transpose(reduced, order) if reduced.ndim > 1 else reduced
        pgrids = np.meshgrid(*[spans[p] for p in par], indexing="ij") if par else []
        at = tuple(pgrids) if par else ()
        start = np.full(reduced.shape, identity) if bang else out[at]
        out[at] = COMBINE[op](start, reduced)
    return T


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--polyfuse", required=True)
    ap.add_argument("--size", default="", help="N=33,M=129 (none for a program of constant sizes)")
    ap.add_argument("--entry", default="")
    ap.add_argument("--seed", type=int, default=3)
    a = ap.parse_args()
    entry = ["--entry", a.entry] if a.entry else []
    chk = subprocess.run([a.polyfuse, "check", a.file] + entry, capture_output=True, text=True)
    if chk.returncode:
        fail("polyfuse check failed:\n" + chk.stderr)
    tensors, scalar_names, stmts = read_program(chk.stdout)
    sizes = {k: int(v) for k, v in (kv.split("=") for kv in a.size.split(",") if kv)}
    rng = np.random.default_rng(a.seed)
    # Integer inputs index a dimension: the extent of the first one they subscript.
    extent = {}
    for st in stmts:
        for m in re.finditer(r"(\w+)\(([^()]*\(\s*[^()]*\)[^()]*)\)", st["text"]):
            target, subs = m.group(1), m.group(2)
            parts = re.split(r",\s*(?![^()]*\))", subs)
            for k, p in enumerate(parts):
                g = re.match(r"\s*(\w+)\(", p)
                if g and g.group(1) in tensors and target in tensors:
                    extent.setdefault(g.group(1), size_value(tensors[target][2][k], sizes))
    values, files = {}, []
    with tempfile.TemporaryDirectory() as work:
        for name, (role, typ, dims) in tensors.items():
            if role != "input":
                continue
            shape = [size_value(d, sizes) for d in dims]
            if typ.startswith("int"):
                arr = rng.integers(0, extent.get(name, 1), size=shape).astype(TYPES[typ])
            else:
                arr = rng.uniform(-1, 1, size=shape).astype(TYPES[typ])
            values[name] = arr.astype(np.float64)
            f = os.path.join(work, name + ".npy")
            np.save(f, arr)
            files.append("--input=%s=%s" % (name, f))
        scalars = {n: float(np.float32(rng.uniform(0.5, 1.5))) for n in scalar_names}
        out = os.path.join(work, "out")
        cmd = [a.polyfuse, "exec", a.file, "--backend", "ref", "--dump", out] + (["--size", a.size] if a.size else []) + entry + files
        cmd += ["--scalar=%s=%r" % kv for kv in scalars.items()]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            fail("polyfuse exec failed:\n" + r.stdout + r.stderr)
        want = evaluate(tensors, stmts, sizes, values, scalars)
        bad = 0
        for name, (role, _, _) in tensors.items():
            if role != "output":
                continue
            got = np.load(os.path.join(out, name + ".npy")).astype(np.float64)
            w = np.asarray(want[name], dtype=np.float64)
            scale = max(float(np.max(np.abs(w))) if w.size else 0.0, 1e-30)
            err = float(np.max(np.abs(got - w))) / scale if w.size else 0.0
            if got.shape != w.shape or not err <= 1e-4:
                print("%s: polyfuse's reference differs from NumPy (normwise %.3g)" % (name, err))
                bad += 1
            else:
                print("%s: %d elements match the NumPy evaluation (normwise %.1e)" % (name, w.size, err))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
