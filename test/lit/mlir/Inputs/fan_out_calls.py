"""Writes a module whose entry unfolds into 2^(N-1) calls: @f0 .. @f{N-1}, each calling
the next twice (no recursion), and @main calling @f0. Usage: fan_out_calls.py N."""
import sys

n = int(sys.argv[1])
t = "tensor<2xf32>"
for k in range(n):
    print("func.func private @f" + str(k) + "(%x: " + t + ") -> " + t + " {")
    if k < n - 1:
        print("  %a = call @f" + str(k + 1) + "(%x) : (" + t + ") -> " + t)
        print("  %b = call @f" + str(k + 1) + "(%a) : (" + t + ") -> " + t)
        print("  return %b : " + t)
    else:
        print("  return %x : " + t)
    print("}")
print("func.func @main(%x: " + t + ") -> " + t + " {")
print("  %r = call @f0(%x) : (" + t + ") -> " + t)
print("  return %r : " + t)
print("}")
