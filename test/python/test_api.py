"""The Python API against the command line: the same plans, the same errors.

Run by ctest (`make test`) with PYTHONPATH=build/python and POLYFUSE_BIN=build/bin/polyfuse.
"""
import json
import os
import subprocess
import textwrap

import pytest

import polyfuse

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(SOURCE, "examples")
POLYFUSE = os.environ.get("POLYFUSE_BIN", os.path.join(SOURCE, "build", "bin", "polyfuse"))


def cli_json(*args):
    out = subprocess.run([POLYFUSE, *args, "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_load_names_the_program():
    prog = polyfuse.load(os.path.join(EXAMPLES, "softmax.tc"), sizes={"N": 64, "M": 64})
    assert prog.name == "softmax"
    assert prog.size_params == ["N", "M"]
    assert [s["id"] for s in prog.statements] == ["S0", "S1", "S2", "S3"]
    assert "softmax" in repr(prog)


@pytest.mark.parametrize("strategy", ["nofuse", "greedy", "ilp"])
def test_fuse_matches_the_command_line(strategy):
    path = os.path.join(EXAMPLES, "layernorm.tc")
    sizes = {"N": 512, "M": 1024}
    plan = polyfuse.load(path, sizes=sizes).fuse(strategy=strategy, device="h100")[0]
    cli = cli_json("fuse", path, "--size", "N=512,M=1024", "--strategy", strategy)
    assert plan.num_kernels == len(cli["kernels"])
    assert plan.dram_bytes == cli["dram_bytes"]
    assert plan.modeled_us == pytest.approx(cli["modeled_us"])
    assert plan.strategy == strategy
    assert plan.to_dict()["kernels"] == cli["kernels"]


def test_top_k_plans_are_distinct_and_sorted():
    prog = polyfuse.load(os.path.join(EXAMPLES, "softmax.tc"), sizes={"N": 4096, "M": 4096})
    plans = prog.fuse(top=3)
    assert len(plans) == 3
    assert [p.modeled_us for p in plans] == sorted(p.modeled_us for p in plans)
    assert len({str(p.kernels) for p in plans}) == 3
    assert plans[0].solver["status"] == "optimal"
    assert plans[0].kernels == [["S0", "S1", "S2", "S3"]]
    # Each runner-up is a whole plan: it has bytes and sources of its own.
    assert plans[1].dram_bytes > plans[0].dram_bytes
    assert "__global__" in plans[1].codegen("cuda")["kernels.cu"]


def test_plan_explains_its_decisions():
    plan = polyfuse.load(os.path.join(EXAMPLES, "softmax.tc"), sizes={"N": 4096, "M": 4096}).fuse()[0]
    decisions = plan.explain()
    assert decisions, "every edge of a fused softmax has a decision"
    assert all({"a", "b", "fused", "verdict", "reason"} <= set(d) for d in decisions), decisions[0]
    assert any(d["a"] == "S0" and d["b"] == "S1" and d["fused"] for d in decisions), decisions


def test_codegen_gives_each_file():
    plan = polyfuse.load(os.path.join(EXAMPLES, "rmsnorm.tc"), sizes={"N": 64, "M": 256}).fuse()[0]
    cuda = plan.codegen("cuda")
    assert {"kernels.cu", "harness.cu", "plan.json"} <= set(cuda)
    assert "__global__" in cuda["kernels.cu"]
    assert "__kernel" in plan.codegen("opencl")["kernels.cl"]
    with pytest.raises(polyfuse.InputError, match="expected cuda or opencl"):
        plan.codegen("metal")


def test_run_verifies_on_pocl_at_odd_sizes(tmp_path):
    os.environ.setdefault("POCL_CACHE_DIR", str(tmp_path / "pocl"))
    plan = polyfuse.load(os.path.join(EXAMPLES, "softmax.tc"), sizes={"N": 4096, "M": 4096}).fuse()[0]
    r = plan.run(backend="opencl", repeat=3, sizes={"N": 33, "M": 129})
    assert r["verified"], r
    assert r["max_rel_error"] < 1e-5
    assert 0 <= r["max_error_f64"] < 1e-5, r  # the plan's own rounding, against float64
    assert r["min_ms"] <= r["median_ms"] <= r["max_ms"]
    assert "PoCL" in r["device"]
    assert r["sizes"] == {"N": 33, "M": 129}
    assert list(r["kernel_ms"]) == ["softmax_k0"]


def test_run_states_tf32s_own_effect(tmp_path):
    # A TF32 plan verifies against a reference that rounds the same operands; what TF32
    # itself does to the outputs is reported beside it (None where nothing is TF32).
    os.environ.setdefault("POCL_CACHE_DIR", str(tmp_path / "pocl"))
    prog = polyfuse.load(os.path.join(EXAMPLES, "matmul.tc"), sizes={"N": 256, "K": 256, "M": 256})
    r = prog.fuse(numerics="tf32")[0].run(backend="opencl", repeat=1, sizes={"N": 37, "K": 129, "M": 41})
    assert r["verified"], r
    assert r["max_rel_error"] < 1e-5 < r["tf32_effect"] and r["tolerance"] == 2e-3, r
    assert r["max_error_f64"] > 1e-5, r
    plain = prog.fuse()[0].run(backend="opencl", repeat=1, sizes={"N": 37, "K": 129, "M": 41})
    assert plain["tf32_effect"] is None and plain["tolerance"] < 1e-3, plain


def test_run_takes_inputs_and_gives_outputs(tmp_path):
    import numpy as np

    os.environ.setdefault("POCL_CACHE_DIR", str(tmp_path / "pocl"))
    prog = polyfuse.load(os.path.join(EXAMPLES, "layernorm.tc"), sizes={"N": 7, "M": 37})
    plan = prog.fuse()[0]
    rng = np.random.default_rng(3)
    x, gamma, beta = rng.normal(size=(7, 37)), rng.normal(size=37), rng.normal(size=37)
    r = plan.run(repeat=1, inputs={"X": x, "gamma": gamma, "beta": beta, "eps": 1e-5}, outputs=True)
    assert r["verified"], r
    y = r["outputs"]["Y"]
    assert y.shape == (7, 37)
    # NumPy's LayerNorm of the same inputs (float32 inputs, as the program's type holds them).
    x32 = x.astype(np.float32).astype(np.float64)
    norm = (x32 - x32.mean(1, keepdims=True)) / np.sqrt(x32.var(1, keepdims=True) + 1e-5)
    want = norm * gamma.astype(np.float32) + beta.astype(np.float32)
    assert np.max(np.abs(y - want)) < 1e-4, np.max(np.abs(y - want))
    assert "outputs" not in plan.run(repeat=1)
    # The reference interpreter on the same inputs, in the program's precision and in f64.
    ref = prog.interpret(inputs={"X": x, "gamma": gamma, "beta": beta, "eps": 1e-5})["Y"]
    assert np.max(np.abs(ref - y)) < 1e-5
    exact = prog.interpret(inputs={"X": x, "gamma": gamma, "beta": beta, "eps": 1e-5}, precision="f64")["Y"]
    assert np.max(np.abs(exact - want)) < 1e-6
    assert prog.tc.startswith("def layernorm(")
    with pytest.raises(polyfuse.InputError, match=r"'X' has shape \(3, 3\), the program's is \(7, 37\)"):
        plan.run(inputs={"X": np.zeros((3, 3))})
    with pytest.raises(polyfuse.InputError, match="'Q' is not an input or scalar parameter of layernorm"):
        plan.run(inputs={"Q": 1.0})


def test_strict_numerics_plans_serial_reductions(tmp_path):
    os.environ.setdefault("POCL_CACHE_DIR", str(tmp_path / "pocl"))
    prog = polyfuse.load(os.path.join(EXAMPLES, "softmax.tc"), sizes={"N": 8, "M": 1048576})
    strict = prog.fuse(numerics="strict")[0]
    assert strict.numerics == "strict" and strict.to_dict()["numerics"] == "strict"
    modes = {m for k in strict.to_dict()["kernels"] for m in k["modes"]}
    assert modes <= {"pointwise", "serial-reduce"}, modes
    assert "split-reduce" in {m for k in prog.fuse()[0].to_dict()["kernels"] for m in k["modes"]}
    r = strict.run(backend="opencl", repeat=1, sizes={"N": 3, "M": 257})
    assert r["verified"], r
    with pytest.raises(polyfuse.InputError, match="numerics 'loose'"):
        prog.fuse(numerics="loose")


def test_column_tiles_as_the_command_line():
    path = os.path.join(SOURCE, "test", "lit", "Inputs", "colsoftmax.tc")
    prog = polyfuse.load(path, sizes={"N": 4096, "M": 4096})
    for flag, tiles in (([], True), (["--no-column-tiles"], False)):
        plan = prog.fuse(column_tiles=tiles)[0]
        cli = cli_json("fuse", path, "--size", "N=4096,M=4096", *flag)
        assert plan.to_dict()["kernels"] == cli["kernels"]
        assert ("column-tile" in {k["row_mapping"] for k in cli["kernels"]}) == tiles


def test_stages_as_the_command_line():
    path = os.path.join(SOURCE, "examples", "matmul.tc")
    prog = polyfuse.load(path, sizes={"N": 512, "K": 512, "M": 512})
    for stages in (1, 2, 4):
        plan = prog.fuse(stages=stages)[0]
        cli = cli_json("fuse", path, "--size", "N=512,K=512,M=512", "--stages", str(stages))
        assert plan.to_dict()["kernels"] == cli["kernels"]
        # the most that cost no block an SM, and two wherever they fit
        got = {t["stages"] for k in cli["kernels"] for t in k["contraction_tiles"]}
        assert got == {1} if stages == 1 else got and all(2 <= g <= stages for g in got)
    with pytest.raises(polyfuse.InputError, match="stages must be 1 to 4"):
        prog.fuse(stages=5)


def test_stream_split_as_the_command_line():
    path = os.path.join(SOURCE, "examples", "attention.tc")
    prog = polyfuse.load(path, sizes={"S": 4096, "D": 64})
    for flag, split in (([], True), (["--no-stream-split"], False)):
        plan = prog.fuse(stream_split=split)[0]
        cli = cli_json("fuse", path, "--size", "S=4096,D=64", *flag)
        assert plan.to_dict()["kernels"] == cli["kernels"]
        tiles = [k for k in cli["kernels"] if k["row_mapping"] == "streamed-tile"]
        assert len(tiles) == 1 and (tiles[0]["split_chunks"] > 1) == split


def test_split_k_as_the_command_line():
    path = os.path.join(SOURCE, "examples", "matmul.tc")
    prog = polyfuse.load(path, sizes={"N": 64, "M": 64, "K": 65536})
    for flag, split in (([], True), (["--no-split-k"], False)):
        plan = prog.fuse(split_k=split)[0]
        cli = cli_json("fuse", path, "--size", "N=64,M=64,K=65536", *flag)
        assert plan.to_dict()["kernels"] == cli["kernels"]
        assert (cli["kernels"][0]["split_chunks"] > 1) == split
        assert ("split-tile-reduce" in cli["kernels"][0]["modes"]) == split


def test_wide_fma_tiles_as_the_command_line():
    path = os.path.join(SOURCE, "examples", "matmul.tc")
    prog = polyfuse.load(path, sizes={"N": 2048, "M": 2048, "K": 2048})
    for flag, wide in (([], False), (["--wide-fma-tiles"], True)):
        plan = prog.fuse(wide_fma_tiles=wide)[0]
        cli = cli_json("fuse", path, "--size", "N=2048,K=2048,M=2048", *flag)
        assert plan.to_dict()["kernels"] == cli["kernels"]
        assert cli["kernels"][0]["contraction_tiles"][0]["micro_tile"] == (8 if wide else 4)


def test_copies_read_through_unless_kept():
    path = os.path.join(SOURCE, "test", "lit", "mlir", "collapse.mlir")
    read = polyfuse.load(path, entry="merge")
    kept = polyfuse.load(path, entry="merge", read_through=False)
    assert "t(d0, 4*d1 + d2) = at(d1, d0, d2)" in kept.tc  # stored flat: its reader's loops collapse
    assert "  t(" not in read.tc and "at(d2_0, d0, d2_1)" in read.tc
    assert kept.fuse()[0].to_dict()["kernels"] == cli_json("fuse", path, "--entry", "merge", "--keep-copies")["kernels"]


def test_errors_are_located_exceptions(tmp_path):
    bad = tmp_path / "bad.tc"
    bad.write_text(textwrap.dedent("""\
        def f(float(N) X) -> (Y) {
          Y(i) = X(i) +
        }
        """))
    with pytest.raises(polyfuse.InputError) as e:
        polyfuse.load(str(bad))
    assert str(e.value).startswith(f"{bad}:3:1:"), str(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, polyfuse.Error)
    with pytest.raises(polyfuse.InputError, match="cannot"):
        polyfuse.load(str(tmp_path / "missing.tc"))
    prog = polyfuse.load(os.path.join(EXAMPLES, "softmax.tc"))
    with pytest.raises(polyfuse.InputError, match="size 'N'"):
        prog.fuse()
    with pytest.raises(polyfuse.InputError, match="unknown strategy"):
        prog.fuse(strategy="fastest", sizes={"N": 8, "M": 8})
    with pytest.raises(polyfuse.InputError, match="'opencl' or 'cuda'"):
        prog.fuse(sizes={"N": 8, "M": 8})[0].run(backend="ref")


def test_linalg_and_entry():
    path = os.path.join(EXAMPLES, "linalg", "softmax.mlir")
    prog = polyfuse.load(path)
    assert prog.size_params == [] or prog.sizes == {}
    plan = prog.fuse(sizes={p: 64 for p in prog.size_params})[0]
    assert plan.num_kernels >= 1


def test_experiment_gives_a_dataframe(tmp_path):
    os.environ.setdefault("POCL_CACHE_DIR", str(tmp_path / "pocl"))
    config = tmp_path / "x.yaml"
    config.write_text(textwrap.dedent(f"""\
        name: python
        programs:
          - path: {EXAMPLES}/softmax.tc
            sizes: [{{N: 64, M: 64}}]
        strategies: [nofuse, ilp]
        devices: [h100]
        execute: {{backend: opencl, sizes: [{{N: 7, M: 33}}], repeat: 2}}
        """))
    df = polyfuse.experiment(config, out=tmp_path / "out")
    assert list(df["strategy"]) == ["nofuse", "ilp"]
    assert list(df["num_kernels"]) == [4, 1]
    assert df["verified"].all()
    assert os.path.exists(os.path.join(df.attrs["output"], "report.md"))
    # A bad configuration is the user's error, located, as on the command line.
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nprograms: []\n")
    with pytest.raises(polyfuse.InputError, match="bad.yaml"):
        polyfuse.experiment(bad, out=tmp_path / "bad")


def test_version_is_the_commands():
    cli = subprocess.run([POLYFUSE, "--version"], check=True, capture_output=True, text=True).stdout
    assert polyfuse.__version__ in cli


def test_example_script_runs(tmp_path):
    env = dict(os.environ, POCL_CACHE_DIR=os.environ.get("POCL_CACHE_DIR", str(tmp_path / "pocl")))
    out = subprocess.run(["/usr/bin/python3", os.path.join(EXAMPLES, "python", "strategies.py"),
                          os.path.join(EXAMPLES, "layernorm.tc"), "N=4096,M=4096", "--strategies", "nofuse,ilp",
                          "--run", "N=33,M=129"], check=True, capture_output=True, text=True, env=env).stdout
    lines = out.splitlines()
    assert lines[0].startswith("layernorm: ")
    nofuse = next(l for l in lines if l.startswith("nofuse")).split()
    ilp = next(l for l in lines if l.startswith("ilp")).split()
    assert int(ilp[1]) < int(nofuse[1]), out
    assert ilp[-1] == "yes" and nofuse[-1] == "yes", out
