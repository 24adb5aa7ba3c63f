// tosa.mul with neither a shift attribute (MLIR 19) nor a shift operand (TOSA 1.0), as
// the TOSA between them printed a float product (buddy-mlir's DeepSeek-R1 export): the
// shift is 0, and the op reads as MLIR 19's with `shift = 0` (src/mlir/TosaSpelling.cpp).
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s
// CHECK: note: read TOSA 1.0 in MLIR 19's TOSA spelling: {{.*}}tosa.mul without a shift (0)
// CHECK: y(d0, d1) = a(d0, d1) * b(0, d1)
// RUN: polyfuse exec %s --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
func.func @scale(%a: tensor<5x7xf32>, %b: tensor<1x7xf32>) -> tensor<5x7xf32> {
  %y = tosa.mul %a, %b : (tensor<5x7xf32>, tensor<1x7xf32>) -> tensor<5x7xf32>
  return %y : tensor<5x7xf32>
}
