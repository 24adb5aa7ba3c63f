// A reduction's position beside its value (torch-mlir's max.dim and argmax: a second
// result select(x > acc, index, idx)) becomes a reduction of its own after the value:
// the first position of the maximum for a strict compare, the last for a non-strict one
// (which way the compare is written, and which branch keeps the accumulator, do not
// matter). Ties are given (--value) so that first and last differ. When the value is
// unused (argmax), it is still computed: its position reads it. Compared with MLIR's
// execution.
// RUN: %oracle %s --entry maxdim --backend ref --backend opencl --value 'x=[1, 3, 3, 0, 2, 3, 1, -1, -1, -2, -1, -3, 0, 0, 5, 4, 5, 5, 1, 2, 5, 7, 6, 5, 7, 7, 7, 7]' | FileCheck %s --check-prefix=MAXDIM
// MAXDIM: ref v: 4 elements match MLIR
// MAXDIM: ref i: 4 elements match MLIR
// MAXDIM: opencl i: 4 elements match MLIR
// RUN: %oracle %s --entry lastmin --backend ref --backend opencl --value 'x=[1, 3, 3, 0, 2, 0, 1, -1, -1, -2, -1, -3, 0, -3, 5, 4, 5, 5, 1, 2, 5, 7, 6, 5, 7, 7, 7, 7]' | FileCheck %s --check-prefix=LASTMIN
// LASTMIN: ref i: 4 elements match MLIR
// LASTMIN: opencl i: 4 elements match MLIR
// RUN: polyfuse check %s --entry maxdim --tc | FileCheck %s --check-prefix=TC
// TC: v(d0) max=! x(d0, d1)
// TC-NEXT: i(d0) min=! x(d0, d1) == v(d0) ? d1 : inf
// RUN: polyfuse check %s --entry lastmin --tc | FileCheck %s --check-prefix=TCMIN
// TCMIN: i(d0) max=! x(d0, d1) == {{.*}}(d0) ? d1 : -inf
// RUN: polyfuse check %s --entry maxdim 2>&1 >/dev/null | FileCheck %s --check-prefix=NOTE
// NOTE: note: result 1 of the op at line {{[0-9]+}} is the first position of result 0's maximum: a reduction of its own after it
// A position recorded against a sum is no arg-reduction: a located error.
// RUN: expect-exit 2 polyfuse check %s --entry notmax 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: argmax.mlir:75:12: this select records a position, but result 0 is not the max of the value it compares
func.func @maxdim(%x: tensor<4x7xf32>) -> (tensor<4xf32>, tensor<4xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %e0 = tensor.empty() : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xi64>
  %fv = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %fi = linalg.fill ins(%c0 : i64) outs(%e1 : tensor<4xi64>) -> tensor<4xi64>
  %v, %i = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x7xf32>) outs(%fv, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %max = arith.maximumf %in, %acc : f32
    %cmp = arith.cmpf ogt, %in, %acc : f32
    %sel = arith.select %cmp, %j64, %idx : i64
    linalg.yield %max, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %v, %i : tensor<4xf32>, tensor<4xi64>
}
// The last position of the minimum: "acc < x" keeps the accumulator, so it moves when x <= acc.
func.func @lastmin(%x: tensor<4x7xf32>) -> tensor<4xi64> {
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i64
  %e0 = tensor.empty() : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xi64>
  %fv = linalg.fill ins(%inf : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %fi = linalg.fill ins(%c0 : i64) outs(%e1 : tensor<4xi64>) -> tensor<4xi64>
  %v, %i = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x7xf32>) outs(%fv, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %min = arith.minimumf %in, %acc : f32
    %cmp = arith.cmpf olt, %acc, %in : f32
    %sel = arith.select %cmp, %idx, %j64 : i64
    linalg.yield %min, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %i : tensor<4xi64>
}
func.func @notmax(%x: tensor<4x7xf32>) -> (tensor<4xf32>, tensor<4xi64>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i64
  %e0 = tensor.empty() : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xi64>
  %fv = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %fi = linalg.fill ins(%c0 : i64) outs(%e1 : tensor<4xi64>) -> tensor<4xi64>
  %v, %i = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x7xf32>) outs(%fv, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %sum = arith.addf %in, %acc : f32
    %cmp = arith.cmpf ogt, %in, %acc : f32
    %sel = arith.select %cmp, %j64, %idx : i64
    linalg.yield %sum, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %v, %i : tensor<4xf32>, tensor<4xi64>
}
