// MLIR's own parse and verify errors keep their position.
// RUN: expect-exit 2 polyfuse fuse %s --size x_0=4 2>&1 | FileCheck %s
// CHECK: polyfuse: error: {{.*}}parse_error.mlir:[[@LINE+2]]:10: use of undeclared SSA value name
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %z : tensor<?xf32>
}
