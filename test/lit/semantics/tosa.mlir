// TOSA functions go through MLIR's own conversions (tosa-to-linalg-named, tosa-to-linalg,
// tosa-to-arith, tosa-to-tensor) before the importer reads them, as IREE compiles TOSA;
// compared with MLIR's execution of the same lowering. A softmax as TFLite writes it
// (reduce_max, sub, exp, reduce_sum, reciprocal, mul) fuses into one kernel as the linalg
// one does: nothing here knows it came from TOSA.
// RUN: %oracle %s --entry softmax --backend ref --backend opencl | FileCheck --check-prefix=SOFTMAX %s
// SOFTMAX: ref y: 481 elements match MLIR
// SOFTMAX: opencl y: 481 elements match MLIR
// RUN: polyfuse check %s --entry softmax --tc 2>/dev/null | FileCheck --check-prefix=SOFTMAX-TC %s
// SOFTMAX-TC: m(d0) max= x(d0, d1)
// SOFTMAX-TC: y(d0, d1) = e(d0, d1) * r(d0)
// RUN: polyfuse check %s --entry softmax --tc 2>&1 >/dev/null | FileCheck --check-prefix=SOFTMAX-NOTE %s
// SOFTMAX-NOTE: note: 6 TOSA op(s) lowered to linalg, tensor and arith by MLIR's own conversions
// RUN: polyfuse fuse %s --entry softmax | FileCheck --check-prefix=SOFTMAX-FUSE %s
// SOFTMAX-FUSE: total: 1 kernel(s), dram_bytes 3848 (lower bound 3848, 1.00x)
//
// A batched matmul, a reshaped bias broadcast, clamp and sigmoid; a strided, padded
// convolution with its bias and a max pool; a transpose (its permutation constant is
// dropped once used), a negation, a concatenation and a slice:
// RUN: %oracle %s --entry mlp --backend ref --backend opencl | FileCheck --check-prefix=MLP %s
// MLP: ref s: 15 elements match MLIR
// MLP: opencl s: 15 elements match MLIR
// RUN: %oracle %s --entry conv --backend ref --backend opencl | FileCheck --check-prefix=CONV %s
// CONV: ref p: 64 elements match MLIR
// CONV: opencl p: 64 elements match MLIR
// RUN: %oracle %s --entry layout --backend ref --backend opencl | FileCheck --check-prefix=LAYOUT %s
// LAYOUT: ref s: 56 elements match MLIR
// LAYOUT: opencl s: 56 elements match MLIR
// RUN: polyfuse check %s --entry layout --tc 2>&1 | FileCheck --check-prefix=LAYOUT-TC %s
// LAYOUT-TC: def layout(float(2, 3, 4) x) -> (float(4, 7, 2) s) {
// RUN: %oracle %s --entry padded --backend ref --backend opencl | FileCheck --check-prefix=PAD %s
// PAD: ref p: 30 elements match MLIR
// PAD: opencl p: 30 elements match MLIR
//
// An integer max pool (MLIR's pooling body combines with maxsi) and a product:
// RUN: %oracle %s --entry intpool --backend ref --backend opencl | FileCheck --check-prefix=INTPOOL %s
// INTPOOL: ref p: 40 elements match MLIR
// INTPOOL: opencl p: 40 elements match MLIR
// RUN: %oracle %s --entry product --backend ref --backend opencl | FileCheck --check-prefix=PRODUCT %s
// PRODUCT: ref r_1: 4 elements match MLIR
// PRODUCT: opencl r_1: 4 elements match MLIR
//
// An op MLIR's conversions do not take is MLIR's own error, at the op:
// RUN: not polyfuse check %S/../Inputs/mlir/tosa_cond.mlir 2>&1 | FileCheck --check-prefix=COND %s
// COND: tosa_cond.mlir:4:5: failed to legalize operation 'tosa.yield'
func.func @softmax(%x: tensor<13x37xf32>) -> tensor<13x37xf32> {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<13x37xf32>) -> tensor<13x1xf32>
  %d = tosa.sub %x, %m : (tensor<13x37xf32>, tensor<13x1xf32>) -> tensor<13x37xf32>
  %e = tosa.exp %d : (tensor<13x37xf32>) -> tensor<13x37xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<13x37xf32>) -> tensor<13x1xf32>
  %r = tosa.reciprocal %s : (tensor<13x1xf32>) -> tensor<13x1xf32>
  %y = tosa.mul %e, %r {shift = 0 : i8} : (tensor<13x37xf32>, tensor<13x1xf32>) -> tensor<13x37xf32>
  return %y : tensor<13x37xf32>
}
func.func @mlp(%x: tensor<1x5x7xf32>, %w: tensor<1x7x3xf32>, %b: tensor<3xf32>) -> tensor<1x5x3xf32> {
  %mm = tosa.matmul %x, %w : (tensor<1x5x7xf32>, tensor<1x7x3xf32>) -> tensor<1x5x3xf32>
  %br = tosa.reshape %b {new_shape = array<i64: 1, 1, 3>} : (tensor<3xf32>) -> tensor<1x1x3xf32>
  %a = tosa.add %mm, %br : (tensor<1x5x3xf32>, tensor<1x1x3xf32>) -> tensor<1x5x3xf32>
  %c = tosa.clamp %a {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x5x3xf32>) -> tensor<1x5x3xf32>
  %s = tosa.sigmoid %c : (tensor<1x5x3xf32>) -> tensor<1x5x3xf32>
  return %s : tensor<1x5x3xf32>
}
func.func @conv(%x: tensor<1x9x9x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %y = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x9x9x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x5x5x4xf32>
  %p = tosa.max_pool2d %y {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x4xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
func.func @layout(%x: tensor<2x3x4xf32>) -> tensor<4x7x2xf32> {
  %perm = "tosa.const"() {value = dense<[2, 1, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %t = tosa.transpose %x, %perm : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<4x3x2xf32>
  %n = tosa.negate %t : (tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  %c = tosa.concat %t, %n, %t {axis = 1 : i32} : (tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> tensor<4x9x2xf32>
  %s = tosa.slice %c {start = array<i64: 0, 1, 0>, size = array<i64: 4, 7, 2>} : (tensor<4x9x2xf32>) -> tensor<4x7x2xf32>
  return %s : tensor<4x7x2xf32>
}
func.func @padded(%x: tensor<3x4xf32>) -> tensor<6x5xf32> {
  %padding = "tosa.const"() {value = dense<[[1, 2], [0, 1]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %pv = "tosa.const"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
  %p = tosa.pad %x, %padding, %pv : (tensor<3x4xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<6x5xf32>
  return %p : tensor<6x5xf32>
}
func.func @intpool(%x: tensor<1x5x6x2xi32>) -> tensor<1x4x5x2xi32> {
  %p = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x6x2xi32>) -> tensor<1x4x5x2xi32>
  return %p : tensor<1x4x5x2xi32>
}
func.func @product(%x: tensor<3x4xf32>) -> tensor<1x4xf32> {
  %r = tosa.reduce_prod %x {axis = 0 : i32} : (tensor<3x4xf32>) -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}
