// The TC program's names are the file's SSA names, as MLIR's parser recorded them
// (AsmParserState): characters TC does not take become '_', a group of results '%r:2'
// is r_0 and r_1, and an op inlined from a called function keeps its own name.
// RUN: polyfuse check %s --tc | FileCheck %s
// CHECK: def f(float(4) x_in, float(4) y_2) -> (float(4) pair_0, float(4) pair_1, float(4) scaled) {
// CHECK-NEXT:   pair_0(d0) = x_in(d0) + y_2(d0)
// CHECK-NEXT:   pair_1(d0) = x_in(d0) * y_2(d0)
// CHECK-NEXT:   scaled(d0) = pair_0(d0) * 2.0{{$}}
// CHECK-NEXT: }
func.func @f(%x.in: tensor<4xf32>, %y$2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %pair:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x.in, %y$2 : tensor<4xf32>, tensor<4xf32>) outs(%e, %e : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %p: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.mulf %a, %b : f32
    linalg.yield %s, %m : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  %t = func.call @twice(%pair#0) : (tensor<4xf32>) -> tensor<4xf32>
  return %pair#0, %pair#1, %t : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
func.func private @twice(%v: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %scaled : tensor<4xf32>
}
