// A collapse_shape of several non-unit extents read along parallel loops: heads folded
// into a matmul's rows ([H, S, D] viewed as [H*S, D], as torch's view(-1, D) then mm
// exports). The loop splits into one loop per extent and so does the result it writes:
// m is stored as [H, S, N], the same bytes as [H*S, N]. Its readers see it through the
// collapse and split in turn: the bias add along the same rows, a row sum, a transposed
// copy (split along its second loop), a column sum (a reduction loop split as before), and
// the expand_shape back to [H, S, N] that is returned. Compared with MLIR's execution.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref y: 90 elements match MLIR
// CHECK: ref r: 15 elements match MLIR
// CHECK: ref m: 90 elements match MLIR
// CHECK: ref t: 90 elements match MLIR
// CHECK: ref cs: 6 elements match MLIR
// CHECK: opencl y: 90 elements match MLIR
// CHECK: opencl cs: 6 elements match MLIR
// RUN: polyfuse check %s --tc | FileCheck --check-prefix=TC %s
// TC: def heads(float(3, 5, 4) q, float(4, 6) w, float(6) b) -> (float(3, 5, 6) y, float(3, 5) r, float(3, 5, 6) m, float(6, 3, 5) t, float(6) cs) {
// TC-NEXT: m(d0_0, d0_1, d1) +=! q(d0_0, d0_1, d2) * w(d2, d1) where d0_0 in 0:3, d0_1 in 0:5
// TC-NEXT: a(d0_0, d0_1, d1) = m(d0_0, d0_1, d1) + b(d1) where d0_0 in 0:3, d0_1 in 0:5
// TC-NEXT: r(d0_0, d0_1) +=! a(d0_0, d0_1, d1) where d0_0 in 0:3, d0_1 in 0:5
// TC-NEXT: t(d0, d1_0, d1_1) = m(d1_0, d1_1, d0) where d1_0 in 0:3, d1_1 in 0:5
// TC-NEXT: cs(d0) +=! m(d1_0, d1_1, d0) where d1_0 in 0:3, d1_1 in 0:5
// TC-NEXT: y(d0, d1, d2) = a(d0, d1, d2) where d0 in 0:3, d1 in 0:5, d2 in 0:6
// Each returned tensor stored split says so.
// RUN: polyfuse check %s 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE-DAG: note: output 'r' (line {{[0-9]+}}) is stored as 3x5, the same elements in the same order as its 15: a read through a view (collapse_shape, reshape, unpack) or a floordiv or mod of a loop split the parallel loop that writes it
// NOTE-DAG: note: output 'm' (line {{[0-9]+}}) is stored as 3x5x6, the same elements in the same order as its 15x6
// NOTE-DAG: note: output 't' (line {{[0-9]+}}) is stored as 6x3x5, the same elements in the same order as its 6x15
func.func @heads(%q: tensor<3x5x4xf32>, %w: tensor<4x6xf32>, %b: tensor<6xf32>) -> (tensor<3x5x6xf32>, tensor<15xf32>, tensor<15x6xf32>, tensor<6x15xf32>, tensor<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = tensor.collapse_shape %q [[0, 1], [2]] : tensor<3x5x4xf32> into tensor<15x4xf32>
  %e = tensor.empty() : tensor<15x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<15x6xf32>) -> tensor<15x6xf32>
  %m = linalg.matmul ins(%c, %w : tensor<15x4xf32>, tensor<4x6xf32>) outs(%z : tensor<15x6xf32>) -> tensor<15x6xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<15x6xf32>, tensor<6xf32>) outs(%e : tensor<15x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<15x6xf32>
  %re = tensor.empty() : tensor<15xf32>
  %rz = linalg.fill ins(%zero : f32) outs(%re : tensor<15xf32>) -> tensor<15xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<15x6xf32>) outs(%rz : tensor<15xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<15xf32>
  %te = tensor.empty() : tensor<6x15xf32>
  %t = linalg.transpose ins(%m : tensor<15x6xf32>) outs(%te : tensor<6x15xf32>) permutation = [1, 0]
  %ce = tensor.empty() : tensor<6xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<6xf32>) -> tensor<6xf32>
  %cs = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<15x6xf32>) outs(%cz : tensor<6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %y = tensor.expand_shape %a [[0, 1], [2]] output_shape [3, 5, 6] : tensor<15x6xf32> into tensor<3x5x6xf32>
  return %y, %r, %m, %t, %cs : tensor<3x5x6xf32>, tensor<15xf32>, tensor<15x6xf32>, tensor<6x15xf32>, tensor<6xf32>
}
