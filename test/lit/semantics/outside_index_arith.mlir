// Index arithmetic outside a body on extents (IREE's tests linearize a 3-D index with
// `%wd = arith.muli %width, %depth` computed once): the body reads it as the same
// arithmetic on the sizes. Compared with MLIR's execution on a dynamic input.
// RUN: %oracle %s --entry linearized --shape x=3x4x5 --backend ref --backend opencl | FileCheck %s
// CHECK: ref r: 60 elements match MLIR
// CHECK: opencl r: 60 elements match MLIR
// RUN: polyfuse check %s --entry linearized --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// TC: r(d0, d1, d2) = x(d0, d1, d2) + round_f32(wrap(d0 * x_1 * x_2 + d1 * x_2 + d2, 32))
func.func @linearized(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = tensor.dim %x, %c0 : tensor<?x?x?xf32>
  %w = tensor.dim %x, %c1 : tensor<?x?x?xf32>
  %d = tensor.dim %x, %c2 : tensor<?x?x?xf32>
  %wd = arith.muli %w, %d : index
  %e = tensor.empty(%h, %w, %d) : tensor<?x?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<?x?x?xf32>) outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %s = arith.muli %i, %wd : index
    %t = arith.muli %j, %d : index
    %u = arith.addi %t, %k : index
    %lin = arith.addi %s, %u : index
    %n = arith.index_cast %lin : index to i32
    %f = arith.sitofp %n : i32 to f32
    %y = arith.addf %a, %f : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
