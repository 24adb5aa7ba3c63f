// Casts inside generic bodies keep MLIR's meaning (they were dropped: x - extf(truncf(x))
// read as x - x). Each function runs under MLIR (mlir-opt-19 + mlir-cpu-runner-19) and
// under polyfuse's interpreter and generated OpenCL, element by element.
// RUN: %oracle %s --entry roundtrip --backend ref --backend opencl --value 'x=[0.1, 0.3333333333333333, -2.5, 1e300]' | FileCheck --check-prefix=RT %s
// RT: ref r: 4 elements match MLIR
// RT: opencl r: 4 elements match MLIR
// truncf to f16 overflows at 65520 and rounds to even; bf16 keeps 8 bits.
// RUN: %oracle %s --entry half --backend ref --backend opencl --value 'x=[0.1, 70000, 65519, -1e-6, 3.0e38, 65520, 1e-7]' | FileCheck --check-prefix=HALF %s
// HALF: ref r: 7 elements match MLIR
// HALF: opencl r: 7 elements match MLIR
// Integer casts wrap: index_cast of 3e9 to i32, trunci to i8 (128 is -128), uitofp of an
// i32 -3, an unsigned compare of i8s.
// RUN: %oracle %s --entry ints --backend ref --backend opencl --value 'x=[1, 2, 3, 4, 5, 6]' | FileCheck --check-prefix=INT %s
// INT: ref r: 6 elements match MLIR
// INT: opencl r: 6 elements match MLIR
// extui zero-extends (an i8 -3 is 253 as i32), extsi sign-extends (-3), on an i8 input.
// RUN: %oracle %s --entry widen --backend ref --backend opencl --value 'x=[-3, 5, -128, 127, 0]' | FileCheck --check-prefix=WIDEN %s
// WIDEN: ref r: 5 elements match MLIR
// WIDEN: opencl r: 5 elements match MLIR
// RUN: polyfuse check %s --entry ints --tc | FileCheck --check-prefix=TC %s
// TC: r(d0) = zext(wrap(d0 + 125, 8), 8) < zext(wrap(-3, 8), 8) ? wrap(d0 + 125, 8) + round_f32(wrap(d0 * 3000000000, 32)) + round_f32(zext(-3, 32)) : x(d0)
// Integer division, remainder, floor and ceiling division of signed values, fpowi.
// RUN: %oracle %s --entry divs --backend ref --backend opencl --value 'x=[7, -7, 9, -9, 0, 5]' | FileCheck --check-prefix=DIV %s
// DIV: ref r: 6 elements match MLIR
// DIV: opencl r: 6 elements match MLIR
// math.fma rounds once: fma(a, b, -(a * b)) is the rounding error of the product (it was
// read as a * b + c, which gives 0).
// RUN: %oracle %s --entry fused --backend ref --backend opencl --value 'x=[0.1, 1.0000001, 3.3333333, -7.77]' --value 'y=[0.3, 0.9999999, 3.0000003, 1.1]' | FileCheck --check-prefix=FMA %s
// FMA: ref r: 4 elements match MLIR
// FMA: opencl r: 4 elements match MLIR
#id = affine_map<(d0) -> (d0)>
func.func @fused(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %n = arith.negf %p : f32
    %f = math.fma %a, %b, %n : f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @roundtrip(%x: tensor<4xf64>) -> tensor<4xf64> {
  %e = tensor.empty() : tensor<4xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf64>) outs(%e : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %t = arith.truncf %a : f64 to f32
    %b = arith.extf %t : f32 to f64
    %d = arith.subf %a, %b : f64
    linalg.yield %d : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}
func.func @half(%x: tensor<7xf32>) -> tensor<7xf32> {
  %e = tensor.empty() : tensor<7xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<7xf32>) outs(%e : tensor<7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.truncf %a : f32 to f16
    %h = arith.truncf %a : f32 to bf16
    %b = arith.extf %t : f16 to f32
    %c = arith.extf %h : bf16 to f32
    %s = arith.addf %b, %c : f32
    linalg.yield %s : f32
  } -> tensor<7xf32>
  return %r : tensor<7xf32>
}
func.func @ints(%x: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %c = arith.constant 3000000000 : index
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %k = arith.muli %i, %c : index
    %t = arith.index_cast %k : index to i32
    %n = arith.constant 125 : index
    %j = arith.addi %i, %n : index
    %b = arith.index_cast %j : index to i8
    %m = arith.constant -3 : i32
    %u = arith.uitofp %m : i32 to f32
    %sb = arith.sitofp %b : i8 to f32
    %st = arith.sitofp %t : i32 to f32
    %s1 = arith.addf %sb, %st : f32
    %s2 = arith.addf %s1, %u : f32
    %m8 = arith.trunci %m : i32 to i8
    %lt = arith.cmpi ult, %b, %m8 : i8
    %w = arith.select %lt, %s2, %a : f32
    linalg.yield %w : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @divs(%x: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = arith.fptosi %a : f32 to i32
    %c4 = arith.constant 4 : i32
    %q = arith.divsi %i, %c4 : i32
    %m = arith.remsi %i, %c4 : i32
    %f = arith.floordivsi %i, %c4 : i32
    %g = arith.ceildivsi %i, %c4 : i32
    %s1 = arith.addi %q, %m : i32
    %s2 = arith.muli %f, %c4 : i32
    %s3 = arith.addi %s1, %s2 : i32
    %s4 = arith.subi %s3, %g : i32
    %v = arith.sitofp %s4 : i32 to f32
    %p = math.fpowi %a, %c4 : f32, i32
    %w = arith.addf %v, %p : f32
    linalg.yield %w : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @widen(%x: tensor<5xi8>) -> tensor<5xf32> {
  %e = tensor.empty() : tensor<5xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<5xi8>) outs(%e : tensor<5xf32>) {
  ^bb0(%a: i8, %o: f32):
    %u = arith.extui %a : i8 to i32
    %s = arith.extsi %a : i8 to i32
    %k = arith.constant 1000 : i32
    %us = arith.muli %u, %k : i32
    %t = arith.addi %us, %s : i32
    %f = arith.sitofp %t : i32 to f32
    linalg.yield %f : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}
