// tpp-mlir's TPP dialect on tensors, as its 2023 models write it (MobileBERT's last
// residual add): tpp.add and tpp.relu of one shape are the generics they mean, with a
// note; a broadcasting form stays unread, at the op.
// RUN: polyfuse check %s --entry main --tc 2>&1 | FileCheck %s
// CHECK: note: read the boundary and test-harness ops (IREE's, tpp-mlir's): tpp.add is linalg's elementwise sum; tpp.relu is linalg's max with 0
// CHECK: def main(float(3, 5) a, float(3, 5) b) -> (float(3, 5) r) {
// CHECK-NEXT: s(d0, d1) = a(d0, d1) + b(d0, d1)
// CHECK-NEXT: r(d0, d1) = maximum(s(d0, d1), 0.0)
// RUN: polyfuse exec %s --entry main --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
// RUN: not polyfuse check %s --entry broadcast 2>&1 | FileCheck --check-prefix=BCAST %s
// BCAST: tpp_tensor_ops.mlir:[[@LINE+7]]:8: Dialect `tpp' not found for custom op 'tpp.add'
func.func @main(%a: tensor<3x5xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %s = tpp.add (%a : tensor<3x5xf32>, %b : tensor<3x5xf32>) -> tensor<3x5xf32>
  %r = tpp.relu (%s : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @broadcast(%a: tensor<3x5xf32>, %b: tensor<1x5xf32>) -> tensor<3x5xf32> {
  %s = tpp.add (%a : tensor<3x5xf32>, %b : tensor<1x5xf32>) -> tensor<3x5xf32>
  return %s : tensor<3x5xf32>
}
