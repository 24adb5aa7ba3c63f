// IREE's `util.initializer` runs once when the module loads, before any function: read as
// a function called first by each public one. Its stores set the globals the entry then
// loads (here a parameter, loaded at run time, plus 42); they are not results of their own.
// A global without a value that the initializer sets is one ml_program holds mutable.
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s
// CHECK: note: read the boundary and test-harness ops (IREE's, tpp-mlir's): util.global, util.global.load and util.global.store are ml_program's; util.initializer runs before the entry, its stores the globals' values
// CHECK: def main(float(8) x, int32(8) raw) -> (float(8) [[R:[a-z0-9_]+]]) {
// CHECK-NEXT: [[S:[a-z0-9_]+]](d0) = wrap(raw(d0) + 42, 32)
// CHECK-NEXT: [[R]](d0) = x(d0) * round_f32([[S]](d0))
// RUN: polyfuse exec %s --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
util.global private @raw = #flow.parameter.named<"model"::"raw"> : tensor<8xi32>
util.global private @shifted : tensor<8xi32>
util.initializer {
  %r = util.global.load @raw : tensor<8xi32>
  %c42 = arith.constant 42 : i32
  %e = tensor.empty() : tensor<8xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : tensor<8xi32>) outs(%e : tensor<8xi32>) {
  ^bb0(%a: i32, %o: i32):
    %t = arith.addi %a, %c42 : i32
    linalg.yield %t : i32
  } -> tensor<8xi32>
  util.global.store %s, @shifted : tensor<8xi32>
  util.return
}
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = util.global.load @shifted : tensor<8xi32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %s : tensor<8xf32>, tensor<8xi32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: i32, %o: f32):
    %f = arith.sitofp %b : i32 to f32
    %m = arith.mulf %a, %f : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
