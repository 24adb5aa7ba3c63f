// A collapse_shape of several non-unit extents, read along a reduction loop: the loop
// runs as one loop per extent (row-major, the same order of accumulation), so every
// access stays affine. This is how torch-mlir merges attention heads (transpose, then
// collapse [S, H, Dh] to [S, D], then the output projection's matmul). Run on PoCL in
// exec/collapse.test.
// RUN: polyfuse check %s --tc | FileCheck %s
// CHECK: def merge(float(3, 5, 4) at, float(12, 6) wo, float(2, 3, 7) x) -> (float(5, 6) o, float(1) s) {
// The transpose is a copy, read through (docs/design.md): the matmul reads `at` itself.
// CHECK-NEXT:   o(d0, d1) +=! at(d2_0, d0, d2_1) * wo(4*d2_0 + d2_1, d1) where d2_0 in 0:3, d2_1 in 0:4
// CHECK-NEXT:   s(d0) +=! x(d1_0, d1_1, d1_2) where d0 in 0:1, d1_0 in 0:2, d1_1 in 0:3, d1_2 in 0:7
// --keep-copies keeps the transpose a statement of its own; the matmul's two loops are
// then one (polyir/CollapseLoops.h), the temporary stored as the collapse lays it out.
// RUN: polyfuse check %s --tc --keep-copies 2>&1 | FileCheck --check-prefix=KEEP %s
// KEEP: note: reduction loops collapsed, S1: d2_0, d2_1 as d2 (12 points)
// KEEP: t(d0, 4*d1 + d2) = at(d1, d0, d2)
// KEEP-NEXT: o(d0, d1) +=! t(d0, d2) * wo(d2, d1) where d2 in 0:12
// Along a parallel loop the result splits too (semantics/collapse_parallel.mlir). Two
// collapses that group one loop's extent differently (3x2 and 2x3) cannot both split it:
// a located error. A collapse read through a pad, which covers part of the padded
// dimension, is written in pieces, one per group of the collapse.
// RUN: expect-exit 2 polyfuse check %S/../Inputs/mlir/collapse_parallel.mlir 2>&1 | FileCheck --check-prefix=PAR %s
// PAR: polyfuse: error: {{.*}}collapse_parallel.mlir:5:8: loop d1 is taken apart by floordiv or mod (of a collapse_shape or the op's own subscripts) at {{[0-9]+}}, which does not divide {{[0-9]+}}
// RUN: %oracle %S/../Inputs/mlir/collapse_pad.mlir --backend ref --backend opencl | FileCheck --check-prefix=PAD %s
// PAD: ref r: 32 elements match MLIR
// PAD: opencl r: 32 elements match MLIR
// RUN: polyfuse check %S/../Inputs/mlir/collapse_pad.mlir --tc | FileCheck --check-prefix=PAD-TC %s
// PAD-TC: p(d0, d1) = x(d0, 2, d1 - 5) where d0 in 0:4, d1 in 5:7
func.func @merge(%at: tensor<3x5x4xf32>, %wo: tensor<12x6xf32>, %x: tensor<2x3x7xf32>) -> (tensor<5x6xf32>, tensor<1xf32>) {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<5x3x4xf32>
  %t = linalg.transpose ins(%at : tensor<3x5x4xf32>) outs(%te : tensor<5x3x4xf32>) permutation = [1, 0, 2]
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<5x3x4xf32> into tensor<5x12xf32>
  %e = tensor.empty() : tensor<5x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5x6xf32>) -> tensor<5x6xf32>
  %o = linalg.matmul ins(%c, %wo : tensor<5x12xf32>, tensor<12x6xf32>) outs(%z : tensor<5x6xf32>) -> tensor<5x6xf32>
  %xc = tensor.collapse_shape %x [[0, 1, 2]] : tensor<2x3x7xf32> into tensor<42xf32>
  %se = tensor.empty() : tensor<1xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<1xf32>) -> tensor<1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<42xf32>) outs(%sz : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %o, %s : tensor<5x6xf32>, tensor<1xf32>
}
