// What the linalg front end refuses gets the op's file, line and column and status 2.
// RUN: expect-exit 2 polyfuse check %s 2>&1 | FileCheck %s
// CHECK: polyfuse: error: {{.*}}errors.mlir:[[@LINE+3]]:8: unsupported operation 'foo.bar'
// CHECK-NEXT: %y = "foo.bar"(%x)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
