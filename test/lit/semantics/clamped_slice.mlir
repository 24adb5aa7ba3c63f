// A slice whose bounds are clamped with cmpi and select on a static dimension's tensor.dim
// (IREE's regression test for issue 8825, as its frontends write Python-style slicing):
// the bounds fold as MLIR's folder folds them, and the slice is x[2:4]. Compared with
// MLIR's execution.
// RUN: %oracle %s --entry clamped --backend ref --backend opencl | FileCheck %s
// CHECK: ref {{.*}}: 2 elements match MLIR
// CHECK: opencl {{.*}}: 2 elements match MLIR
#map = affine_map<(d0) -> (d0)>
func.func @clamped(%x: tensor<4xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  %c3_i64 = arith.constant 3 : i64
  %c2_i64 = arith.constant 2 : i64
  %0 = tensor.dim %x, %c0 : tensor<4xf32>
  %1 = arith.index_cast %0 : index to i64
  %2 = arith.addi %c2_i64, %1 : i64
  %3 = arith.cmpi sge, %c2_i64, %c0_i64 : i64
  %4 = arith.select %3, %c2_i64, %2 : i64
  %5 = arith.cmpi slt, %4, %c0_i64 : i64
  %6 = arith.select %5, %c0_i64, %4 : i64
  %7 = arith.cmpi sgt, %6, %1 : i64
  %8 = arith.select %7, %1, %6 : i64
  %9 = arith.index_cast %8 : i64 to index
  %10 = arith.cmpi sge, %0, %9 : index
  %11 = arith.select %10, %0, %9 : index
  %12 = arith.subi %11, %9 : index
  %13 = tensor.extract_slice %x[%9] [%12] [1] : tensor<4xf32> to tensor<?xf32>
  %14 = tensor.empty(%12) : tensor<?xf32>
  %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%13 : tensor<?xf32>) outs(%14 : tensor<?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.sitofp %c3_i64 : i64 to f32
      %m = arith.mulf %a, %s : f32
      linalg.yield %m : f32
    } -> tensor<?xf32>
  %r = tensor.cast %16 : tensor<?xf32> to tensor<2xf32>
  return %r : tensor<2xf32>
}
