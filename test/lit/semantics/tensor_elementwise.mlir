// Elementwise ops applied to whole tensors (IREE's regression tests, hand-written files)
// are the linalg.generic each means (MLIR's convert-elementwise-to-linalg): arithmetic,
// math, a compare and a select on tensors, one of them of rank 0. Compared with MLIR's
// execution.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref r: 15 elements match MLIR
// CHECK: ref s: 1 elements match MLIR
// CHECK: opencl r: 15 elements match MLIR
// CHECK: opencl s: 1 elements match MLIR
// RUN: polyfuse check %s 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: 6 elementwise op(s) on whole tensors read as the linalg.generic each means (MLIR's convert-elementwise-to-linalg)
// A scalar result is the tensor of rank 0 that holds it.
// RUN: polyfuse check %s --entry scalar --tc 2>&1 | FileCheck --check-prefix=SCALAR %s
// SCALAR: def scalar(int32(2) x) -> (float() e) {
// SCALAR-NEXT: e = x(0)
func.func @f(%x: tensor<3x5xf32>, %y: tensor<3x5xf32>, %z: tensor<f32>) -> (tensor<3x5xf32>, tensor<f32>) {
  %a = arith.addf %x, %y : tensor<3x5xf32>
  %t = math.tanh %a : tensor<3x5xf32>
  %c = arith.cmpf ogt, %x, %y : tensor<3x5xf32>
  %m = arith.mulf %t, %x : tensor<3x5xf32>
  %r = arith.select %c, %m, %y : tensor<3x5xi1>, tensor<3x5xf32>
  %s = math.exp %z : tensor<f32>
  return %r, %s : tensor<3x5xf32>, tensor<f32>
}
func.func @scalar(%x: tensor<2xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %e = tensor.extract %x[%c0] : tensor<2xi32>
  return %e : i32
}
