// IREE's boundary ops, as its input dialects and its e2e tests write them, read as the
// plain function they stand for (src/mlir/IreeBoundary.cpp): imported buffer views are
// arguments, exported ones results, a barrier its operand, an unfoldable constant a
// constant, the values check.expect_* tests the results, materialize_in_destination its
// source, a static flow.tensor.reshape a collapse and an expansion. One note says which.
// RUN: polyfuse check %s --entry main --tc 2>&1 | FileCheck --check-prefix=ABI %s
// ABI: note: read the boundary and test-harness ops (IREE's, tpp-mlir's): bufferization.materialize_in_destination is its source (the destination is the output); flow.tensor.reshape of static shapes is a collapse and an expansion; hal.tensor.export is a result; hal.tensor.import is an argument of its tensor type; the values check.expect_* tests are the function's results; util.func and util.return are func.func and return; util.optimization_barrier is its operand; util.unfoldable_constant is a constant the program takes as an input
// ABI: def main(float(4, 8) arg0, float(8) arg1) -> (float(4, 8) v3) {
// ABI-NEXT: v3(d0, d1) = arg0(d0, d1) + arg1(d1)
// RUN: polyfuse exec %s --entry main --backend opencl 2>/dev/null | FileCheck --check-prefix=OK %s
// RUN: polyfuse exec %s --entry e2e_softmax --backend opencl 2>/dev/null | FileCheck --check-prefix=OK %s
// RUN: polyfuse exec %s --entry barrier --backend opencl 2>/dev/null | FileCheck --check-prefix=OK %s
// RUN: polyfuse exec %s --entry reshape --backend opencl 2>/dev/null | FileCheck --check-prefix=OK %s
// RUN: polyfuse exec %s --entry destination --backend opencl 2>/dev/null | FileCheck --check-prefix=OK %s
// RUN: polyfuse fuse %s --entry e2e_softmax 2>/dev/null | FileCheck --check-prefix=SOFTMAX %s
// OK: verified: yes
// SOFTMAX: total: 1 kernel(s)
// RUN: polyfuse check %s --entry e2e_softmax --tc 2>/dev/null | FileCheck --check-prefix=E2E %s
// E2E: def e2e_softmax(float(2, 4) input) -> (float(2, 4) r_3) {
// RUN: polyfuse check %s --entry reshape --tc 2>/dev/null | FileCheck --check-prefix=RESHAPE %s
// RESHAPE: y(d0, d1) = exp(flat(4*d0 + d1))
util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
  %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<4x8xf32>
  %1 = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<8xf32>
  %2 = tensor.empty() : tensor<4x8xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0, %1 : tensor<4x8xf32>, tensor<8xf32>) outs(%2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %5 = arith.addf %in, %in_0 : f32
    linalg.yield %5 : f32
  } -> tensor<4x8xf32>
  %4 = hal.tensor.export %3 "output0" : tensor<4x8xf32> -> !hal.buffer_view
  util.return %4 : !hal.buffer_view
}
func.func @e2e_softmax() {
  %input = util.unfoldable_constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %init = tensor.empty() : tensor<2x4xf32>
  %r = linalg.softmax dimension(1) ins(%input : tensor<2x4xf32>) outs(%init : tensor<2x4xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%r, dense<[[0.0320586, 0.0871443, 0.236883, 0.643914], [0.0320586, 0.0871443, 0.236883, 0.643914]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}
util.func public @barrier(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = util.optimization_barrier %x : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = math.exp %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  util.return %r : tensor<4xf32>
}
func.func @reshape(%flat: tensor<12xf32>) -> tensor<3x4xf32> {
  %x = flow.tensor.reshape %flat : tensor<12xf32> -> tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = math.exp %in : f32
    linalg.yield %s : f32
  } -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
func.func @destination(%x: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = math.exp %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %m = bufferization.materialize_in_destination %r in %out : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}
