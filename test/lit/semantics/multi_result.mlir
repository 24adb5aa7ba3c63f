// A multi-result generic whose results are indexed by different loop sets (IREE's
// fused form): a sum over d1 beside a value written at every (d0, d1). The second is an
// elementwise statement of its own; one computed from the running sum (a scan) is
// refused at the op.
// RUN: %oracle %s --entry fused --backend ref --backend opencl | FileCheck %s
// CHECK: ref s: 5 elements match MLIR
// CHECK: ref sq: 35 elements match MLIR
// CHECK: opencl s: 5 elements match MLIR
// CHECK: opencl sq: 35 elements match MLIR
// RUN: polyfuse check %s --entry fused --tc | FileCheck --check-prefix=TC %s
// TC: s(d0) +=! x(d0, d1)
// TC-NEXT: sq(d0, d1) = x(d0, d1) * x(d0, d1)
// RUN: expect-exit 2 polyfuse check %s --entry scan 2>&1 | FileCheck --check-prefix=SCAN %s
// SCAN: multi_result.mlir:33:12: loop d1 is a reduction loop but indexes result 1 from a running accumulator (a scan)
func.func @fused(%x: tensor<5x7xf32>) -> (tensor<5xf32>, tensor<5x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<5xf32>) -> tensor<5xf32>
  %e1 = tensor.empty() : tensor<5x7xf32>
  %s, %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<5x7xf32>) outs(%z, %e1 : tensor<5xf32>, tensor<5x7xf32>) {
  ^bb0(%in: f32, %acc: f32, %o: f32):
    %a = arith.addf %in, %acc : f32
    %m = arith.mulf %in, %in : f32
    linalg.yield %a, %m : f32, f32
  } -> (tensor<5xf32>, tensor<5x7xf32>)
  return %s, %sq : tensor<5xf32>, tensor<5x7xf32>
}
func.func @scan(%x: tensor<5x7xf32>) -> (tensor<5xf32>, tensor<5x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<5xf32>) -> tensor<5xf32>
  %e1 = tensor.empty() : tensor<5x7xf32>
  %s, %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<5x7xf32>) outs(%z, %e1 : tensor<5xf32>, tensor<5x7xf32>) {
  ^bb0(%in: f32, %acc: f32, %o: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a, %a : f32, f32
  } -> (tensor<5xf32>, tensor<5x7xf32>)
  return %s, %p : tensor<5xf32>, tensor<5x7xf32>
}
