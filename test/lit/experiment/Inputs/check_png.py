"""check_png.py SHOT.png: a screenshot of a report shows drawn charts: a good share of
non-white pixels, and bars in the ilp colour (#2b7bb9) and the others' (#9bbbd4)."""
import sys

import matplotlib.image as mpimg
import numpy as np

img = mpimg.imread(sys.argv[1])[:, :, :3]
if img.dtype != np.uint8:
    img = (img * 255).round().astype(np.int32)


def count(rgb, tol=12):
    return int(np.sum(np.all(np.abs(img - np.array(rgb)) <= tol, axis=2)))


ink = float(np.mean(np.any(img < 240, axis=2)))
ilp, other = count((43, 123, 185)), count((155, 187, 212))
assert ink > 0.02, f"the page is nearly blank ({ink:.3f} non-white)"
assert ilp > 500 and other > 500, f"no bars drawn (ilp {ilp} px, others {other} px)"
print(f"report renders: {ink:.2%} ink, {ilp} ilp and {other} other bar pixels")
