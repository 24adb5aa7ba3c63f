// A classifier head as torch-mlir writes one (AlexNet, VGG): a pooled activation
// flattened by collapse_shape, then a matmul against the transposed weight. Reading the
// collapsed tensor splits the matmul's reduction into one loop per extent (3x5x7);
// every access then uses those loops only as their row-major index once the pooled
// temporary is stored flat, so they run as one loop of 105 points (polyir/CollapseLoops.h):
// the reduction's threads share 105 points, not the innermost loop's 7.
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s
// CHECK: note: reduction loops collapsed, S1: d2_0, d2_1, d2_2 as d2 (105 points): every access reads them as one row-major index
// CHECK: def head(float(3, 5, 7) x, float(9, 105) w) -> (float(1, 9) y) {
// CHECK-NEXT:   r(35*d0 + 7*d1 + d2) = maximum(x(d0, d1, d2), 0.0)
// CHECK-NEXT:   y(d0, d1) +=! r(d2) * w(d1, d2) where d0 in 0:1, d2 in 0:105
//
// The plan's threads run along the collapsed loop: a block reduces all 105 points.
// RUN: polyfuse fuse %s --json 2>/dev/null | FileCheck --check-prefix=PLAN %s
// PLAN: "id": "K1",
// PLAN-NEXT: "statements": [
// PLAN-NEXT: "S1"
// PLAN: "thread_dims": [
// PLAN-NEXT: "d2"
// PLAN: "modes": [
// PLAN-NEXT: "block-reduce"
//
// The same bits as MLIR's own execution, on the interpreter and on PoCL, for every
// strategy's plan (the oracle runs the default; nofuse keeps each statement apart).
// RUN: %oracle %s --backend ref --backend opencl | FileCheck --check-prefix=ORACLE %s
// ORACLE: ref y: 9 elements match MLIR
// ORACLE: opencl y: 9 elements match MLIR
// RUN: polyfuse exec %s --backend opencl --strategy nofuse,ilp --repeat 1 | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
// EXEC: verified: yes
//
// An input read along such a nest stays a nest: its shape is the program's interface.
// RUN: polyfuse check %s --entry sum_input --tc 2>&1 | FileCheck --check-prefix=INPUT %s
// INPUT-NOT: collapsed
// INPUT: s(d0) +=! x(d1_0, d1_1) where d0 in 0:1, d1_0 in 0:3, d1_1 in 0:5
//
// A loop whose index is a value of the reduction stays apart: the rows' weights differ.
// RUN: polyfuse check %s --entry weighted --tc 2>&1 | FileCheck --check-prefix=INDEX %s
// INDEX-NOT: collapsed
// INDEX: s(d0) +=! t(d1, d2) * d2 where d0 in 0:1
func.func @head(%x: tensor<3x5x7xf32>, %w: tensor<9x105xf32>) -> tensor<1x9xf32> {
  %zero = arith.constant 0.0 : f32
  %re = tensor.empty() : tensor<3x5x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<3x5x7xf32>) outs(%re : tensor<3x5x7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<3x5x7xf32>
  %c = tensor.collapse_shape %r [[0, 1, 2]] : tensor<3x5x7xf32> into tensor<105xf32>
  %c2 = tensor.expand_shape %c [[0, 1]] output_shape [1, 105] : tensor<105xf32> into tensor<1x105xf32>
  %te = tensor.empty() : tensor<105x9xf32>
  %wt = linalg.transpose ins(%w : tensor<9x105xf32>) outs(%te : tensor<105x9xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<1x9xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9xf32>) -> tensor<1x9xf32>
  %y = linalg.matmul ins(%c2, %wt : tensor<1x105xf32>, tensor<105x9xf32>) outs(%z : tensor<1x9xf32>) -> tensor<1x9xf32>
  return %y : tensor<1x9xf32>
}

func.func @sum_input(%x: tensor<3x5xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %xc = tensor.collapse_shape %x [[0, 1]] : tensor<3x5xf32> into tensor<15xf32>
  %se = tensor.empty() : tensor<1xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<1xf32>) -> tensor<1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%xc : tensor<15xf32>) outs(%sz : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %s : tensor<1xf32>
}

func.func @weighted(%x: tensor<3x5xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<3x5xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x5xf32>) outs(%te : tensor<3x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<3x5xf32>
  %se = tensor.empty() : tensor<1xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<1xf32>) -> tensor<1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%t : tensor<3x5xf32>) outs(%sz : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %i = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %p = arith.mulf %a, %f : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %s : tensor<1xf32>
}
