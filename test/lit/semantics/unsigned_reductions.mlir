// Max and min in the unsigned order (maxui, minui, an unsigned cmpi with select, and the
// named unsigned poolings that generalize to them) of integers held as their signed
// values: the reduction runs over the values zero-extended from their width and is wrapped
// back once (src/mlir/ConvertGeneric.cpp). Inputs of both signs, where the two orders
// differ; each against MLIR's execution.
// RUN: %oracle %s --entry pool_max --backend ref --backend opencl --value 'x=[-1, 5, -2147483648, 7, 2147483647, -3, 0, 9, -9, 1, 2, 3, -4, 4, 6]' | FileCheck --check-prefix=POOLMAX %s
// POOLMAX: ref r: 13 elements match MLIR
// POOLMAX: opencl r: 13 elements match MLIR
// RUN: %oracle %s --entry pool_min --backend ref --backend opencl --value 'x=[-1, 5, -2147483648, 7, 2147483647, -3, 0, 9, -9, 1, 2, 3, -4, 4, 6]' --value 'i=[-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]' | FileCheck --check-prefix=POOLMIN %s
// POOLMIN: ref r: 13 elements match MLIR
// POOLMIN: opencl r: 13 elements match MLIR
// RUN: %oracle %s --entry rows_select --backend ref --backend opencl --int-high 30000 | FileCheck --check-prefix=SELECT %s
// SELECT: ref r: 7 elements match MLIR
// SELECT: opencl r: 7 elements match MLIR
// RUN: %oracle %s --entry rows_i8 --backend ref --backend opencl --int-high 128 | FileCheck --check-prefix=I8 %s
// I8: ref r: 7 elements match MLIR
// I8: opencl r: 7 elements match MLIR
// The statements: the zero-extended reduction, then its value wrapped back to 32 bits.
// RUN: polyfuse check %s --entry pool_max --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// TC: r_unwrapped(d0, d1, d2) max= zext(x(d0, d1 + d3, d2), 32)
// TC: r(d0, d1, d2) = wrap(r_unwrapped(d0, d1, d2), 32)
// 64-bit integers zero-extended pass what the computing type holds exactly: refused.
// RUN: not polyfuse check %s --entry rows_i64 2>&1 | FileCheck --check-prefix=I64 %s
// I64: error: {{.*}}unsigned_reductions.mlir:[[@LINE+48]]:10: this reduction orders 64-bit integers as unsigned
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
