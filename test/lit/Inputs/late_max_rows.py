"""late_max_rows.py make OUT.npy M: three float32 rows of M elements whose maximum moves
late, the hard cases of a streamed softmax (docs/streaming.md): ascending (the running
maximum grows at every element), noise with a spike at the last element (every partial
rescaled at the end), and a constant row whose last eighth jumps.

late_max_rows.py check X.npy DIR...: per row, the largest relative error of each DIR's
Y.npy (exec --dump) against numpy's softmax in float64, over the elements float32 can
hold; fails above 2e-5 (a million float32 terms summed)."""
import sys

import numpy as np

if sys.argv[1] == "make":
    out, m = sys.argv[2], int(sys.argv[3])
    rng = np.random.default_rng(7)
    x = np.empty((3, m), dtype=np.float32)
    x[0] = np.linspace(-20.0, 20.0, m)
    x[1] = rng.uniform(-1.0, 1.0, m)
    x[1, -1] = 30.0
    x[2] = 0.0
    x[2, m - m // 8:] = 8.0
    np.save(out, x)
    sys.exit(0)

x = np.load(sys.argv[2]).astype(np.float64)
e = np.exp(x - x.max(axis=1, keepdims=True))
want = e / e.sum(axis=1, keepdims=True)
for d in sys.argv[3:]:
    got = np.load(d + "/Y.npy").astype(np.float64)
    errors = []
    for row in range(want.shape[0]):
        held = want[row] > 1e-30
        errors.append(float(np.max(np.abs(got[row][held] - want[row][held]) / want[row][held])))
    print(d.rstrip("/").split("/")[-1], " ".join("%.2g" % v for v in errors))
    if not max(errors) < 2e-5:
        sys.exit(f"{d}: relative error {max(errors):.3g} above 2e-5")
