// A returned reshape is the output, copied from what it shows; unit loops are dropped
// (as IREE drops them) on every op except those whose results the function returns,
// which keep the function's shape and their names. Run on PoCL in exec/collapse.test.
// RUN: polyfuse check %s --tc | FileCheck %s
// CHECK: def f(float(4, 6) x) -> (float(4, 2, 3) r) {
// CHECK-NEXT:   y(d0, d1) = exp(x(d0, d1))
// CHECK-NEXT:   r(d0, d1, d2) = y(d0, 3*d1 + d2) where d0 in 0:4, d1 in 0:2, d2 in 0:3
// RUN: polyfuse check %s --entry batch1 --tc | FileCheck --check-prefix=B1 %s
// B1: def batch1(float(1, 5, 8) x) -> (float(1, 5) s) {
// B1-NEXT:   e(d0, d1) = exp(x(0, d0, d1))
// B1-NEXT:   s(d0, d1) +=! e(d1, d2) where d0 in 0:1
module {
func.func @f(%x: tensor<4x6xf32>) -> tensor<4x2x3xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.exp %a : f32
    linalg.yield %t : f32
  } -> tensor<4x6xf32>
  %r = tensor.expand_shape %y [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf32> into tensor<4x2x3xf32>
  return %r : tensor<4x2x3xf32>
}
func.func @batch1(%x: tensor<1x5x8xf32>) -> tensor<1x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ee = tensor.empty() : tensor<1x5x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x5x8xf32>) outs(%ee : tensor<1x5x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.exp %a : f32
    linalg.yield %t : f32
  } -> tensor<1x5x8xf32>
  %se = tensor.empty() : tensor<1x5xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<1x5xf32>) -> tensor<1x5xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<1x5x8xf32>) outs(%sz : tensor<1x5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x5xf32>
  return %s : tensor<1x5xf32>
}
}
