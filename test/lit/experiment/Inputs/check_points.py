"""check_points.py OUT: every published point of an experiment folder is whole: a
readable, non-empty result.json, and no empty file beside it (a full disk once
published points with 0-byte results, plans and kernels)."""
import json
import os
import sys

out = sys.argv[1]
points = os.path.join(out, "points")
n = 0
for p in sorted(os.listdir(points)) if os.path.isdir(points) else []:
    if p.endswith(".tmp"):
        continue
    d = os.path.join(points, p)
    with open(os.path.join(d, "result.json")) as f:
        r = json.load(f)
    assert r["point"] == p, (p, r)
    for root, _, files in os.walk(d):
        for name in files:
            if not name.endswith(".part"):
                assert os.path.getsize(os.path.join(root, name)) > 0, os.path.join(root, name)
    n += 1
print(f"{n} published points are whole")
