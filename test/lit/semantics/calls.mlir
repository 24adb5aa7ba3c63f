// Calls between functions are inlined into the entry, as MLIR's inliner would: a model
// written as layers called in turn imports as one program. The default entry is the
// first public function; private ones are helpers.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref [[OUT:[a-z0-9_]+]]: 15 elements match MLIR
// CHECK: opencl [[OUT]]: 15 elements match MLIR
// RUN: polyfuse check %s 2>&1 | FileCheck --check-prefix=NOTE %s
// NOTE: note: 4 call(s) inlined into '@model'
// The two layers and their helpers fuse into one kernel.
// RUN: polyfuse fuse %s | FileCheck --check-prefix=FUSE %s
// FUSE: total: 1 kernel(s)
// RUN: not polyfuse check %s --entry recursive 2>&1 | FileCheck --check-prefix=REC %s
// REC: calls.mlir:[[@LINE+33]]:8: '@recursive' calls itself: recursion cannot be inlined
// RUN: not polyfuse check %s --entry indirect 2>&1 | FileCheck --check-prefix=IND %s
// IND: calls.mlir:[[@LINE+44]]:8: '@ping' calls itself through '@pong': recursion cannot be inlined
// RUN: not polyfuse check %s --entry external 2>&1 | FileCheck --check-prefix=EXT %s
// EXT: calls.mlir:[[@LINE+34]]:8: call to '@opaque', which has no body in this file

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func private @gelu_ish(%a: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    %m = arith.mulf %x, %t : f32
    linalg.yield %m : f32
  } -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
func.func private @layer(%a: tensor<3x5xf32>, %w: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %w : tensor<3x5xf32>, tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.addf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<3x5xf32>
  %1 = func.call @gelu_ish(%0) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %1 : tensor<3x5xf32>
}
func.func @model(%x: tensor<3x5xf32>, %w1: tensor<3x5xf32>, %w2: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = func.call @layer(%x, %w1) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %1 = func.call @layer(%0, %w2) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %1 : tensor<3x5xf32>
}
func.func @recursive(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = func.call @recursive(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
func.func private @opaque(tensor<3x5xf32>) -> tensor<3x5xf32>
func.func @external(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = func.call @opaque(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
func.func private @ping(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = func.call @pong(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
func.func private @pong(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = func.call @ping(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
func.func @indirect(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = func.call @ping(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
