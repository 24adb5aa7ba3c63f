// A value computed in f64 inside an f32 function (a variance summed in double, then
// truncated) keeps its type: the program computes in double, and the truncf rounds to
// f32 as MLIR's does. A note says so; nothing is narrowed silently. Compared with MLIR's
// execution.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref o: 4 elements match MLIR
// CHECK: opencl o: 4 elements match MLIR
// RUN: polyfuse check %s 2>&1 | FileCheck --check-prefix=NOTE %s
// NOTE: note: 's' is computed in f64: the program computes in double
// NOTE: s temporary double(4)
func.func @var(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z : tensor<4xf64>) {
  ^bb0(%a: f32, %acc: f64):
    %a64 = arith.extf %a : f32 to f64
    %sq = arith.mulf %a64, %a64 : f64
    %r = arith.addf %sq, %acc : f64
    linalg.yield %r : f64
  } -> tensor<4xf64>
  %e2 = tensor.empty() : tensor<4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<4xf64>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%a: f64, %o: f32):
    %t = arith.truncf %a : f64 to f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %o : tensor<4xf32>
}
