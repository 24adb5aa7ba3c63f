// TOSA 1.0, as MLIR 20 and later print it (IREE's tosa_ops tests): shapes as
// !tosa.shape values, reduce axes as axis(N), shifts, zero points and pad values as
// operands, `values` on constants, clamp's min_val/max_val, transpose's perms attribute.
// Each is read in MLIR 19's TOSA spelling (src/mlir/TosaSpelling.cpp), then lowered as
// semantics/tosa.mlir is: each function here is that file's function, in TOSA 1.0, and
// imports as the same TC program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry softmax --tc > %t/softmax.10 2>/dev/null && polyfuse check %S/../semantics/tosa.mlir --entry softmax --tc > %t/softmax.19 2>/dev/null && diff %t/softmax.10 %t/softmax.19
// RUN: polyfuse check %s --entry mlp --tc > %t/mlp.10 2>/dev/null && polyfuse check %S/../semantics/tosa.mlir --entry mlp --tc > %t/mlp.19 2>/dev/null && diff %t/mlp.10 %t/mlp.19
// RUN: polyfuse check %s --entry conv --tc > %t/conv.10 2>/dev/null && polyfuse check %S/../semantics/tosa.mlir --entry conv --tc > %t/conv.19 2>/dev/null && diff %t/conv.10 %t/conv.19
// RUN: polyfuse check %s --entry layout --tc > %t/layout.10 2>/dev/null && polyfuse check %S/../semantics/tosa.mlir --entry layout --tc > %t/layout.19 2>/dev/null && diff %t/layout.10 %t/layout.19
// RUN: polyfuse check %s --entry padded --tc > %t/padded.10 2>/dev/null && polyfuse check %S/../semantics/tosa.mlir --entry padded --tc > %t/padded.19 2>/dev/null && diff %t/padded.10 %t/padded.19
// RUN: polyfuse check %s --entry conv --tc 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: read TOSA 1.0 in MLIR 19's TOSA spelling: acc_type (MLIR 19 has no such attribute), axis(..), nan_mode (MLIR 19 has no such attribute), tosa.clamp, tosa.const's values, tosa.const_shape, tosa.conv2d, tosa.matmul, tosa.max_pool2d, tosa.mul, tosa.mul's shift operand, tosa.negate, tosa.pad, tosa.reduce_prod, tosa.reduce_product is tosa.reduce_prod, tosa.reshape, tosa.slice, tosa.transpose, zero-point operands of 0
// RUN: polyfuse exec %s --entry layout --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
// Numbered SSA values take fresh names for the constants a rewrite adds (`%0__perms`
// would be no SSA name), and tosa.reduce_product is MLIR 19's reduce_prod:
// RUN: polyfuse exec %s --entry numbered --backend opencl | FileCheck --check-prefix=EXEC %s
// A zero point other than 0 (quantized data) is MLIR 19's quantization_info (mlir/tosa10_quantized.mlir):
// RUN: polyfuse check %S/../Inputs/mlir/tosa10_quantized.mlir --tc 2>/dev/null | FileCheck --check-prefix=QUANT %s
// QUANT: mm_unwrapped(d0, d1, d2) +=! wrap(wrap(x(d0, d1, d3) - 3, 32) * wrap(w(d0, d3, d2) - 3, 32), 32)
func.func @softmax(%x: tensor<13x37xf32>) -> tensor<13x37xf32> {
  %m = tosa.reduce_max %x axis(1) : (tensor<13x37xf32>) -> tensor<13x1xf32>
  %d = tosa.sub %x, %m : (tensor<13x37xf32>, tensor<13x1xf32>) -> tensor<13x37xf32>
  %e = tosa.exp %d : (tensor<13x37xf32>) -> tensor<13x37xf32>
  %s = tosa.reduce_sum %e axis(1) : (tensor<13x37xf32>) -> tensor<13x1xf32>
  %r = tosa.reciprocal %s : (tensor<13x1xf32>) -> tensor<13x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %e, %r, %shift : (tensor<13x37xf32>, tensor<13x1xf32>, tensor<1xi8>) -> tensor<13x37xf32>
  return %y : tensor<13x37xf32>
}
func.func @mlp(%x: tensor<1x5x7xf32>, %w: tensor<1x7x3xf32>, %b: tensor<3xf32>) -> tensor<1x5x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mm = tosa.matmul %x, %w, %zp, %zp : (tensor<1x5x7xf32>, tensor<1x7x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x3xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %br = tosa.reshape %b, %shape : (tensor<3xf32>, !tosa.shape<3>) -> tensor<1x1x3xf32>
  %a = tosa.add %mm, %br : (tensor<1x5x3xf32>, tensor<1x1x3xf32>) -> tensor<1x5x3xf32>
  %c = tosa.clamp %a {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x5x3xf32>) -> tensor<1x5x3xf32>
  %s = tosa.sigmoid %c : (tensor<1x5x3xf32>) -> tensor<1x5x3xf32>
  return %s : tensor<1x5x3xf32>
}
func.func @conv(%x: tensor<1x9x9x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x9x9x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x4xf32>
  %p = tosa.max_pool2d %y {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, nan_mode = "PROPAGATE"} : (tensor<1x5x5x4xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
func.func @layout(%x: tensor<2x3x4xf32>) -> tensor<4x7x2xf32> {
  %t = tosa.transpose %x {perms = array<i32: 2, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %n = tosa.negate %t, %zp, %zp : (tensor<4x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x3x2xf32>
  %c = tosa.concat %t, %n, %t {axis = 1 : i32} : (tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> tensor<4x9x2xf32>
  %start = tosa.const_shape {values = dense<[0, 1, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[4, 7, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s = tosa.slice %c, %start, %size : (tensor<4x9x2xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<4x7x2xf32>
  return %s : tensor<4x7x2xf32>
}
func.func @padded(%x: tensor<3x4xf32>) -> tensor<6x5xf32> {
  %padding = tosa.const_shape {values = dense<[1, 2, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pv = "tosa.const"() <{values = dense<1.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.pad %x, %padding, %pv : (tensor<3x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<6x5xf32>
  return %p : tensor<6x5xf32>
}
func.func @numbered(%arg0: tensor<2x3xf32>) -> tensor<1x3xf32> {
  %0 = tosa.transpose %arg0 {perms = array<i32: 1, 0>}: (tensor<2x3xf32>) -> (tensor<3x2xf32>)
  %1 = tosa.transpose %0 { perms = array<i32: 1, 0> } : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %2 = tosa.reduce_product %1 axis(0) : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %2 : tensor<1x3xf32>
}
