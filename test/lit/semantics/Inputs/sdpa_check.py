"""Inputs for tm_attention.mlir, and the check of polyfuse's outputs against numpy's
scaled dot-product attention: softmax(Q.K^T x scale + mask).V, an i1 mask adding 0 where
true and -inf elsewhere."""
import sys
import numpy as np

mode, folder = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)
q, k, v = rng.uniform(-1, 1, (2, 5, 8)), rng.uniform(-1, 1, (2, 7, 8)), rng.uniform(-1, 1, (2, 7, 3))
mask = rng.uniform(0, 1, (2, 5, 7)) < 0.7
mask[:, :, 0] = True  # every row keeps a key
if mode == "inputs":
    for n, a in (("q", q), ("k", k), ("v", v)):
        np.save("%s/%s.npy" % (folder, n), a.astype(np.float32))
    np.save("%s/m.npy" % folder, mask.astype(np.float32))
    sys.exit(0)
scale, masked = (0.25, True) if mode == "masked" else (1 / np.sqrt(8), False)
s = np.einsum("bmk,bnk->bmn", q.astype(np.float32).astype(np.float64), k.astype(np.float32).astype(np.float64)) * scale
if masked:
    s = s + np.where(mask, 0.0, -np.inf)
p = np.exp(s - s.max(axis=-1, keepdims=True))
expected = np.einsum("bmn,bnd->bmd", p / p.sum(axis=-1, keepdims=True), v.astype(np.float32).astype(np.float64))
got = np.load("%s/r.npy" % folder)
err = np.abs(got - expected).max()
print("max abs error %.1e: %s" % (err, "agrees" if err < 1e-5 else "DIFFERS"))
