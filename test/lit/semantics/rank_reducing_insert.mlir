// tpp-mlir's tiled GEMMs insert each 2-D block into the packed 4-D result with a
// rank-reducing insert_slice (sizes [1, 1, 3, 5]: the unit dimensions the source lacks).
// Each insert is a window write along the dimensions the source keeps; the blocks are
// linalg.batch_reduce_matmul over rank-reducing extract_slices, as tpp-opt leaves them.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v7: 30 elements match MLIR
// CHECK: opencl v7: 30 elements match MLIR
// RUN: polyfuse check %s --tc 2>/dev/null | FileCheck %s --check-prefix=TC
// TC: v6(d0, d1, d2, d3) = v3(d2, d3) where d0 in 0:1, d1 in 1:2, d2 in 0:3, d3 in 0:5
// RUN: polyfuse exec %s --strategy ilp --backend opencl | FileCheck %s --check-prefix=EXEC
// EXEC: verified
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @entry(%a: tensor<2x4x3x7xf32>, %b: tensor<2x4x7x5xf32>, %c: tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<3x5xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %a0 = tensor.extract_slice %a[0, 0, 0, 0] [1, 4, 3, 7] [1, 1, 1, 1] : tensor<2x4x3x7xf32> to tensor<4x3x7xf32>
  %b0 = tensor.extract_slice %b[0, 0, 0, 0] [1, 4, 7, 5] [1, 1, 1, 1] : tensor<2x4x7x5xf32> to tensor<4x7x5xf32>
  %2 = linalg.batch_reduce_matmul ins(%a0, %b0 : tensor<4x3x7xf32>, tensor<4x7x5xf32>) outs(%1 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %a1 = tensor.extract_slice %a[1, 0, 0, 0] [1, 4, 3, 7] [1, 1, 1, 1] : tensor<2x4x3x7xf32> to tensor<4x3x7xf32>
  %b1 = tensor.extract_slice %b[1, 0, 0, 0] [1, 4, 7, 5] [1, 1, 1, 1] : tensor<2x4x7x5xf32> to tensor<4x7x5xf32>
  %3 = linalg.batch_reduce_matmul ins(%a1, %b1 : tensor<4x3x7xf32>, tensor<4x7x5xf32>) outs(%1 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %4 = tensor.empty() : tensor<1x2x3x5xf32>
  %5 = tensor.insert_slice %2 into %4[0, 0, 0, 0] [1, 1, 3, 5] [1, 1, 1, 1] : tensor<3x5xf32> into tensor<1x2x3x5xf32>
  %6 = tensor.insert_slice %3 into %5[0, 1, 0, 0] [1, 1, 3, 5] [1, 1, 1, 1] : tensor<3x5xf32> into tensor<1x2x3x5xf32>
  %7 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %c : tensor<1x2x3x5xf32>, tensor<1x2x3x5xf32>) outs(%4 : tensor<1x2x3x5xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    %m = arith.maximumf %s, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x2x3x5xf32>
  return %7 : tensor<1x2x3x5xf32>
}
