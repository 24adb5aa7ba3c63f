"""compare.py A.csv B.csv: equal except the timing columns."""
import csv
import sys

TIMING = {"solve_seconds", "measured_ms", "measured_min_ms", "measured_max_ms", "kernel_ms"}


def rows(path):
    with open(path) as f:
        return [{k: v for k, v in r.items() if k not in TIMING} for r in csv.DictReader(f)]


a, b = rows(sys.argv[1]), rows(sys.argv[2])
if a != b:
    for x, y in zip(a, b):
        if x != y:
            print("differ:", x, y)
    sys.exit(1)
print(f"same {len(a)} rows")
