// IREE's module state and calls: util.global, util.global.load and util.global.store
// are ml_program's (a load of a global before the entry stores it is its initial value: a splat one
// value, other data an input), and util.call is func.call, inlined. iree-import-onnx
// quotes parameter names and marks them {noinline}; a load names the input.
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s
// CHECK: note: read the boundary and test-harness ops (IREE's, tpp-mlir's): util.call is func.call; util.func and util.return are func.func and return; util.global, util.global.load and util.global.store are ml_program's
// CHECK: note: 1 call(s) inlined into '@main'
// CHECK: def main(float(3) x, float(3) w) -> (float(3) [[OUT:[a-z0-9_]+]]) {
// CHECK-NEXT: [[TMP:[a-z0-9_]+]](d0) = x(d0) * w(d0)
// CHECK-NEXT: [[OUT]](d0) = [[TMP]](d0) * 0.5
// RUN: polyfuse exec %s --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
// A global the program stores to: its initial value until the entry stores, then the
// stored value, the last of which is a result.
// RUN: polyfuse check %s --entry counter --tc 2>&1 | FileCheck --check-prefix=MUT %s
// MUT: note: the function stores to '@count' (line [[@LINE+36]]): the value it stores last is result 0 of the program
// MUT: def counter(float(3) x) -> (float(3) [[V:[a-z0-9_]+]]) {
// MUT-NEXT: [[V]](d0) = x(d0) + 0.0
module {
  util.global private mutable @count = dense<0.0> : tensor<3xf32>
  util.global private @"_params.w" {noinline} = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  util.global private @half = dense<0.5> : tensor<3xf32>
  util.func private @scale(%a: tensor<3xf32>) -> tensor<3xf32> {
    %h = util.global.load immutable @half : tensor<3xf32>
    %e = tensor.empty() : tensor<3xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %h : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %m = arith.mulf %x, %y : f32
      linalg.yield %m : f32
    } -> tensor<3xf32>
    util.return %0 : tensor<3xf32>
  }
  util.func public @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    %w = util.global.load @"_params.w" : tensor<3xf32>
    %e = tensor.empty() : tensor<3xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %w : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<3xf32>
    %1 = util.call @scale(%0) : (tensor<3xf32>) -> tensor<3xf32>
    util.return %1 : tensor<3xf32>
  }
  util.func public @counter(%x: tensor<3xf32>) -> tensor<3xf32> {
    %c = util.global.load @count : tensor<3xf32>
    %e = tensor.empty() : tensor<3xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %c : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.addf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<3xf32>
    util.global.store %0, @count : tensor<3xf32>
    util.return %0 : tensor<3xf32>
  }
}
