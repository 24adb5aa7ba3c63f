// ub.poison (newer MLIR's padding value where any will do) is zero, one value it may
// take: results the same on every run. MLIR's execution gives no value to compare with.
// RUN: polyfuse check %s --entry pad --tc 2>/dev/null | FileCheck --check-prefix=PAD %s
// RUN: polyfuse check %s --entry pad 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// PAD: r(d0, d1) = 0.0 where d0 in 0:6, d1 in 0:10
// PAD-NEXT: r(d0, d1) = x(d1 - 3, d0) where d0 in 0:6, d1 in 3:7
// NOTE: note: 1 ub.poison value(s) (left undefined) read as zero, a value each may take
// RUN: polyfuse check %s --entry in_body --tc 2>/dev/null | FileCheck --check-prefix=BODY %s
// RUN: polyfuse check %s --entry in_body 2>&1 >/dev/null | FileCheck --check-prefix=BODY_NOTE %s
// BODY: r(d0) = x(d0) > 0.0 ? x(d0) : 0.0
// BODY_NOTE: note: 2 ub.poison value(s)
// A poison tensor of a dynamic shape has no constant: refused at the op.
// RUN: not polyfuse check %s --entry dynamic 2>&1 | FileCheck --check-prefix=DYN %s
// DYN: poison.mlir:[[@LINE+25]]:8: unsupported operation 'ub.poison'
func.func @pad(%x: tensor<4x6xf32>) -> tensor<6x10xf32> {
  %p = ub.poison : f32
  %t = tensor.empty() : tensor<6x4xf32>
  %tr = linalg.transpose ins(%x : tensor<4x6xf32>) outs(%t : tensor<6x4xf32>) permutation = [1, 0]
  %r = tensor.pad %tr low[0, 3] high[0, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %p : f32
  } : tensor<6x4xf32> to tensor<6x10xf32>
  return %r : tensor<6x10xf32>
}
func.func @in_body(%x: tensor<5xf32>) -> tensor<5xf32> {
  %e = ub.poison : tensor<5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %p = ub.poison : f32
    %c = arith.cmpf ogt, %a, %z : f32
    %s = arith.select %c, %a, %p : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %p = ub.poison : tensor<?xf32>
  %r = linalg.add ins(%x, %p : tensor<?xf32>, tensor<?xf32>) outs(%x : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
