# Writes a function returning tensor.from_elements of n distinct constants (n from argv).
import sys

n = int(sys.argv[1])
print(f"func.func @f() -> tensor<{n}xf32> {{")
for k in range(n):
    print(f"  %c{k} = arith.constant {k}.0 : f32")
print(f"  %t = tensor.from_elements {', '.join(f'%c{k}' for k in range(n))} : tensor<{n}xf32>")
print(f"  return %t : tensor<{n}xf32>")
print("}")
