# lit configuration: golden tests of the CLI. CHECK lines live inside the inputs.
import os
import sys
import lit.formats

config.name = "polyfuse"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".tc", ".test", ".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.polyfuse_bin), "test", "lit-out")
config.excludes = ["Inputs", "tools", "lit.cfg.py", "lit.site.cfg.py.in"]
# ctest runs one lit per folder or file, two at a time, all in this exec root: each lit
# rewrites the root's .lit_test_times.txt when it ends, and one that reads it while
# another writes it sees a cut line and stops (lit 14's read_test_times), as does every
# lit after it while the cut file stays. The times only order tests within one run, so
# the file is /dev/null: read empty, written away.
_times = os.path.join(config.test_exec_root, ".lit_test_times.txt")
if not os.path.islink(_times):
    os.makedirs(config.test_exec_root, exist_ok=True)
    try:
        os.remove(_times)
    except FileNotFoundError:
        pass
    try:
        os.symlink(os.devnull, _times)
    except FileExistsError:  # another lit of this run made it first
        pass
config.environment["PATH"] = os.pathsep.join(
    [config.polyfuse_bin, config.llvm_tools, os.path.join(os.path.dirname(__file__), "tools"), config.environment.get("PATH", os.environ["PATH"])])
config.environment["POCL_CACHE_DIR"] = os.path.join(config.test_exec_root, "pocl-cache")
config.environment["POCL_EXTRA_BUILD_FLAGS"] = config.pocl_test_flags  # test/CMakeLists.txt says why
config.environment["GLIBC_TUNABLES"] = config.glibc_tunables  # test/CMakeLists.txt says why
config.substitutions.append(("%python", "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable))
config.substitutions.append(("%examples", os.path.join(config.polyfuse_src, "examples")))
config.substitutions.append(("%srcroot", config.polyfuse_src))
config.substitutions.append(("%builddir", os.path.dirname(config.polyfuse_bin)))
if config.has_nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))
import subprocess
try:
    if subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0:
        config.available_features.add("gpu")
except OSError:
    pass
# A small tmpfs stands in for a full disk (root in a sandbox that allows mounts).
import tempfile
try:
    with tempfile.TemporaryDirectory() as d:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d], capture_output=True).returncode == 0:
            subprocess.run(["umount", d], capture_output=True)
            config.available_features.add("tmpfs")
except OSError:
    pass
# Headless Chromium renders reports for the screenshot test (make deps installs it).
import shutil
if shutil.which("chromium"):
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", shutil.which("chromium")))
# MLIR's own execution of a linalg function, compared with polyfuse's (tools/mlir_oracle.py).
config.substitutions.append(("%oracle", "%s %s --polyfuse %s" % (
    "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable,
    os.path.join(config.polyfuse_src, "tools", "mlir_oracle.py"), os.path.join(config.polyfuse_bin, "polyfuse"))))
# Tensor-core fragment loads emulated lane by lane against the mma layouts (tools/fragment_check.py).
config.substitutions.append(("%fragment_check", "%s %s" % (
    "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable,
    os.path.join(config.polyfuse_src, "tools", "fragment_check.py"))))
# NumPy's evaluation of a TC program, compared with the reference interpreter (tools/tc_numpy.py).
config.substitutions.append(("%tc_numpy", "%s %s --polyfuse %s" % (
    "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable,
    os.path.join(config.polyfuse_src, "tools", "tc_numpy.py"), os.path.join(config.polyfuse_bin, "polyfuse"))))
