// IREE's external transient storage: a `!hal.buffer {iree.abi.transients}` argument is
// scratch memory the caller lends, holding no value the program reads: dropped, with a
// note. An argument marked `{iree.abi.output = 0 : index}` is an input like any other.
// RUN: polyfuse check %s --entry scratch --tc 2>&1 | FileCheck %s
// CHECK: note: read the boundary and test-harness ops (IREE's, tpp-mlir's): a transient buffer argument (!hal.buffer {iree.abi.transients}: scratch storage) is dropped
// CHECK: def scratch(float(4, 6) a, float(6, 5) b, float(4, 5) out) -> (float(4, 5) [[R:[a-z0-9_]+]]) {
// RUN: polyfuse exec %s --entry scratch --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
util.func @scratch(%a : tensor<4x6xf32>, %b : tensor<6x5xf32>,
    %out : tensor<4x5xf32> {iree.abi.output = 0 : index}, %t : !hal.buffer {iree.abi.transients}) -> tensor<4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x6xf32>, tensor<6x5xf32>) outs(%f : tensor<4x5xf32>) -> tensor<4x5xf32>
  util.return %r : tensor<4x5xf32>
}
// The buffer first among the arguments, and named by hal.tensor.transients (the storage a
// value's temporaries may use: the value itself).
// RUN: polyfuse check %s --entry first --tc 2>&1 | FileCheck --check-prefix=FIRST %s
// FIRST: hal.tensor.transients is its operand
// FIRST: def first(float(4) a) -> (float(4) [[F:[a-z0-9_]+]]) {
util.func @first(%t : !hal.buffer {iree.abi.transients}, %a : tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r2 = hal.tensor.transients %r : tensor<4xf32> from %t : !hal.buffer
  util.return %r2 : tensor<4xf32>
}
