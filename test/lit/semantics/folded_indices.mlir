// Offsets, strides, pad amounts and extents given as SSA values that fold to constants, as
// exporters write them before canonicalization (torch-mlir computes sizes and pads in i64
// and casts them to index): read as the constants they are, an extent through i64 and
// back (times 1) as the extent itself. Compared with MLIR's execution.
// RUN: %oracle %s --entry folded --backend ref --backend opencl | FileCheck %s
// CHECK: ref padded: 294 elements match MLIR
// CHECK: ref t: 6 elements match MLIR
// CHECK: ref ins: 24 elements match MLIR
// CHECK: opencl padded: 294 elements match MLIR
// RUN: polyfuse check %s --entry folded --tc | FileCheck --check-prefix=TC %s
// TC: padded(d0, d1, d2, d3) = x(d0, d1, d2 - 1, d3 - 1) where d0 in 0:2, d1 in 0:3, d2 in 1:6, d3 in 1:6
// TC: t(d0, d1) = y(d0 + 1, d1 + 2) * y(d0 + 1, d1 + 2) where d0 in 0:2, d1 in 0:3
// TC: ins(d0, d1) = t(d0 - 2, d1 - 1) where d0 in 2:4, d1 in 1:4
// RUN: %oracle %s --entry through_i64 --shape x=5x8 --backend ref --backend opencl | FileCheck --check-prefix=DYN %s
// DYN: ref r: 40 elements match MLIR
// DYN: opencl r: 40 elements match MLIR
func.func @folded(%x: tensor<2x3x5x5xf32>, %y: tensor<4x6xf32>) -> (tensor<2x3x7x7xf32>, tensor<2x3xf32>, tensor<4x6xf32>) {
  %c1_i64 = arith.constant 1 : i64
  %p = arith.index_cast %c1_i64 : i64 to index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %two = arith.muli %p, %c2 : index
  %z = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[%c0, %c0, %p, %p] high[0, 0, %p, %p] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %z : f32
  } : tensor<2x3x5x5xf32> to tensor<2x3x7x7xf32>
  %s = tensor.extract_slice %y[%p, %two] [2, 3] [%p, 1] : tensor<4x6xf32> to tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<2x3xf32>
  %ins = tensor.insert_slice %t into %y[%two, %p] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
  return %padded, %t, %ins : tensor<2x3x7x7xf32>, tensor<2x3xf32>, tensor<4x6xf32>
}
func.func @through_i64(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x8xf32>
  %di = arith.index_cast %d : index to i64
  %one = arith.constant 1 : i64
  %m = arith.muli %di, %one : i64
  %b = arith.index_cast %m : i64 to index
  %e = tensor.empty(%b) : tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
