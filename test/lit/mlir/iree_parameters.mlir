// Globals whose value the file leaves out: IREE's parameters (`#flow.parameter.named`,
// loaded from an archive when the module runs). What the caller supplies is an input,
// named after the global, drawn by exec as an argument is. A global declared bare has
// no value to read: refused (mlir/globals.mlir).
// A check may name its type by the module's alias (IREE's e2e tests write `!out_size`).
// RUN: polyfuse check %s --entry main --tc 2>&1 | FileCheck %s
// CHECK: note: '@weight' (line [[@LINE+17]]) has no elements in the file (a parameter supplied at run time): its load is an input of the program
// CHECK-NOT: constant 'weight'
// CHECK: def main(float(2, 3) x, float(3, 4) weight) -> (float(2, 4) [[R:[a-z0-9_]+]]) {
// RUN: polyfuse exec %s --entry main --backend opencl | FileCheck --check-prefix=EXEC %s
// Loaded twice, it is one input, read twice.
// RUN: polyfuse check %s --entry twice --tc 2>&1 | FileCheck --check-prefix=TWICE %s
// TWICE: def twice(float(3, 4) weight) -> (float(3, 4) [[T:[a-z0-9_]+]]) {
// TWICE-NEXT: [[T]](d0, d1) = weight(d0, d1) * weight(d0, d1)
// EXEC: verified: yes
// RUN: polyfuse check %s --entry aliased --tc 2>&1 | FileCheck --check-prefix=ALIAS %s
// ALIAS: the values check.expect_* tests are the function's results
// ALIAS: def aliased(float(4, 4) lhs) -> (float(4, 4) [[A:[a-z0-9_]+]]) {
// RUN: polyfuse exec %s --entry aliased --backend opencl | FileCheck --check-prefix=EXEC %s
!mat = tensor<4x4xf32>
util.global private @weight = #flow.parameter.named<"model"::"weight"> : tensor<3x4xf32>
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = util.global.load @weight : tensor<3x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
func.func @aliased() {
  %lhs = util.unfoldable_constant dense<1.0> : !mat
  %e = tensor.empty() : !mat
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%lhs : !mat) outs(%e : !mat) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %in : f32
    linalg.yield %t : f32
  } -> !mat
  check.expect_almost_eq_const(%r, dense<2.0> : !mat) : !mat
  return
}
func.func @twice() -> tensor<3x4xf32> {
  %a = util.global.load @weight : tensor<3x4xf32>
  %b = util.global.load @weight : tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.mul ins(%a, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
