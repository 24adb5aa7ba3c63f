// An integer arg-reduction: the maximum by a signed cmpi + select, from i64's least value
// (a fill of -2^63, whose negation overflows), and its first position. Compared with
// MLIR's execution.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref r_0: 3 elements match MLIR
// CHECK: ref r_1: 3 elements match MLIR
// CHECK: opencl r_0: 3 elements match MLIR
// CHECK: opencl r_1: 3 elements match MLIR
// RUN: polyfuse check %s --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// TC: r_0(d0) = -9223372036854775808 where d0 in 0:3
// TC-NEXT: r_0(d0) fmax= x(d0, d1)
// TC-NEXT: r_1(d0) min=! x(d0, d1) == r_0(d0) ? d1 : inf
func.func @f(%x: tensor<3x9xi64>) -> (tensor<3xi64>, tensor<3xi32>) {
  %lowest = arith.constant -9223372036854775808 : i64
  %c0 = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<3xi64>
  %ei = tensor.empty() : tensor<3xi32>
  %v0 = linalg.fill ins(%lowest : i64) outs(%ev : tensor<3xi64>) -> tensor<3xi64>
  %i0 = linalg.fill ins(%c0 : i32) outs(%ei : tensor<3xi32>) -> tensor<3xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x9xi64>) outs(%v0, %i0 : tensor<3xi64>, tensor<3xi32>) {
  ^bb0(%a: i64, %m: i64, %k: i32):
    %c = arith.cmpi sgt, %a, %m : i64
    %v = arith.select %c, %a, %m : i64
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %n = arith.select %c, %ji, %k : i32
    linalg.yield %v, %n : i64, i32
  } -> (tensor<3xi64>, tensor<3xi32>)
  return %r#0, %r#1 : tensor<3xi64>, tensor<3xi32>
}
