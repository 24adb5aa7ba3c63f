// A gather at ids that are one splat constant (a benchmark harness's positions, all 7):
// each index folds to that integer, a constant subscript checked against the extent.
// Against MLIR's execution.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref r: 12 elements match MLIR
// CHECK: opencl r: 12 elements match MLIR
// RUN: polyfuse check %s --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// TC: r(d0, d1) = t(7, d1)
func.func @rows(%t: tensor<9x4xf32>) -> tensor<3x4xf32> {
  %ids = arith.constant dense<7> : tensor<3xi64>
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<3xi64>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%i, %j] : tensor<9x4xf32>
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
