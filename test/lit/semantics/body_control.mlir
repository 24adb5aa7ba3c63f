// Control inside a linalg body and reads a reshape makes, each against MLIR's execution:
// a read under an scf.if runs only where its branch is taken (padding by a guard: the
// index leaves the tensor elsewhere, so it is a gather checked when read); a reduction
// beside a two-result scf.if that passes the accumulator through (not a use of it); the
// initial value of a reduction read through a reshape between unrelated shapes (the
// division's ids over the loops the copy runs).
// RUN: %oracle %s --entry guarded --backend ref --backend opencl | FileCheck %s --check-prefix=GUARDED
// GUARDED: ref r: 9 elements match MLIR
// GUARDED: opencl r: 9 elements match MLIR
// RUN: %oracle %s --entry passed --backend ref --backend opencl | FileCheck %s --check-prefix=PASSED
// PASSED: ref r: 5 elements match MLIR
// PASSED: opencl r: 5 elements match MLIR
// RUN: %oracle %s --entry reshaped_init --backend ref --backend opencl | FileCheck %s --check-prefix=INIT
// INIT: ref t: 35 elements match MLIR
// INIT: opencl t: 35 elements match MLIR
// A tensor built inside a body is refused at the op that builds it:
// RUN: expect-exit 2 polyfuse check %s --entry built_inside 2>&1 | FileCheck %s --check-prefix=INSIDE
// INSIDE: body_control.mlir:[[@LINE+44]]:10: 'tensor.from_elements' builds a tensor inside a linalg body: polyfuse reads tensors built outside the op, and scalars inside it

func.func @guarded(%x: tensor<5xf32>) -> tensor<9xf32> {
  %e = tensor.empty() : tensor<9xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%e : tensor<9xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c5 = arith.constant 5 : index
    %inside = arith.cmpi ult, %i, %c5 : index
    %v = scf.if %inside -> f32 {
      %w = tensor.extract %x[%i] : tensor<5xf32>
      scf.yield %w : f32
    } else {
      %z = arith.constant -1.0 : f32
      scf.yield %z : f32
    }
    linalg.yield %v : f32
  } -> tensor<9xf32>
  return %r : tensor<9xf32>
}

func.func @passed(%x: tensor<5x6xf32>) -> tensor<5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<5x6xf32>) outs(%init : tensor<5xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %positive = arith.cmpf ogt, %in, %zero : f32
    %v:2 = scf.if %positive -> (f32, f32) {
      scf.yield %in, %acc : f32, f32
    } else {
      scf.yield %zero, %acc : f32, f32
    }
    %s = arith.addf %acc, %v#0 : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @built_inside(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %h = arith.mulf %in, %in : f32
    %t = tensor.from_elements %in, %h : tensor<2xf32>
    %c1 = arith.constant 1 : index
    %w = tensor.extract %t[%c1] : tensor<2xf32>
    linalg.yield %w : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @reshaped_init(%x: tensor<5x7xf32>, %y: tensor<7x3x5xf32>) -> tensor<7x5xf32> {
  %shape = arith.constant dense<[7, 5]> : tensor<2xi64>
  %v = tensor.reshape %x(%shape) : (tensor<5x7xf32>, tensor<2xi64>) -> tensor<7x5xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, k)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%y : tensor<7x3x5xf32>) outs(%v : tensor<7x5xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %o : f32
    linalg.yield %s : f32
  } -> tensor<7x5xf32>
  return %t : tensor<7x5xf32>
}
