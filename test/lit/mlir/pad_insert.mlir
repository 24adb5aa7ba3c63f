// tensor.pad and tensor.insert_slice become tensors of their own, each written by two
// statements: the padding value (or the destination, or zeros over a tensor.empty) over
// the whole, then the source over its window. The fusion search then sees ordinary
// writes: here the pad joins the blur that reads it and the concatenation is one kernel,
// both at the lower bound of bytes. Run on PoCL in exec/pad_insert.test.
// RUN: polyfuse check %s --tc 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// CHECK: def blur(float(6, 10) X, float(Y_0, 4) Y, float(Y_0, 10) W) -> (float(6, 10) B, float(Y_0, 14) C) {
// CHECK-NEXT:   P(d0, d1) = 0.0 where d0 in 0:6, d1 in 0:12
// CHECK-NEXT:   P(d0, d1) = X(d0, d1 - 1) where d0 in 0:6, d1 in 1:11
// CHECK-NEXT:   B(d0, d1) = X(d0, d1) + P(d0, d1 + 1) + P(d0, d1 + 2)
// CHECK-NEXT:   c1(d0, d1) = 0.0 where d0 in 0:Y_0, d1 in 0:14
// CHECK-NEXT:   c1(d0, d1) = Y(d0, d1) where d0 in 0:Y_0, d1 in 0:4
// CHECK-NEXT:   Z(d0, d1) = exp(W(d0, d1))
// CHECK-NEXT:   C(d0, d1) = c1(d0, d1) where d0 in 0:Y_0, d1 in 0:14
// CHECK-NEXT:   C(d0, d1) = Z(d0, d1 - 4) where d0 in 0:Y_0, d1 in 4:14
// NOTE: note: the tensor.empty that tensor.insert_slice at line {{[0-9]+}} writes into starts as zeros
// RUN: polyfuse fuse %s --size Y_0=7 | FileCheck --check-prefix=PLAN %s
// PLAN: K0 S0 S1 S2 {{.*}}
// PLAN: K1 S3 S4 S5 S6 S7 {{.*}}
// PLAN: total: 2 kernel(s), dram_bytes 1264 (lower bound 1264, 1.00x)
#m1 = affine_map<(d0, d1) -> (d0, d1)>
#m2 = affine_map<(d0, d1) -> (d0, d1 + 1)>
#m3 = affine_map<(d0, d1) -> (d0, d1 + 2)>
func.func @blur(%X: tensor<6x10xf32>, %Y: tensor<?x4xf32>, %W: tensor<?x10xf32>) -> (tensor<6x10xf32>, tensor<?x14xf32>) {
  %zero = arith.constant 0.0 : f32
  %P = tensor.pad %X low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<6x10xf32> to tensor<6x12xf32>
  %o = tensor.empty() : tensor<6x10xf32>
  %B = linalg.generic {indexing_maps = [#m1, #m2, #m3, #m1], iterator_types = ["parallel", "parallel"]}
      ins(%X, %P, %P : tensor<6x10xf32>, tensor<6x12xf32>, tensor<6x12xf32>) outs(%o : tensor<6x10xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %c : f32
    linalg.yield %t : f32
  } -> tensor<6x10xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %Y, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x14xf32>
  %c1 = tensor.insert_slice %Y into %e[0, 0] [%n, 4] [1, 1] : tensor<?x4xf32> into tensor<?x14xf32>
  %e2 = tensor.empty(%n) : tensor<?x10xf32>
  %Z = linalg.generic {indexing_maps = [#m1, #m1], iterator_types = ["parallel", "parallel"]}
      ins(%W : tensor<?x10xf32>) outs(%e2 : tensor<?x10xf32>) {
  ^bb0(%a: f32, %out: f32):
    %t = math.exp %a : f32
    linalg.yield %t : f32
  } -> tensor<?x10xf32>
  %C = tensor.insert_slice %Z into %c1[0, 4] [%n, 10] [1, 1] : tensor<?x10xf32> into tensor<?x14xf32>
  return %B, %C : tensor<6x10xf32>, tensor<?x14xf32>
}
