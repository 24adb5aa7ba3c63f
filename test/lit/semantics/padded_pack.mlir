// tensor.pack whose tiles run past the source (IREE's data tiling, tpp-mlir's blocking of
// odd sizes): 5x7 into 3x3 tiles of 2x3, padded with 0.5. The packed tensor is computed by
// one statement, a select whose affine condition keeps every read of the source inside it
// (a guarded read), then a consumer reads the tiles.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v1: 54 elements match MLIR
// CHECK: opencl v1: 54 elements match MLIR
// RUN: polyfuse check %s --tc 2>/dev/null | FileCheck %s --check-prefix=TC
// TC: pack(d0, d1, d2, d3) = d0 * 2 + d2 < 5 ? (d1 * 3 + d3 < 7 ? x(2*d0 + d2, 3*d1 + d3) : 0.5) : 0.5
// RUN: polyfuse exec %s --strategy ilp --backend opencl | FileCheck %s --check-prefix=EXEC
// EXEC: verified
// More tiles than the dimension needs (8 into 3 tiles of 4): the last is all padding.
// RUN: polyfuse check %s --entry pack_extra --tc 2>/dev/null | FileCheck %s --check-prefix=EXTRA
// EXTRA: p(d0, d1) = d0 * 4 + d1 < 8 ? x(4*d0 + d1) : 0.5 where d0 in 0:3, d1 in 0:4
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @forward(%x: tensor<5x7xf32>) -> tensor<3x3x2x3xf32> {
  %pad = arith.constant 5.000000e-01 : f32
  %init = tensor.empty() : tensor<3x3x2x3xf32>
  %pack = tensor.pack %x padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 3] into %init
      : tensor<5x7xf32> -> tensor<3x3x2x3xf32>
  %0 = tensor.empty() : tensor<3x3x2x3xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pack : tensor<3x3x2x3xf32>) outs(%0 : tensor<3x3x2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = arith.mulf %in, %in : f32
    %3 = arith.addf %2, %in : f32
    linalg.yield %3 : f32
  } -> tensor<3x3x2x3xf32>
  return %1 : tensor<3x3x2x3xf32>
}
func.func @pack_extra(%x: tensor<8xf32>) -> tensor<3x4xf32> {
  %pad = arith.constant 0.5 : f32
  %init = tensor.empty() : tensor<3x4xf32>
  %p = tensor.pack %x padding_value(%pad : f32) inner_dims_pos = [0] inner_tiles = [4] into %init : tensor<8xf32> -> tensor<3x4xf32>
  return %p : tensor<3x4xf32>
}
