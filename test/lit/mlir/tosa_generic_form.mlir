// TOSA 1.0 ops in MLIR's generic form (`"tosa.reshape"(%x, %shape)`, as buddy-mlir's
// next-attention writes them) are read as their custom form is: the shape operand becomes
// MLIR 19's attribute, a tosa.mul without a shift takes 0 (src/mlir/TosaSpelling.cpp).
// Each `generic_X` imports as the same TC program as `custom_X` (the def line left out).
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry generic_reshape --tc 2>/dev/null | tail -n +2 > %t/g && polyfuse check %s --entry custom_reshape --tc 2>/dev/null | tail -n +2 > %t/c && diff %t/g %t/c
// RUN: polyfuse check %s --entry generic_mul --tc 2>/dev/null | tail -n +2 > %t/gm && polyfuse check %s --entry custom_mul --tc 2>/dev/null | tail -n +2 > %t/cm && diff %t/gm %t/cm
// RUN: polyfuse exec %s --entry generic_reshape --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
func.func @generic_reshape(%x: tensor<6x4xf32>) -> tensor<2x3x4xf32> {
  %s = tosa.const_shape {values = dense<[2, 3, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = "tosa.reshape" (%x, %s) : (tensor<6x4xf32>, !tosa.shape<3>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @custom_reshape(%x: tensor<6x4xf32>) -> tensor<2x3x4xf32> {
  %s = tosa.const_shape {values = dense<[2, 3, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %x, %s : (tensor<6x4xf32>, !tosa.shape<3>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @generic_mul(%a: tensor<5x7xf32>, %b: tensor<1x7xf32>) -> tensor<5x7xf32> {
  %y = "tosa.mul"(%a, %b) : (tensor<5x7xf32>, tensor<1x7xf32>) -> tensor<5x7xf32>
  return %y : tensor<5x7xf32>
}
func.func @custom_mul(%a: tensor<5x7xf32>, %b: tensor<1x7xf32>) -> tensor<5x7xf32> {
  %y = tosa.mul %a, %b : (tensor<5x7xf32>, tensor<1x7xf32>) -> tensor<5x7xf32>
  return %y : tensor<5x7xf32>
}
