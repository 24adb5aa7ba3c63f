// f16 and bf16 tensors are stored as they are (2 bytes an element) and computed in f32:
// an f16 op's result is rounded to f16 as MLIR rounds it, an extf reads a value exactly,
// a truncf rounds; an f32 reduction over f16 and bf16 operands accumulates in f32.
// Compared with MLIR's execution (16-bit results widened to f32 to be printed), on the
// reference interpreter and on PoCL.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref y: 35 elements match MLIR
// CHECK: ref s: 5 elements match MLIR
// CHECK: ref z: 35 elements match MLIR
// CHECK: opencl y: 35 elements match MLIR
// CHECK: opencl s: 5 elements match MLIR
// CHECK: opencl z: 35 elements match MLIR
// RUN: polyfuse check %s --tc | FileCheck --check-prefix=TC %s
// TC: def f(half(5, 7) x, bfloat16(7) w) -> (half(5, 7) y, float(5) s, bfloat16(5, 7) z) {
// TC-NEXT: y(d0, d1) = round_f16(x(d0, d1) * x(d0, d1))
// TC-NEXT: s(d0) +=! y(d0, d1) * w(d1)
// TC-NEXT: z(d0, d1) = round_bf16(y(d0, d1) / s(d0))
// Non-finite values in 16 bits: infinities and NaN pass through the store and the load,
// and 300 * 300 overflows f16 to infinity.
// RUN: %oracle %s --backend ref --backend opencl --value 'x=[1, 2, inf, 0, -inf, 1, 2, nan, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 300]' | FileCheck --check-prefix=NONFINITE %s
// NONFINITE: opencl y: 35 elements match MLIR
// NONFINITE: opencl z: 35 elements match MLIR
func.func @f(%x: tensor<5x7xf16>, %w: tensor<7xbf16>) -> (tensor<5x7xf16>, tensor<5xf32>, tensor<5x7xbf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x7xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<5x7xf16>) outs(%e : tensor<5x7xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.mulf %a, %a : f16
    linalg.yield %s : f16
  } -> tensor<5x7xf16>
  %se = tensor.empty() : tensor<5xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y, %w : tensor<5x7xf16>, tensor<7xbf16>) outs(%sz : tensor<5xf32>) {
  ^bb0(%a: f16, %b: bf16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  %be = tensor.empty() : tensor<5x7xbf16>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %s : tensor<5x7xf16>, tensor<5xf32>) outs(%be : tensor<5x7xbf16>) {
  ^bb0(%a: f16, %t: f32, %o: bf16):
    %a32 = arith.extf %a : f16 to f32
    %d = arith.divf %a32, %t : f32
    %r = arith.truncf %d : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<5x7xbf16>
  return %y, %s, %z : tensor<5x7xf16>, tensor<5xf32>, tensor<5x7xbf16>
}
