// A constant size or offset that is negative passes MLIR's verifiers (its canonicalizer
// tests write them) but is no tensor's extent: refused at the op, naming the value.
// RUN: expect-exit 2 polyfuse check %s 2>&1 | FileCheck %s
// CHECK: negative_extent.mlir:[[@LINE+3]]:8: an extent or offset here is negative (-5)
func.func @negative(%t: tensor<?xf32>) -> tensor<?xf32> {
  %c = arith.constant -5 : index
  %0 = tensor.extract_slice %t[0][%c][1] : tensor<?xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}
