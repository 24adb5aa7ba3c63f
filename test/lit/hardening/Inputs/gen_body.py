"""Writes adversarial linalg for mlir_limits.test: gen_body.py chain|dag|comments|parens|regions N."""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
head = """#id = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):"""
tail = """    linalg.yield %%v%d : f32
  } -> tensor<4xf32>
  return %%r : tensor<4xf32>
}"""
if kind in ("chain", "dag"):
    print(head)
    print("    %v0 = arith.addf %a, %a : f32")
    print("    %v1 = arith.mulf %v0, %a : f32")
    for k in range(2, n):
        other = "%%v%d" % (k - 2) if kind == "dag" else "%a"
        print("    %%v%d = arith.addf %%v%d, %s : f32" % (k, k - 1, other))
    print(tail % (n - 1))
elif kind == "comments":
    sys.stdout.write(("// " + "c" * 97 + "\n") * n)
    print(head)
    print("    %v0 = arith.addf %a, %a : f32")
    print(tail % 0)
elif kind == "parens":
    print("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {")
    print("  %c = arith.constant " + "(" * n + "1.0" + ")" * n + " : f32")
    print("  return %x : tensor<4xf32>\n}")
else:
    print("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {")
    print("  " + "scf.execute_region {" * n + "}" * n)
    print("  return %x : tensor<4xf32>\n}")
