// DLRM's pairwise interactions as torch-mlir exports them: Z = X X^T per sample, then
// the strictly lower triangle gathered through two constant id tables (li, lj) into a
// flat row. A gather of a computed tensor is not taken, but these ids are known: the pair
// loop runs in pieces over which both ids are affine in it (li = 1, 2, 2, 3, 3, 3 and
// lj = 0, 0, 1, 0, 1, 2 give 3 maximal runs, taken greedily), each an affine read of Z.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v6: 30 elements match MLIR
// CHECK: opencl v6: 30 elements match MLIR
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s --check-prefix=TC
// TC-NOT: data-dependent subscripts
// TC: note: line {{[0-9]+}} reads constant id tables at loop d1: 3 piece(s) over which each id is affine in it, no gather
// TC: v6(d0, d1) = v4(d0, 3, d1 - 3) where d0 in 0:5, d1 in 4:6
// TC-NEXT: v6(d0, d1) = v4(d0, d1, -d1 + 3) where d0 in 0:5, d1 in 2:4
// TC-NEXT: v6(d0, d1) = v4(d0, d1 + 1, 0) where d0 in 0:5, d1 in 0:2
// RUN: polyfuse exec %s --strategy ilp --backend opencl | FileCheck %s --check-prefix=EXEC
// EXEC: verified
// Ids without such runs (70 pieces for 140 ids, more than 64) stay a gather of the table.
// RUN: polyfuse check %s --entry many 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: tensor.extract at line {{[0-9]+}} reads 'arg0' at data-dependent subscripts
// RUN: %oracle %s --entry many --backend ref | FileCheck %s --check-prefix=MANYREF
// MANYREF: ref v1: 280 elements match MLIR
#map = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1) -> (d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {torch.debug_module_name = "Interaction"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<5x4x3xf32>) -> tensor<5x6xf32> {
    %cst = arith.constant dense<[1, 2, 2, 3, 3, 3]> : tensor<6xi64>
    %cst_0 = arith.constant dense<[0, 0, 1, 0, 1, 2]> : tensor<6xi64>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<5x3x4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<5x4x3xf32>) outs(%0 : tensor<5x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<5x3x4xf32>
    %2 = tensor.empty() : tensor<5x4x4xf32>
    %3 = linalg.fill ins(%cst_1 : f32) outs(%2 : tensor<5x4x4xf32>) -> tensor<5x4x4xf32>
    %4 = linalg.batch_matmul ins(%arg0, %1 : tensor<5x4x3xf32>, tensor<5x3x4xf32>) outs(%3 : tensor<5x4x4xf32>) -> tensor<5x4x4xf32>
    %5 = tensor.empty() : tensor<5x6xf32>
    %6 = linalg.generic {indexing_maps = [#map2, #map2, #map3], iterator_types = ["parallel", "parallel"]} ins(%cst, %cst_0 : tensor<6xi64>, tensor<6xi64>) outs(%5 : tensor<5x6xf32>) {
    ^bb0(%in: i64, %in_2: i64, %out: f32):
      %b = linalg.index 0 : index
      %i = arith.index_cast %in : i64 to index
      %j = arith.index_cast %in_2 : i64 to index
      %e = tensor.extract %4[%b, %i, %j] : tensor<5x4x4xf32>
      linalg.yield %e : f32
    } -> tensor<5x6xf32>
    return %6 : tensor<5x6xf32>
  }
  func.func @many(%arg0: tensor<11x2xf32>) -> tensor<140x2xf32> {
    %ids = arith.constant dense<[0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1, 10, 0, 4, 0, 10, 1, 6, 3, 3, 6, 1]> : tensor<140xi64>
    %0 = tensor.empty() : tensor<140x2xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, #map3], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<140xi64>) outs(%0 : tensor<140x2xf32>) {
    ^bb0(%in: i64, %out: f32):
      %i = arith.index_cast %in : i64 to index
      %j = linalg.index 1 : index
      %e = tensor.extract %arg0[%i, %j] : tensor<11x2xf32>
      linalg.yield %e : f32
    } -> tensor<140x2xf32>
    return %1 : tensor<140x2xf32>
  }
}
