"""compare_ref.py CREF_DIR INTERP_DIR: the emitted C reference (reference_main.c, run
with a folder) and the interpreter (exec --backend ref --dump) agree on every element
of every output. Both compute in the program's precision, rounding each operation alike
(an f32 program in float), so the tolerance is tight."""
import os
import sys

import numpy as np

cref, interp = sys.argv[1], sys.argv[2]
names = sorted(f[:-4] for f in os.listdir(interp) if f.endswith(".npy"))
if not names:
    sys.exit(f"no outputs in {interp}")
for name in names:
    want = np.load(os.path.join(interp, name + ".npy"))
    path = os.path.join(cref, name + ".npy")
    if not os.path.exists(path):
        sys.exit(f"{name}: the C reference wrote no {path}")
    got = np.load(path)
    if got.shape != want.shape:
        sys.exit(f"{name}: C reference shape {got.shape} != interpreter shape {want.shape}")
    scale = max(float(np.max(np.abs(want))) if want.size else 0.0, 1.0)
    err = np.abs(got.astype(np.float64) - want.astype(np.float64))
    if err.size and not float(np.max(err)) <= 1e-9 * scale:
        at = np.unravel_index(int(np.argmax(err)), err.shape)
        sys.exit(f"{name}{list(at)}: C reference {got[at]!r} != interpreter {want[at]!r}")
print("reference agrees element by element on", ", ".join(names))
