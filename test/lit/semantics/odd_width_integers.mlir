// Integers of widths other than 8, 16, 32 and 64 (IREE's i2 and i4, an i7 in a body):
// each result wraps at its own width, as MLIR computes it. Run under MLIR and under
// polyfuse's interpreter and OpenCL, element by element, on random inputs.
// RUN: %oracle %s --entry body_i7 --backend ref --backend opencl | FileCheck --check-prefix=I7 %s
// I7: ref r: 12 elements match MLIR
// I7: opencl r: 12 elements match MLIR
// RUN: polyfuse check %s --entry body_i7 --tc | FileCheck --check-prefix=I7-TC %s
// I7-TC: r(d0, d1) = wrap(wrap(trunc(x(d0, d1) * 20.0), 7) * wrap(trunc(x(d0, d1) * 20.0), 7), 7)
// An i4 tensor between two ops: its values those of i4 (3 * 5 = -1).
// RUN: %oracle %s --entry tensor_i4 --backend ref --backend opencl | FileCheck --check-prefix=I4 %s
// I4: ref r: 12 elements match MLIR
// I4: opencl r: 12 elements match MLIR
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @body_i7(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %c = arith.constant 20.0 : f32
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %c : f32
    %w = arith.fptosi %s : f32 to i7
    %m = arith.muli %w, %w : i7
    %t = arith.sitofp %m : i7 to f32
    linalg.yield %t : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @tensor_i4(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e4 = tensor.empty() : tensor<3x4xi4>
  %c = arith.constant 7.0 : f32
  %t = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x4xf32>) outs(%e4 : tensor<3x4xi4>) {
  ^bb0(%a: f32, %o: i4):
    %s = arith.mulf %a, %c : f32
    %w = arith.fptosi %s : f32 to i4
    %m = arith.muli %w, %w : i4
    linalg.yield %m : i4
  } -> tensor<3x4xi4>
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<3x4xi4>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%a: i4, %o: f32):
    %three = arith.constant 3 : i4
    %u = arith.addi %a, %three : i4
    %f = arith.sitofp %u : i4 to f32
    linalg.yield %f : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
// An i8 sum of 128 ones is -128 in MLIR (IREE's large-reduction test): the sum wraps at
// its width, once, after the reduction.
// RUN: %oracle %s --entry sum_i8 --backend ref --backend opencl | FileCheck --check-prefix=SUM %s
// SUM: ref r: 3 elements match MLIR
// SUM: opencl r: 3 elements match MLIR
// RUN: polyfuse check %s --entry sum_i8 --tc 2>/dev/null | FileCheck --check-prefix=SUM-TC %s
// SUM-TC: r_unwrapped(d0) +=! wrap(trunc(x(d0, d1) * 100.0), 8)
// SUM-TC-NEXT: r(d0) = wrap(r_unwrapped(d0), 8)
func.func @sum_i8(%x: tensor<3x40xf32>) -> tensor<3xi8> {
  %c = arith.constant 100.0 : f32
  %zero = arith.constant 0 : i8
  %e = tensor.empty() : tensor<3xi8>
  %f = linalg.fill ins(%zero : i8) outs(%e : tensor<3xi8>) -> tensor<3xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x40xf32>) outs(%f : tensor<3xi8>) {
  ^bb0(%a: f32, %acc: i8):
    %s = arith.mulf %a, %c : f32
    %w = arith.fptosi %s : f32 to i8
    %t = arith.addi %w, %acc : i8
    linalg.yield %t : i8
  } -> tensor<3xi8>
  return %r : tensor<3xi8>
}
