// Loads of ml_program globals that nothing stores are their initial values, read as
// constants are: a splat is one value, other data an input of the program (a weight).
// RUN: polyfuse check %s --entry scaled --tc 2>&1 | FileCheck --check-prefix=SPLAT %s
// SPLAT: def scaled(float(3) x) -> (float(3) v0) {
// SPLAT-NEXT: v0(d0) = x(d0) * 0.5
// RUN: polyfuse check %s --entry weighted --tc 2>&1 | FileCheck --check-prefix=DENSE %s
// DENSE: note: constant 'w' (line [[@LINE+38]]) becomes an input of the program
// DENSE: def weighted(float(3) x, float(3) w) -> (float(3) v0) {
// A global the module stores to is read as one call sees it: its initial value until the
// entry stores, then what it stored; the last value stored is a result of the program.
// RUN: polyfuse check %s --entry mutable --tc 2>&1 | FileCheck --check-prefix=MUT %s
// MUT: note: the function stores to '@counter' (line [[@LINE+50]]): the value it stores last is result 0 of the program
// MUT: def mutable(float(3) x) -> (float(3) v0) {
// MUT-NEXT: v0(d0) = x(d0) + 0.0
// RUN: polyfuse check %s --entry bump --tc 2>&1 | FileCheck --check-prefix=BUMP %s
// BUMP: note: '@counter' (line [[@LINE+50]]) is read as its initial value: the value before any call, though other functions store to it
// BUMP: note: the function stores to '@counter' (line [[@LINE+56]]): the value it stores last is result 1 of the program
// BUMP: def bump(float(3) x) -> (float(3) v1, float(3) v0) {
// BUMP-NEXT: v0(d0) = x(d0) + 0.0
// BUMP-NEXT: v1(d0) = v0(d0) * x(d0)
// RUN: polyfuse exec %s --entry bump --backend opencl | FileCheck --check-prefix=EXEC %s
// RUN: not polyfuse check %s --entry external 2>&1 | FileCheck --check-prefix=EXT %s
// EXT: globals.mlir:[[@LINE+60]]:10: 'ml_program.global_load' of '@ext', which has no initial value of the loaded type
// The splat's program runs alike on both backends.
// RUN: polyfuse exec %s --entry scaled --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes

#id = affine_map<(d0) -> (d0)>
module {
  ml_program.global private @half(dense<0.5> : tensor<3xf32>) : tensor<3xf32>
  ml_program.global private @w(dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) : tensor<3xf32>
  ml_program.global private mutable @counter(dense<0.0> : tensor<3xf32>) : tensor<3xf32>
  ml_program.global private mutable @ext : tensor<3xf32>
  func.func @scaled(%x: tensor<3xf32>) -> tensor<3xf32> {
    %h = ml_program.global_load_const @half : tensor<3xf32>
    %e = tensor.empty() : tensor<3xf32>
    %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %h : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  func.func @weighted(%x: tensor<3xf32>) -> tensor<3xf32> {
    %w = ml_program.global_load @w : tensor<3xf32>
    %e = tensor.empty() : tensor<3xf32>
    %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %w : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  func.func @mutable(%x: tensor<3xf32>) -> tensor<3xf32> {
    %c = ml_program.global_load @counter : tensor<3xf32>
    %e = tensor.empty() : tensor<3xf32>
    %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %c : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.addf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<3xf32>
    ml_program.global_store @counter = %0 : tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  func.func @bump(%x: tensor<3xf32>) -> tensor<3xf32> {
    %c = ml_program.global_load @counter : tensor<3xf32>
    %e = tensor.empty() : tensor<3xf32>
    %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %c : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.addf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<3xf32>
    ml_program.global_store @counter = %0 : tensor<3xf32>
    %d = ml_program.global_load @counter : tensor<3xf32>
    %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%d, %x : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<3xf32>
    return %1 : tensor<3xf32>
  }
  func.func @external(%x: tensor<3xf32>) -> tensor<3xf32> {
    %c = ml_program.global_load @ext : tensor<3xf32>
    %e = tensor.empty() : tensor<3xf32>
    %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %c : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.addf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
