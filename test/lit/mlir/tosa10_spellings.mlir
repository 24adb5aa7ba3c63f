// TOSA 1.0 as MLIR 20 printed it before the attribute was renamed `values`, and as
// MLIR's own tosa-to-tensor tests write it: `tosa.const_shape {value = ..}`, the generic
// form `"tosa.const_shape"()`, an empty shape (a reshape to rank 0: `array<i64>`), and a
// pad value from `arith.constant`. Each `new_X` imports as the same TC program as `old_X`,
// MLIR 19's TOSA spelling, which semantics/tosa.mlir checks against MLIR's execution.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry new_scalar --tc 2>/dev/null | tail -n +2 > %t/new_scalar && polyfuse check %s --entry old_scalar --tc 2>/dev/null | tail -n +2 > %t/old_scalar && diff %t/new_scalar %t/old_scalar
// RUN: polyfuse check %s --entry new_rows --tc 2>/dev/null | tail -n +2 > %t/new_rows && polyfuse check %s --entry old_rows --tc 2>/dev/null | tail -n +2 > %t/old_rows && diff %t/new_rows %t/old_rows
// RUN: polyfuse check %s --entry new_pad --tc 2>/dev/null | tail -n +2 > %t/new_pad && polyfuse check %s --entry old_pad --tc 2>/dev/null | tail -n +2 > %t/old_pad && diff %t/new_pad %t/old_pad
// RUN: polyfuse check %s --entry new_pad --tc 2>/dev/null | FileCheck --check-prefix=PAD %s
// PAD: 42.0
// RUN: polyfuse exec %s --entry new_pad --backend opencl | FileCheck --check-prefix=EXEC %s
// RUN: polyfuse exec %s --entry new_scalar --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
func.func @new_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  %s = tosa.const_shape { value = dense<> : tensor<0xindex> } : () -> !tosa.shape<0>
  %r = "tosa.reshape"(%x, %s) : (tensor<1x1xf32>, !tosa.shape<0>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func @old_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  %r = tosa.reshape %x {new_shape = array<i64>} : (tensor<1x1xf32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func @new_rows(%x: tensor<6xf32>) -> tensor<2x3xf32> {
  %s = "tosa.const_shape"() {value = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = "tosa.reshape"(%x, %s) : (tensor<6xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @old_rows(%x: tensor<6xf32>) -> tensor<2x3xf32> {
  %r = tosa.reshape %x {new_shape = array<i64: 2, 3>} : (tensor<6xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @new_pad(%x: tensor<1x2xf32>) -> tensor<4x9xf32> {
  %p = tosa.const_shape {value = dense<[1, 2, 3, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = arith.constant dense<42.0> : tensor<1xf32>
  %r = "tosa.pad"(%x, %p, %c) : (tensor<1x2xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<4x9xf32>
  return %r : tensor<4x9xf32>
}
func.func @old_pad(%x: tensor<1x2xf32>) -> tensor<4x9xf32> {
  %p = "tosa.const"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %c = "tosa.const"() {value = dense<42.0> : tensor<f32>} : () -> tensor<f32>
  %r = tosa.pad %x, %p, %c : (tensor<1x2xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<4x9xf32>
  return %r : tensor<4x9xf32>
}
