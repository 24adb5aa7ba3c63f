#!/usr/bin/python3
"""Runs a linalg function with MLIR's own semantics and compares polyfuse with it.

polyfuse's `verified` compares generated code with polyfuse's own reading of the file,
so an op it misreads verifies. This tool asks MLIR instead: it wraps the function in a
`main` that calls it on constant inputs and prints every result, lowers that with
mlir-opt-19 (one-shot bufferization, linalg to loops, to LLVM) and runs it with
mlir-cpu-runner-19. polyfuse then runs the same inputs (`exec --input ... --dump`) on each
backend asked for, and every element is compared. Where polyfuse's Python module of the
same build sits beside the command (BUILD/python), it does the same in this process
(`Program.interpret`, `Plan.run(inputs=..., outputs=True)`): one load of MLIR and one start
of PoCL instead of one a command.

  mlir_oracle.py FILE.mlir --polyfuse BIN [--entry F] [--backend ref|opencl ...]
                 [--value NAME=JSON-LIST ...] [--input NAME=FILE.npy ...] [--shape NAME=AxB ...] [--seed N]

Inputs not given are drawn from a seeded generator: floats uniform in [-1, 1] (rounded to
the argument's type), integers uniform in [0, --int-high) (i8 and i16 in [-high, high)). A --value is a JSON list of the
argument's elements in row-major order; "nan", "inf" and "-inf" are allowed. Elided
constants (`dense_resource<__elided__>`) are drawn the same way and written into a copy
of the file that both MLIR and polyfuse read.

MLIR's printMemref prints 6 significant digits, so elements match when they are both NaN,
equal infinities, or within 1e-5 relative (plus --atol). Exit status 0 when every output
of every backend matches, 1 on a mismatch, 2 on a usage or tool error.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

LIB = "/usr/lib/llvm-19/lib"
PASSES = [
    # Elementwise ops on whole tensors first, as polyfuse reads them (the bufferizer
    # takes no arith.select of a tensor condition).
    "--convert-elementwise-to-linalg",
    "--one-shot-bufferize=bufferize-function-boundaries",
    "--convert-linalg-to-loops", "--convert-math-to-funcs", "--convert-scf-to-cf", "--expand-strided-metadata", "--lower-affine",
    "--arith-expand", "--finalize-memref-to-llvm", "--convert-math-to-llvm", "--convert-math-to-libm", "--convert-arith-to-llvm",
    "--convert-func-to-llvm", "--convert-cf-to-llvm", "--reconcile-unrealized-casts",
]
TOSA_PIPELINE = ("builtin.module(func.func(tosa-optional-decompositions, tosa-make-broadcastable, tosa-to-linalg-named, "
                 "tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor))")
# tensor.concat has no bufferization in MLIR 19: MLIR's own decomposition (an empty
# tensor and an insert_slice per operand) runs first, through the transform interpreter.
DECOMPOSE_CONCAT = """module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.decompose_concat
    } : !transform.any_op
    transform.yield
  }
}
"""
# tensor.pack and tensor.unpack have no bufferization either: MLIR's own lowering (a pad,
# an expand_shape and a transpose; an unpack the reverse) runs first, the same way; so
# does linalg.softmax's decomposition.
LOWER_PACK = """module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
{ops}    transform.yield
  }
}
"""
LOWER_ONE = {
    "tensor.pack": """    %p = transform.structured.match ops{["tensor.pack"]} in %root : (!transform.any_op) -> !transform.op<"tensor.pack">
    transform.structured.lower_pack %p : (!transform.op<"tensor.pack">) -> (!transform.op<"tensor.pad">, !transform.op<"tensor.expand_shape">, !transform.op<"linalg.transpose">)
""",
    "tensor.unpack": """    %u = transform.structured.match ops{["tensor.unpack"]} in %root : (!transform.any_op) -> !transform.op<"tensor.unpack">
    transform.structured.lower_unpack %u : (!transform.op<"tensor.unpack">) -> (!transform.op<"tensor.empty">, !transform.op<"linalg.transpose">, !transform.op<"tensor.collapse_shape">, !transform.op<"tensor.extract_slice">)
""",
    # linalg.softmax has no lowering to loops: its own decomposition (the aggregated-op
    # interface: a max, an exp of the difference, a sum, a division), as polyfuse reads it.
    "linalg.softmax": """    %s = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %sd = transform.structured.decompose_interface %s : (!transform.any_op) -> !transform.any_op
""",
}
DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": np.float32, "i32": np.int32, "i64": np.int64, "i8": np.int8, "i16": np.int16,
          "i1": np.bool_, "index": np.int64}
NPY_TO_TC = {np.float32: "float", np.float64: "double", np.int32: "int32", np.int64: "int64"}


def to_bf16(a):
    """Rounds to the nearest bfloat16 (ties to even), held in float32 (numpy has no bfloat16)."""
    u = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return u.astype(np.uint32).view(np.float32)


# Results MLIR's runtime cannot print are widened, exactly, to a type it can: 16-bit
# floats to f32, i1 (zero-extended: 0 or 1) and i8/i16 (sign-extended) to i32.
WIDENED = {"f16": ("f32", "arith.extf"), "bf16": ("f32", "arith.extf"), "i1": ("i32", "arith.extui"),
           "i8": ("i32", "arith.extsi"), "i16": ("i32", "arith.extsi")}


def fail(msg, status=2):
    print("mlir_oracle: " + msg, file=sys.stderr)
    sys.exit(status)


def split_top(text, sep=","):
    """Splits at `sep` outside brackets."""
    out, depth, cur = [], 0, ""
    for c in text:
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        if c == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur)
    return [x.strip() for x in out]


def signature(text, entry):
    """(name, [(arg, type)], [result type]) of the entry function."""
    # As polyfuse chooses: the named function, else the first public one (private
    # functions are helpers its calls reach), else the first.
    found = list(re.finditer(r"func\.func\s+(public\s+|private\s+)?@([\w$.]+)\s*\(", text))

    def has_body(m):
        i, depth = m.end(), 1
        while depth and i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        end = text.find("\n", i)
        return "{" in text[i:end if end >= 0 else len(text)]
    found = [m for m in found if has_body(m)]
    if not entry:
        public = [m for m in found if not (m.group(1) or "").startswith("private")]
        found = (public or found)[:1]
    for m in found:
        name = m.group(2)
        if entry and name != entry:
            continue
        i, depth = m.end(), 1
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args = []
        for a in split_top(text[m.end():i - 1]):
            an, at = a.split(":", 1)
            args.append((an.strip().lstrip("%"), re.sub(r"\s*\{.*\}\s*$", "", at.strip())))
        rest = text[i:]
        rm = re.match(r"\s*->\s*(\((.*?)\)|[^{]+?)\s*(attributes\s*\{.*?\})?\s*\{", rest, re.S)
        results = split_top(rm.group(2) if rm and rm.group(2) is not None else (rm.group(1) if rm else ""))
        return name, args, [re.sub(r"\s*\{.*\}\s*$", "", r) for r in results]
    fail("no function %s in the file" % (entry or "with a body"))


def entry_only(text, name):
    """The file without its top-level functions that the entry does not call, directly
    or through others (they may use ops this lowering does not handle)."""
    spans = []  # (name, start, end) of each function
    i = 0
    # IREE's util.func too: MLIR cannot lower it, so one the entry does not reach goes.
    heads = list(re.finditer(r"^\s*(?:func|util)\.func\s+(?:public\s+|private\s+)?@([\w$.]+)\s*\(", text, re.M))
    for h, m in enumerate(heads):
        if m.start() < i:
            continue
        # Past the arguments (whose attributes hold braces: `{iree.abi.output = 0}`), the
        # body opens before the next function does, or this is a declaration: its header
        # alone.
        a, depth = m.end(), 1
        while a < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[a], 0)
            a += 1
        stop = heads[h + 1].start() if h + 1 < len(heads) else len(text)
        if "{" not in text[a:stop]:
            line_end = text.find("\n", a)
            spans.append((m.group(1), m.start(), line_end if 0 <= line_end < stop else stop))
            i = spans[-1][2]
            continue
        j = text.index("{", a)
        depth, k = 0, j
        while k < len(text):
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                break
        spans.append((m.group(1), m.start(), k))
        i = k
    body = {n: text[a:b] for n, a, b in spans}
    keep, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n in keep or n not in body:
            continue
        keep.add(n)
        todo += re.findall(r"\bcall\s+@([\w$.]+)", body[n])
    out, i = [], 0
    for n, a, b in spans:
        out.append(text[i:a])
        if n in keep:
            out.append(text[a:b])
        i = b
    out.append(text[i:])
    return "".join(out)


def scalar_type(t):
    t = t.replace(" ", "")
    return t if t in ("f32", "f64") else None


def integer_scalar(t):
    """An integer argument (torch-mlir's `dim`, `alpha` of an integer op): polyfuse reads it as a rank-0 input."""
    t = t.replace(" ", "")
    return t if re.fullmatch(r"i[0-9]+", t) else None


def index_scalar(t):
    """An index argument: a size of polyfuse's program (`size N` where no input's shape has it)."""
    return "index" if t.replace(" ", "") == "index" else None


def tensor_type(t):
    if scalar_type(t) or integer_scalar(t) or index_scalar(t):
        return [], (scalar_type(t) or integer_scalar(t) or index_scalar(t))
    m = re.match(r"tensor<((?:[0-9?]+x)*)(\w+)>$", t.replace(" ", ""))
    if not m:
        fail("type %s is not a ranked tensor" % t)
    dims = [d for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def literal(v, elem):
    if elem.startswith("f") or elem == "bf16":
        v = float(v)
        # Non-finite values as bit patterns: quiet NaN, +inf, -inf of each type.
        special = {"f64": ("0x7FF8000000000000", "0x7FF0000000000000", "0xFFF0000000000000"),
                   "f16": ("0x7E00", "0x7C00", "0xFC00"), "bf16": ("0x7FC0", "0x7F80", "0xFF80")}
        nan, pinf, ninf = special.get(elem, ("0x7FC00000", "0x7F800000", "0xFF800000"))
        if math.isnan(v):
            return nan
        if math.isinf(v):
            return pinf if v > 0 else ninf
        return "%.17e" % (v if elem in ("f64", "f16", "bf16") else float(np.float32(v)))
    if elem == "i1":
        return "true" if v else "false"
    return str(int(v))


def dense(arr, elem):
    if arr.ndim == 0:
        return literal(arr.item(), elem)
    return "[" + ", ".join(dense(a, elem) for a in arr) + "]"


def run_mlir(text, name, args, results, inputs, work):
    lines = ["func.func @pf_oracle_main() {"]
    operands = []
    for k, (an, at) in enumerate(args):
        dims, elem = tensor_type(at)
        arr = inputs[an]
        if scalar_type(at) or integer_scalar(at) or index_scalar(at):
            value = literal(arr.item(), elem)
            lines.append("  %%in%d = arith.constant %s" % (k, value if elem == "i1" else value + " : " + elem))
            operands.append("%%in%d" % k)
            continue
        static = "tensor<" + "".join("%dx" % n for n in arr.shape) + elem + ">"
        lines.append("  %%in%d = arith.constant dense<%s> : %s" % (k, dense(arr, elem), static))
        if static != at.replace(" ", ""):
            lines.append("  %%arg%d = tensor.cast %%in%d : %s to %s" % (k, k, static, at))
            operands.append("%%arg%d" % k)
        else:
            operands.append("%%in%d" % k)
    types = ", ".join(a[1] for a in args)
    outs = ", ".join("%%r%d" % k for k in range(len(results)))
    lines.append("  %s = call @%s(%s) : (%s) -> (%s)" % (outs, name, ", ".join(operands), types, ", ".join(results)))
    printers = set()
    for k, rt in enumerate(results):
        dims, elem = tensor_type(rt)
        if elem in WIDENED:
            wide, ext = WIDENED[elem]
            shape = "".join(d + "x" for d in dims)
            maps = "affine_map<(%s) -> (%s)>" % ((", ".join("d%d" % i for i in range(len(dims))),) * 2)
            lines.append("  %%w%d = tensor.empty() : tensor<%s%s>" % (k, shape, wide))
            lines.append("  %%r%dw = linalg.generic {indexing_maps = [%s, %s], iterator_types = [%s]} ins(%%r%d : %s) outs(%%w%d : "
                         "tensor<%s%s>) {\n  ^bb0(%%a: %s, %%o: %s):\n    %%c = %s %%a : %s to %s\n    linalg.yield %%c : %s\n"
                         "  } -> tensor<%s%s>" % (k, maps, maps, ", ".join(['"parallel"'] * len(dims)), k, rt, k, shape, wide,
                                                  elem, wide, ext, elem, wide, wide, shape, wide))
            elem = wide
            src = "%%r%dw" % k
        else:
            src = "%%r%d" % k
        memref = "memref<" + "".join(d + "x" for d in dims) + elem + ">"
        unranked = "memref<*x%s>" % elem
        fn = {"f32": "printMemrefF32", "f64": "printMemrefF64", "i32": "printMemrefI32", "i64": "printMemrefI64"}.get(elem)
        if not fn:
            fail("result type %s cannot be printed" % rt)
        printers.add((fn, unranked))
        lines.append("  %%m%d = bufferization.to_memref %s : %s" % (k, src, memref))
        lines.append("  %%u%d = memref.cast %%m%d : %s to %s" % (k, k, memref, unranked))
        lines.append("  call @%s(%%u%d) : (%s) -> ()" % (fn, k, unranked))
    lines.append("  return\n}")
    for fn, unranked in sorted(printers):
        lines.append("func.func private @%s(%s)" % (fn, unranked))
    # Unused globals (torch-mlir's seed) have no lowering here.
    body = re.sub(r"^\s*ml_program\.global\b.*$", "", entry_only(text, name), flags=re.M).rstrip()
    wrapper = "\n".join(lines)
    # Inside the module when the file has one, else beside the function.
    if re.search(r"^\s*module\b", body, re.M) and body.endswith("}"):
        program = body[:-1] + "\n" + wrapper + "\n}\n"
    else:
        program = body + "\n" + wrapper + "\n"
    src = os.path.join(work, "oracle.mlir")
    with open(src, "w") as f:
        f.write(program)
    passes = list(PASSES)
    if "tensor.concat" in program:
        lib = os.path.join(work, "decompose_concat.mlir")
        with open(lib, "w") as f:
            f.write(DECOMPOSE_CONCAT)
        passes = ["--transform-preload-library=transform-library-paths=" + lib, "--transform-interpreter"] + passes
    packs = "".join(LOWER_ONE[op] for op in ("tensor.pack", "tensor.unpack", "linalg.softmax") if re.search(re.escape(op) + r"\b", program))
    if packs:
        lib = os.path.join(work, "lower_pack.mlir")
        with open(lib, "w") as f:
            f.write(LOWER_PACK.replace("{ops}", packs))
        passes = ["--transform-preload-library=transform-library-paths=" + lib, "--transform-interpreter"] + passes
    if re.search(r"\btosa\.", program):
        # TOSA through MLIR's own conversions first, as polyfuse's importer runs them
        # (src/mlir/LowerTosa.cpp): function passes, so a pipeline of their own.
        tosa = subprocess.run(["mlir-opt-19", src, "--pass-pipeline=" + TOSA_PIPELINE], capture_output=True, text=True)
        if tosa.returncode:
            fail("mlir-opt-19 failed on the TOSA lowering:\n" + tosa.stderr[-4000:])
        src = os.path.join(work, "oracle_linalg.mlir")
        with open(src, "w") as f:
            f.write(tosa.stdout)
    low = subprocess.run(["mlir-opt-19", src] + passes, capture_output=True, text=True)
    if low.returncode:
        fail("mlir-opt-19 failed:\n" + low.stderr[-4000:])
    ll = os.path.join(work, "lowered.mlir")
    with open(ll, "w") as f:
        f.write(low.stdout)
    run = subprocess.run(["mlir-cpu-runner-19", ll, "-e", "pf_oracle_main", "-entry-point-result=void",
                          "-shared-libs=%s/libmlir_runner_utils.so,%s/libmlir_c_runner_utils.so" % (LIB, LIB)],
                         capture_output=True, text=True)
    if run.returncode:
        fail("mlir-cpu-runner-19 failed:\n" + run.stderr[-4000:])
    blocks = re.split(r"Unranked Memref[^\n]*sizes = \[([0-9, ]*)\][^\n]*\n", run.stdout)
    values = []
    for k in range(1, len(blocks), 2):
        shape = [int(x) for x in blocks[k].split(",") if x.strip()]
        nums = re.findall(r"-?nan|-?inf|[-+0-9.eE]+", blocks[k + 1])
        values.append(np.array([float(x) for x in nums], dtype=np.float64).reshape(shape))
    if len(values) != len(results):
        fail("expected %d printed results from MLIR, read %d" % (len(results), len(values)))
    return values


def python_module(polyfuse):
    """polyfuse's Python module of the same build as the command (BUILD/python beside
    BUILD/bin), or None. With it, reading the file, the reference and the generated code
    run in this process: one load of MLIR and one start of PoCL instead of one a command."""
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(polyfuse))), "python")
    if not os.path.isdir(os.path.join(folder, "polyfuse")):
        return None
    sys.path.insert(0, folder)
    try:
        import polyfuse as module
    except ImportError:
        return None
    finally:
        sys.path.pop(0)
    version = subprocess.run([polyfuse, "--version"], capture_output=True, text=True).stdout
    return module if module.__version__ in version.split() else None


def load_in_process(module, path, entry):
    """The program read once by the Python module, for its TC form and every backend."""
    try:
        return module.load(path, entry=entry)
    except module.Error as e:
        fail("polyfuse check failed:\n" + str(e))


def tc_text(polyfuse, program, path, entry):
    """The program as polyfuse reads it, as a TC definition (`check --tc`)."""
    if program:
        return program.tc
    cmd = [polyfuse, "check", path, "--tc"] + (["--entry", entry] if entry else [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        fail("polyfuse check failed:\n" + r.stderr)
    return r.stdout


def tc_signature(polyfuse, program, path, entry):
    """polyfuse's names: the inputs and outputs of `check --tc`, with their dimensions."""
    m = re.search(r"def \w+\((.*?)\) -> \((.*?)\) \{", tc_text(polyfuse, program, path, entry))
    # An output whose shape TC infers (a multiple of a size, a window's extent) is bare.
    parse = lambda s: [(p.rsplit(" ", 1)[-1], re.findall(r"\((.*)\)", p.rsplit(" ", 1)[0]) if " " in p else [])
                       for p in split_top(s) if not p.startswith("size ")]
    declared = [p[len("size "):] for p in split_top(m.group(1)) if p.startswith("size ")]
    return parse(m.group(1)), parse(m.group(2)), declared


def run_polyfuse(a, module, program, source, backend, sizes, files, scalars, given, work):
    """polyfuse's outputs on the inputs (name -> array): the reference interpreter's, or
    the generated code's after it verified against it (`exec --backend B --dump`)."""
    if program:
        try:
            if backend == "ref":
                return program.interpret(sizes=sizes or None, inputs=given)
            plan = program.fuse(strategy=a.strategy or "ilp", sizes=sizes or None)[0]
            r = plan.run(backend=backend, repeat=1, inputs=given, outputs=True)
        except module.Error as e:
            fail("polyfuse exec --backend %s failed:\n%s" % (backend, e))
        if not r["verified"]:
            fail("polyfuse exec --backend %s failed (1): verified: NO (max_rel_error %g in %s)"
                 % (backend, r["max_rel_error"], r["worst_output"]))
        return r["outputs"]
    out = os.path.join(work, "out-" + backend)
    cmd = [a.polyfuse, "exec", source, "--backend", backend, "--dump", out, "--repeat", "1"] + files + scalars
    if a.entry:
        cmd += ["--entry", a.entry]
    if a.strategy:
        cmd += ["--strategy", a.strategy]
    if sizes:
        cmd += ["--size", ",".join("%s=%d" % kv for kv in sorted(sizes.items()))]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        fail("polyfuse exec --backend %s failed (%d):\n%s%s" % (backend, r.returncode, r.stdout, r.stderr))
    return {pn: np.load(os.path.join(out, f)) for f in os.listdir(out) for pn in [f[:-4]] if f.endswith(".npy")}


def matches(a, b, atol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + 1e-5 * abs(b)


def scale_of(w):
    finite = [abs(x) for x in w if math.isfinite(x)]
    return max(finite) if finite else 0.0


def resolve_aliases(text):
    """Type aliases (`!A = tensor<2x4xbf16>`, as tpp-mlir's benchmarks write) spelled out
    wherever they are used, so signatures read as tensor types; the definitions stay."""
    aliases = dict(re.findall(r"^\s*!([\w$.]+)\s*=\s*(tensor<[^>]*>)\s*$", text, re.M))
    for n, t in aliases.items():
        text = re.sub(r"(?<!^)!%s(?![\w$.])" % re.escape(n), t, text, flags=re.M)
        text = re.sub(r"^(\s*)%s(\s*=)" % re.escape(t), r"\1!%s\2" % n, text, flags=re.M)
    return text


def upgrade_expand_shape(text):
    """`tensor.expand_shape %x [[0, 1]] : tensor<8xf32> into tensor<8x1xf32>`, as written
    before 2024 (torch-mlir still does), with the `output_shape` MLIR 19 needs: the result
    type's sizes, where they are static (polyfuse's importer reads it the same way)."""
    def add(m):
        sizes = []
        for d in m.group(3).split("x")[:-1]:
            if not re.fullmatch(r"[0-9]+|\?", d):  # the element type (`index`) begins
                break
            sizes.append(d)
        if "?" in sizes:
            return m.group(0)
        return "%s output_shape [%s]%s" % (m.group(1), ", ".join(sizes), m.group(2))
    return re.sub(r"(tensor\.expand_shape\s+%[\w.$#-]+\s*\[(?:\s*\[[\d,\s]*\],?)*\s*\])"
                  r"(\s*:\s*tensor<[^>]*>\s*into\s*tensor<([^>]*)>)", add, text)


def materialize_elided(text, rng, int_high):
    """Exporters elide large weights (`dense_resource<__elided__>`), which MLIR cannot run.
    Each becomes a `dense<..>` of drawn values, floats in [-1, 1] rounded to the type and
    integers in [0, int_high), and both MLIR and polyfuse read the file so written: the
    constants then hold the same elements on both sides."""
    def draw(m):
        dims, elem = tensor_type(m.group(1))
        shape = [int(d) for d in dims]
        if elem == "bf16":
            arr = to_bf16(rng.uniform(-1, 1, size=shape))
        elif elem.startswith("f"):
            arr = rng.uniform(-1, 1, size=shape).astype(DTYPES[elem])
        else:
            arr = rng.integers(0, int_high, size=shape)
        return "dense<%s> : %s" % (dense(np.asarray(arr), elem), m.group(1))
    return re.sub(r"dense_resource<__elided__>\s*:\s*(tensor<[^>]*>)", draw, text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--polyfuse", required=True)
    ap.add_argument("--entry", default="")
    ap.add_argument("--backend", action="append", default=[])
    ap.add_argument("--value", action="append", default=[])
    ap.add_argument("--input", action="append", default=[])
    ap.add_argument("--shape", action="append", default=[], help="NAME=AxB: the shape of a dynamic argument's random input")
    ap.add_argument("--strategy", default="", help="passed to polyfuse exec (default: its own)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--int-high", type=int, default=4)
    ap.add_argument("--atol", type=float, default=1e-30)
    ap.add_argument("--normwise", type=float, default=1e-5,
                    help="also accept an element within this fraction of the output's largest finite magnitude")
    ap.add_argument("--narrow-ulps", type=float, default=4,
                    help="f16 and bf16 results: accept this many units in the last place of the type, at the "
                         "output's largest finite magnitude (MLIR rounds every op of a 16-bit body to the type; "
                         "polyfuse computes in f32 and rounds where the program stores or truncates)")
    a = ap.parse_args()
    text = upgrade_expand_shape(resolve_aliases(open(a.file).read()))
    # cf.assert checks and computes nothing (polyfuse drops it, with a note); random inputs
    # may fail its check (torch's batch norm asserts a nonzero scale: NaN where a variance
    # drawn negative is square-rooted), which would abort MLIR's run, not compare values.
    text = re.sub(r"^\s*cf\.assert\b[^\n]*$", "", text, flags=re.M)
    name, args, results = signature(text, a.entry)
    given = {}
    for v in a.value:
        n, _, lst = v.partition("=")
        given[n] = json.loads(re.sub(r"(?<![\w\"])(-?)(nan|inf)\b", r'"\1\2"', lst))
    for v in a.input:
        n, _, f = v.partition("=")
        given[n] = np.load(f)
    rng = np.random.default_rng(a.seed)
    inputs = {}
    for an, at in args:
        dims, elem = tensor_type(at)
        dt = DTYPES.get(elem)
        if dt is None:
            fail("argument %%%s: element type %s is not handled" % (an, elem))
        if index_scalar(at):  # a size: given, as MLIR's caller would pass it
            if an not in given:
                fail("argument %%%s is an index (a size): give it with --value %s=[N]" % (an, an))
            inputs[an] = np.array(int(np.ravel(given[an])[0]), dtype=np.int64)
            continue
        if scalar_type(at):  # a scalar parameter: given, or uniform in [0.5, 1.5]
            v = float(np.ravel(given[an])[0]) if an in given else float(rng.uniform(0.5, 1.5))
            inputs[an] = np.array(v, dtype=dt)
            continue
        if an in given:
            arr = np.array([float(x) for x in np.ravel(given[an])], dtype=np.float64)
            shape = [int(d) if d != "?" else -1 for d in dims]
            try:
                arr = arr.reshape(shape if shape.count(-1) <= 1 else [len(arr)])
            except ValueError:
                fail("--value %s: %d elements do not fill %s" % (an, arr.size, at))
            inputs[an] = to_bf16(arr) if elem == "bf16" else arr.astype(dt)
            continue
        shapes = dict(v.split("=", 1) for v in a.shape)
        if an in shapes:
            shape = [int(d) for d in shapes[an].split("x")]
            if len(shape) != len(dims) or any(d != "?" and int(d) != n for d, n in zip(dims, shape)):
                fail("--shape %s=%s does not fit %s" % (an, shapes[an], at))
        elif "?" in dims:
            fail("argument %%%s has a dynamic shape: give it with --shape, --value or --input" % an)
        else:
            shape = [int(d) for d in dims]
        if elem == "bf16":
            inputs[an] = to_bf16(rng.uniform(-1, 1, size=shape))
        elif elem.startswith("f"):
            inputs[an] = rng.uniform(-1, 1, size=shape).astype(dt)
        elif elem in ("i8", "i16"):  # quantized data: both signs, so sign extension is exercised
            inputs[an] = rng.integers(-a.int_high, a.int_high, size=shape).astype(dt)
        else:
            inputs[an] = rng.integers(0, a.int_high, size=shape).astype(dt)
    with tempfile.TemporaryDirectory() as work:
        source = a.file
        if "dense_resource<__elided__>" in text:
            text = materialize_elided(text, rng, a.int_high)
            source = os.path.join(work, os.path.basename(a.file))
            with open(source, "w") as f:
                f.write(text)
        expected = run_mlir(text, name, args, results, inputs, work)
        module = python_module(a.polyfuse)
        program = load_in_process(module, source, a.entry) if module else None
        tc_in, tc_out, declared = tc_signature(a.polyfuse, program, source, a.entry)
        sizes, files = {}, []
        # A size the program declares is an index argument's value, by its name.
        for d in declared:
            named = [an for an, at in args if index_scalar(at) and an == d]
            if not named:
                fail("polyfuse declares size %s, which no index argument is named" % d)
            sizes[d] = int(inputs[named[0]])
        scalars, given = [], {}
        # polyfuse declares tensors (an integer argument is a rank-0 one) before float scalars.
        in_order = [x for x in args if not scalar_type(x[1]) and not index_scalar(x[1])] + [x for x in args if scalar_type(x[1])]
        for (an, at), (pn, pdims) in zip(in_order, tc_in):
            if scalar_type(at):
                value = float(np.float32(inputs[an].item())) if at.strip() == "f32" else float(inputs[an].item())
                scalars.append("--scalar=%s=%r" % (pn, value))
                given[pn] = value
                continue
            dims = [d.strip() for d in pdims[0].split(",")] if pdims and pdims[0] else []
            for d, n in zip(dims, inputs[an].shape):
                m = re.fullmatch(r"(?:([0-9]+)\*)?(\w+)", d)  # a size, or a multiple of one: 4*n
                if m and not d.isdigit():
                    k = int(m.group(1) or 1)
                    if n % k:
                        fail("argument %%%s: extent %d is not a multiple of %d (%s)" % (an, n, k, d))
                    sizes[m.group(2)] = n // k
            f = os.path.join(work, pn + ".npy")
            arr = inputs[an]
            np.save(f, arr.astype(np.float64 if arr.dtype.kind == "f" and arr.dtype != np.float32 else
                                  (np.int64 if arr.dtype.kind in "iub" and arr.dtype not in (np.int8, np.int16, np.int32) else arr.dtype)))
            files.append("--input=%s=%s" % (pn, f))
            given[pn] = np.load(f)
        bad = 0
        for backend in a.backend or ["ref"]:
            outputs = run_polyfuse(a, module, program, source, backend, sizes, files, scalars, given, work)
            for (pn, _), want, rtype in zip(tc_out, expected, results):
                got = np.asarray(outputs[pn]).astype(np.float64).reshape(-1)
                w = want.reshape(-1)
                if got.size != w.size:
                    print("%s %s: %d elements, MLIR has %d" % (backend, pn, got.size, w.size))
                    bad += 1
                    continue
                # Per element, or normwise: reductions summed in another order differ
                # by rounding relative to the output's scale, not to each element.
                elem = tensor_type(rtype)[1]
                unit = {"f16": 2.0 ** -10, "bf16": 2.0 ** -7}.get(elem, 0.0)
                scale = scale_of(w)
                atol = max(a.atol, a.normwise * scale, a.narrow_ulps * unit * scale)
                wrong = [i for i in range(w.size) if not matches(got[i], w[i], atol)]
                if wrong:
                    i = wrong[0]
                    print("%s %s: %d of %d elements differ from MLIR; first at %d: polyfuse %r, MLIR %r"
                          % (backend, pn, len(wrong), w.size, i, got[i], w[i]))
                    bad += 1
                else:
                    strict = max(a.atol, a.normwise * scale)
                    exact = sum(1 for i in range(w.size) if matches(got[i], w[i], strict))
                    print("%s %s: %d elements match MLIR%s" % (backend, pn, w.size, "" if exact == w.size else
                          " (%d within %g ulps of %s at the output's scale: computed in f32)" % (w.size - exact, a.narrow_ulps, elem)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
