// Integer bitwise ops in bodies (TOSA's bitwise, shift and clz ops lower to them; so do
// quantized rescales): andi, ori, xori as the N-bit values' bits, shli wrapping at N,
// shrsi arithmetic, shrui on the N bits' unsigned value, ctlz of the N-bit value.
// Compared with MLIR's execution (integers drawn in [0, 100), i8 ones in [-100, 100)).
// RUN: %oracle %s --entry bits --backend ref --backend opencl | FileCheck --check-prefix=BITS %s
// BITS: ref r: 7 elements match MLIR
// BITS: opencl r: 7 elements match MLIR
// RUN: %oracle %s --entry narrow --backend ref --backend opencl | FileCheck --check-prefix=NARROW %s
// NARROW: ref r: 7 elements match MLIR
// NARROW: opencl r: 7 elements match MLIR
// RUN: polyfuse check %s --entry bits --tc | FileCheck --check-prefix=TC %s
// TC: r(d0) = wrap(bitxor(bitor(bitand(a(d0), b(d0)), wrap(shl(a(d0), 3), 32)), ashr(b(d0), 2)) + clz(a(d0), 32), 32)
#id = affine_map<(d0) -> (d0)>
func.func @bits(%a: tensor<7xi32>, %b: tensor<7xi32>) -> tensor<7xi32> {
  %c3 = arith.constant 3 : i32
  %c2 = arith.constant 2 : i32
  %e = tensor.empty() : tensor<7xi32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %b : tensor<7xi32>, tensor<7xi32>) outs(%e : tensor<7xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %and = arith.andi %x, %y : i32
    %shl = arith.shli %x, %c3 : i32
    %or = arith.ori %and, %shl : i32
    %sr = arith.shrsi %y, %c2 : i32
    %xor = arith.xori %or, %sr : i32
    %lz = math.ctlz %x : i32
    %s = arith.addi %xor, %lz : i32
    linalg.yield %s : i32
  } -> tensor<7xi32>
  return %r : tensor<7xi32>
}
func.func @narrow(%a: tensor<7xi8>) -> tensor<7xi8> {
  %c5 = arith.constant 5 : i8
  %c3 = arith.constant 3 : i8
  %e = tensor.empty() : tensor<7xi8>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<7xi8>) outs(%e : tensor<7xi8>) {
  ^bb0(%x: i8, %o: i8):
    %shl = arith.shli %x, %c5 : i8
    %shr = arith.shrui %x, %c3 : i8
    %lz = math.ctlz %x : i8
    %s = arith.addi %shl, %shr : i8
    %t = arith.xori %s, %lz : i8
    linalg.yield %t : i8
  } -> tensor<7xi8>
  return %r : tensor<7xi8>
}
