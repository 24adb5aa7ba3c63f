"""polyfuse from Python: load a tensor program, fuse it, inspect and run the plans.

    import polyfuse
    prog = polyfuse.load("examples/softmax.tc", sizes={"N": 4096, "M": 4096})
    best, runner_up = prog.fuse(strategy="ilp", device="h100", top=2)
    best.kernels, best.dram_bytes, best.modeled_us, best.solver["status"]
    best.explain()                      # why each pair is fused or not, with cost deltas
    best.codegen("cuda")["kernels.cu"]  # the generated sources, by file name
    best.run(backend="opencl", sizes={"N": 33, "M": 129})  # verified and timed on PoCL
    best.run(sizes={"N": 2, "M": 3}, inputs={"X": x}, outputs=True)["outputs"]["Y"]  # your data
    prog.interpret(sizes={"N": 2, "M": 3}, inputs={"X": x})["Y"]  # the reference interpreter's
    df = polyfuse.experiment("examples/experiments/seed.yaml")  # a pandas DataFrame

Errors raise polyfuse.InputError (bad input or arguments, a ValueError, with the located
message "FILE:LINE:COL: ...") or polyfuse.InternalError (a RuntimeError); both are
polyfuse.Error.
"""
import json
import os
import subprocess
import sys

from ._polyfuse import (  # noqa: F401
    Error,
    InputError,
    InternalError,
    Plan,
    Program,
    __version__,
    _experiment,
    build_type,
    load,
)

__all__ = ["load", "experiment", "Program", "Plan", "Error", "InputError", "InternalError", "__version__"]


def experiment(config, out=None, jobs=1, force=False):
    """Run an experiment configuration (YAML) as `polyfuse experiment` does and return its
    results.jsonl as a pandas DataFrame, one row per point. Finished points of an earlier
    run into the same folder are kept. The folder (default results/<config name>) also
    holds the report; its path is in the DataFrame's attrs["output"].

    The sweep runs in a fresh interpreter: its points run in forked workers, and a fork
    of a process that has already run OpenCL (Plan.run) inherits the runtime's threads
    half-alive and hangs."""
    import pandas as pd

    args = [os.fspath(config), os.fspath(out) if out is not None else "", int(jobs), bool(force)]
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    child = subprocess.run([sys.executable, "-c", _EXPERIMENT_CHILD, json.dumps(args)], env=env, stdout=subprocess.PIPE,
                           text=True)
    outcome = None
    for line in child.stdout.splitlines():
        if line.startswith(_RESULT_MARK):
            outcome = json.loads(line[len(_RESULT_MARK):])
        else:
            print(line)
    if outcome is None:
        raise InternalError(f"the experiment's process ended with status {child.returncode} and no result")
    if "error" in outcome:
        raise {"InputError": InputError, "InternalError": InternalError}.get(outcome["error"], Error)(outcome["message"])
    folder = outcome["output"]
    with open(os.path.join(folder, "results.jsonl")) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    df = pd.DataFrame(rows)
    df.attrs["output"] = folder
    return df


_RESULT_MARK = "polyfuse-experiment-result: "
_EXPERIMENT_CHILD = f"""
import json, sys
from polyfuse import _polyfuse as core
try:
    result = {{"output": core._experiment(*json.loads(sys.argv[1]))}}
except core.Error as e:
    result = {{"error": type(e).__name__, "message": str(e)}}
except Exception as e:
    result = {{"error": "InternalError", "message": f"{{type(e).__name__}}: {{e}}"}}
sys.stdout.flush()
print({_RESULT_MARK!r} + json.dumps(result), flush=True)
"""
