// The math dialect's elementwise functions beyond exp and log (rotary embeddings take sin
// and cos, softplus and mish log1p, quantizers floor, ceil, round and roundeven), as C's
// library spells them in every backend. Each output is one function, compared with
// MLIR's execution (inputs scaled to 3x, so that the roundings meet halves and signs).
// Under greedy: every one of the 65,535 groups of these 16 sibling statements (they share
// their inputs, nothing else) is a legal kernel, and ilp takes 48 s to price them and
// prove the one kernel optimal (a candidate space exponential in siblings, issue 22's to
// bound).
// RUN: %oracle %s --backend ref --backend opencl --strategy greedy | FileCheck %s
// CHECK-COUNT-16: ref {{[a-z0-9_]+}}: 24 elements match MLIR
// CHECK-COUNT-16: opencl {{[a-z0-9_]+}}: 24 elements match MLIR
// RUN: polyfuse check %s --tc | FileCheck --check-prefix=TC %s
// TC: sin(
// TC: rint(
// TC: fmod(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @math(%x: tensor<4x6xf32>, %y: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %e = tensor.empty() : tensor<4x6xf32>
  %r:16 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  ^bb0(%a0: f32, %b: f32, %o0: f32, %o1: f32, %o2: f32, %o3: f32, %o4: f32, %o5: f32, %o6: f32, %o7: f32, %o8: f32, %o9: f32, %o10: f32, %o11: f32, %o12: f32, %o13: f32, %o14: f32, %o15: f32):
    %three = arith.constant 3.0 : f32
    %a = arith.mulf %a0, %three : f32
    %pos = math.absf %a : f32
    %s = math.sin %a : f32
    %c = math.cos %a : f32
    %t = math.tan %a0 : f32
    %at = math.atan %a : f32
    %at2 = math.atan2 %a, %b : f32
    %fl = math.floor %a : f32
    %ce = math.ceil %a : f32
    %ro = math.round %a : f32
    %re = math.roundeven %a : f32
    %l1 = math.log1p %pos : f32
    %l2 = math.log2 %pos : f32
    %l10 = math.log10 %pos : f32
    %e2 = math.exp2 %a : f32
    %em = math.expm1 %a0 : f32
    %cs = math.copysign %a, %b : f32
    %fm = arith.remf %a, %b : f32
    linalg.yield %s, %c, %t, %at, %at2, %fl, %ce, %ro, %re, %l1, %l2, %l10, %e2, %em, %cs, %fm : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
  } -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}
