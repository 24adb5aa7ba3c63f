// A reduction whose value does not depend on the reduced loop: IREE's softmax and
// LayerNorm tests reduce a splat constant (its optimization barrier read through), and a
// generic may reduce a value of the outer loops only. The loop is kept, given by a where
// clause alone, and the value reduced as many times as it runs (not multiplied: the sum's
// rounding is MLIR's). Compared with MLIR's execution.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref s: 3 elements match MLIR
// CHECK: ref m: 3 elements match MLIR
// CHECK: opencl s: 3 elements match MLIR
// CHECK: opencl m: 3 elements match MLIR
// RUN: polyfuse check %s --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// TC: s(d0) +=! 0.1 where d0 in 0:3, d1 in 0:1000
// TC: m(d0) max=! x(d0) where d1 in 0:7
func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %c = arith.constant dense<0.1> : tensor<3x1000xf32>
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3xf32>
  %s0 = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<3x1000xf32>) outs(%s0 : tensor<3xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<3xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %big = tensor.empty() : tensor<3x7xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %big : tensor<3xf32>, tensor<3x7xf32>) outs(%m0 : tensor<3xf32>) {
  ^bb0(%v: f32, %unused: f32, %acc: f32):
    %a = arith.maximumf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<3xf32>
  return %s, %m : tensor<3xf32>, tensor<3xf32>
}
