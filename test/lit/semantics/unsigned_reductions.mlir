// Max and min in the unsigned order (maxui, minui, an unsigned cmpi with select, and the
// named unsigned poolings that generalize to them) of integers held as their signed
// values: the negative ones are the larger, so each sign reduces apart in the signed order
// and the side that has an element gives the extreme (src/mlir/ConvertGeneric.cpp). Inputs
// of both signs, small enough that a wrong element is not within the oracle's tolerance
// of the largest; each against MLIR's execution.
// RUN: %oracle %s --entry pool_max --backend ref --backend opencl --value 'x=[-1, 5, -7, 7, 2, -3, 0, 9, -9, 1, 2, 3, -4, 4, 6]' | FileCheck --check-prefix=POOLMAX %s
// POOLMAX: ref r: 13 elements match MLIR
// POOLMAX: opencl r: 13 elements match MLIR
// RUN: %oracle %s --entry pool_min --backend ref --backend opencl --value 'x=[-1, 5, -7, 7, 2, -3, 0, 9, -9, 1, 2, 3, -4, 4, 6]' --value 'i=[-1, 3, -2, 0, -1, 1, 8, -6, -1, -1, 2, -3, 5]' | FileCheck --check-prefix=POOLMIN %s
// POOLMIN: ref r: 13 elements match MLIR
// POOLMIN: opencl r: 13 elements match MLIR
// RUN: %oracle %s --entry rows_select --backend ref --backend opencl --int-high 30000 | FileCheck --check-prefix=SELECT %s
// SELECT: ref r: 7 elements match MLIR
// SELECT: opencl r: 7 elements match MLIR
// RUN: %oracle %s --entry rows_i8 --backend ref --backend opencl --int-high 128 | FileCheck --check-prefix=I8 %s
// I8: ref r: 7 elements match MLIR
// I8: opencl r: 7 elements match MLIR
// RUN: %oracle %s --entry rows_i64 --backend ref --backend opencl --value 'x=[35,10,14,31,6,22,26,-22,-36,-16,-18,29,33,-40,-1,25,-30,23,-31,-3,25,-16,-13,-18,17,-20,39,-5,-2,0,6,4,0,39,24,23,16,9,-13,39,-3,-23,27,-28,28,9,-31,-37,-5,-38,-29,1,37,-3,24,33,25,10,-5,1,-19,-1,-10,-21,39,-40,-33,-25,37,15,30,-24,17,-11,-1,-40,9,26,13,-28,2,-19,37,30,-26,0,35,27,16,11,-37]' | FileCheck --check-prefix=I64 %s
// I64: ref r: 7 elements match MLIR
// I64: opencl r: 7 elements match MLIR
// The statements: each sign's max, then the negatives' where there is one.
// RUN: polyfuse check %s --entry pool_max --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// TC: r_negative(d0, d1, d2) max= x(d0, d1 + d3, d2) < 0 ? x(d0, d1 + d3, d2) : -inf
// TC: r_nonnegative(d0, d1, d2) max= x(d0, d1 + d3, d2) < 0 ? -inf : x(d0, d1 + d3, d2)
// TC: r(d0, d1, d2) = r_negative(d0, d1, d2) != -inf ? r_negative(d0, d1, d2) : r_nonnegative(d0, d1, d2)
// The first position of an unsigned max (its compare, ugt, unsigned too), and a position
// recorded in the signed order beside an unsigned max, refused:
// RUN: %oracle %s --entry argmax_unsigned --backend ref --backend opencl --value 'x=[3, -1, 5, -1, 2, 7, 0, 1, 2, 3, 4, 5, -7, -2, -7, 0, 1, -3]' | FileCheck --check-prefix=ARG %s
// ARG: ref r_1: 3 elements match MLIR
// ARG: opencl r_1: 3 elements match MLIR
// RUN: not polyfuse check %s --entry arg_mixed 2>&1 | FileCheck --check-prefix=MIXED %s
// MIXED: error: {{.*}}unsigned_reductions.mlir:[[@LINE+64]]:{{[0-9]+}}: this select records a position in the signed order, but result 0 reduces in the unsigned order
func.func @pool_max(%x: tensor<1x15x1xi32>, %w: tensor<3xi32>) -> tensor<1x13x1xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x13x1xi32>
  %i = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x13x1xi32>) -> tensor<1x13x1xi32>
  %r = linalg.pooling_nwc_max_unsigned {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<1x15x1xi32>, tensor<3xi32>) outs(%i : tensor<1x13x1xi32>) -> tensor<1x13x1xi32>
  return %r : tensor<1x13x1xi32>
}
func.func @pool_min(%x: tensor<1x15x1xi32>, %w: tensor<3xi32>, %i: tensor<1x13x1xi32>) -> tensor<1x13x1xi32> {
  %r = linalg.pooling_nwc_min_unsigned {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<1x15x1xi32>, tensor<3xi32>) outs(%i : tensor<1x13x1xi32>) -> tensor<1x13x1xi32>
  return %r : tensor<1x13x1xi32>
}
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @rows_select(%x: tensor<7x13xi16>) -> tensor<7xi16> {
  %c = arith.constant -1 : i16
  %e = tensor.empty() : tensor<7xi16>
  %i = linalg.fill ins(%c : i16) outs(%e : tensor<7xi16>) -> tensor<7xi16>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<7x13xi16>) outs(%i : tensor<7xi16>) {
  ^bb0(%a: i16, %acc: i16):
    %lt = arith.cmpi ult, %a, %acc : i16
    %s = arith.select %lt, %a, %acc : i16
    linalg.yield %s : i16
  } -> tensor<7xi16>
  return %r : tensor<7xi16>
}
func.func @rows_i8(%x: tensor<7x13xi8>) -> tensor<7xi8> {
  %c = arith.constant 0 : i8
  %e = tensor.empty() : tensor<7xi8>
  %i = linalg.fill ins(%c : i8) outs(%e : tensor<7xi8>) -> tensor<7xi8>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<7x13xi8>) outs(%i : tensor<7xi8>) {
  ^bb0(%a: i8, %acc: i8):
    %s = arith.maxui %a, %acc : i8
    linalg.yield %s : i8
  } -> tensor<7xi8>
  return %r : tensor<7xi8>
}
func.func @rows_i64(%x: tensor<7x13xi64>) -> tensor<7xi64> {
  %c = arith.constant 0 : i64
  %e = tensor.empty() : tensor<7xi64>
  %i = linalg.fill ins(%c : i64) outs(%e : tensor<7xi64>) -> tensor<7xi64>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<7x13xi64>) outs(%i : tensor<7xi64>) {
  ^bb0(%a: i64, %acc: i64):
    %s = arith.maxui %a, %acc : i64
    linalg.yield %s : i64
  } -> tensor<7xi64>
  return %r : tensor<7xi64>
}
func.func @arg_mixed(%x: tensor<2x5xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2xi32>
  %i = linalg.fill ins(%c0 : i32) outs(%e : tensor<2xi32>) -> tensor<2xi32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x5xi32>) outs(%i, %i : tensor<2xi32>, tensor<2xi32>) {
  ^bb0(%a: i32, %m: i32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %mx = arith.maxui %a, %m : i32
    %gt = arith.cmpi sgt, %a, %m : i32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %mx, %ni : i32, i32
  } -> (tensor<2xi32>, tensor<2xi32>)
  return %r#0, %r#1 : tensor<2xi32>, tensor<2xi32>
}
func.func @argmax_unsigned(%x: tensor<3x6xi16>) -> (tensor<3xi16>, tensor<3xi32>) {
  %c0 = arith.constant 0 : i16
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3xi16>
  %i = linalg.fill ins(%c0 : i16) outs(%e : tensor<3xi16>) -> tensor<3xi16>
  %ei = tensor.empty() : tensor<3xi32>
  %ii = linalg.fill ins(%z : i32) outs(%ei : tensor<3xi32>) -> tensor<3xi32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x6xi16>) outs(%i, %ii : tensor<3xi16>, tensor<3xi32>) {
  ^bb0(%a: i16, %m: i16, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpi ugt, %a, %m : i16
    %mx = arith.select %gt, %a, %m : i16
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %mx, %ni : i16, i32
  } -> (tensor<3xi16>, tensor<3xi32>)
  return %r#0, %r#1 : tensor<3xi16>, tensor<3xi32>
}
