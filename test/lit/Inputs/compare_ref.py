"""compare_ref.py REF.txt INTERP.json: the emitted C reference (reference_main.c) and the
interpreter agree on every output's sum."""
import json
import sys

ref = dict(line.split() for line in open(sys.argv[1]) if line.strip())
interp = json.load(open(sys.argv[2]))["outputs"]
for name, out in interp.items():
    a, b = float(ref[name]), out["sum"]
    if abs(a - b) > 1e-9 * max(1.0, abs(b)):
        sys.exit(f"{name}: C reference {a!r} != interpreter {b!r}")
print("reference agrees on", ", ".join(sorted(interp)))
