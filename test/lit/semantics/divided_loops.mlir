// Subscripts that take a loop apart with floor division and remainder by a constant:
// torch-mlir's nearest upsample (arith.floordivsi of linalg.index in a tensor.extract),
// tpp-mlir's VNNI weights (d2 floordiv 2 and d2 mod 2 in the op's own map), and an index
// unflattened with divui and remui. Each loop is run as its parts (d2 -> d2_0 in 0:3,
// d2_1 in 0:2, d2 = 2*d2_0 + d2_1), so every access stays affine; a result written along
// a split loop is stored as its parts, the same elements in the same order.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v2: 60 elements match MLIR
// CHECK: ref v5: 20 elements match MLIR
// CHECK: ref v7: 12 elements match MLIR
// CHECK: opencl v2: 60 elements match MLIR
// CHECK: opencl v5: 20 elements match MLIR
// CHECK: opencl v7: 12 elements match MLIR
// RUN: polyfuse check %s --tc 2>/dev/null | FileCheck %s --check-prefix=TC
// TC: def forward({{.*}}) -> (float(3, 2, 5, 2) v2, float(4, 5) v5, float(4, 3) v7)
// The upsample's copy is read through (docs/design.md): v2 reads x where v1 copied it.
// TC: v2(d0_0, d0_1, d1_0, d1_1) = x(d0_0, d1_0) + z(2*d0_0 + d0_1, 2*d1_0 + d1_1)
// TC: v5(d0, d1) +=! a(d0, 2*d2_0 + d2_1) * b(d2_0, d1, d2_1) where d2_0 in 0:3, d2_1 in 0:2
// TC: v7(d0_0, d0_1) = t(d0_1, d0_0) where d0_0 in 0:4, d0_1 in 0:3
// RUN: polyfuse check %s 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: output 'v2' (line {{[0-9]+}}) is stored as 3x2x5x2, the same elements in the same order as its 6x10: a read through a view (collapse_shape, reshape, unpack) or a floordiv or mod of a loop split the parallel loop that writes it
// RUN: polyfuse exec %s --strategy nofuse --backend opencl | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --strategy ilp --backend opencl | FileCheck %s --check-prefix=EXEC
// EXEC: verified
// A part the loop's range makes constant folds first (d0 floordiv 16 over 0:8 is 0).
// RUN: polyfuse check %s --entry folded --tc 2>/dev/null | FileCheck %s --check-prefix=FOLDED
// FOLDED: r(d0_0, d0_1) = x(d0_0) where d0_0 in 0:2, d0_1 in 0:4
// RUN: %oracle %s --entry folded --backend ref | FileCheck %s --check-prefix=FOLDEDREF
// FOLDEDREF: ref r: 8 elements match MLIR
// Ids a producer computes with a division of its own loop are read as a gather.
// RUN: %oracle %s --entry ids_divided --backend ref --backend opencl | FileCheck %s --check-prefix=IDS
// IDS: ref v2: 24 elements match MLIR
// IDS: opencl v2: 24 elements match MLIR
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#vnni = affine_map<(d0, d1, d2) -> (d2 floordiv 2, d1, d2 mod 2)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#flat = affine_map<(d0) -> (d0)>
module attributes {torch.debug_module_name = "Divided"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%x: tensor<3x5xf32>, %z: tensor<6x10xf32>, %a: tensor<4x6xf32>, %b: tensor<3x5x2xf32>, %t: tensor<3x4xf32>) -> (tensor<6x10xf32>, tensor<4x5xf32>, tensor<12xf32>) {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<6x10xf32>
    %1 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%0 : tensor<6x10xf32>) {
    ^bb0(%out: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %i2 = arith.floordivsi %i, %c2 : index
      %j2 = arith.floordivsi %j, %c2 : index
      %e = tensor.extract %x[%i2, %j2] : tensor<3x5xf32>
      linalg.yield %e : f32
    } -> tensor<6x10xf32>
    %2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%1, %z : tensor<6x10xf32>, tensor<6x10xf32>) outs(%0 : tensor<6x10xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %s = arith.addf %in, %in_0 : f32
      linalg.yield %s : f32
    } -> tensor<6x10xf32>
    %3 = tensor.empty() : tensor<4x5xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4x5xf32>) -> tensor<4x5xf32>
    %5 = linalg.generic {indexing_maps = [#a, #vnni, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x6xf32>, tensor<3x5x2xf32>) outs(%4 : tensor<4x5xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %m = arith.mulf %in, %in_0 : f32
      %s = arith.addf %out, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x5xf32>
    %6 = tensor.empty() : tensor<12xf32>
    %7 = linalg.generic {indexing_maps = [#flat], iterator_types = ["parallel"]} outs(%6 : tensor<12xf32>) {
    ^bb0(%out: f32):
      %k = linalg.index 0 : index
      %r = arith.remui %k, %c3 : index
      %q = arith.divui %k, %c3 : index
      %e = tensor.extract %t[%r, %q] : tensor<3x4xf32>
      linalg.yield %e : f32
    } -> tensor<12xf32>
    return %2, %5, %7 : tensor<6x10xf32>, tensor<4x5xf32>, tensor<12xf32>
  }
  func.func @folded(%x: tensor<2xf32>) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 floordiv 16 + d0 floordiv 4)>, #flat], iterator_types = ["parallel"]} ins(%x : tensor<2xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    } -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
  func.func @ids_divided(%x: tensor<4x3xf32>) -> tensor<8x3xf32> {
    %c2 = arith.constant 2 : index
    %0 = tensor.empty() : tensor<8xi64>
    %ids = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%0 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %h = linalg.index 0 : index
      %q = arith.floordivsi %h, %c2 : index
      %i = arith.index_cast %q : index to i64
      linalg.yield %i : i64
    } -> tensor<8xi64>
    %1 = tensor.empty() : tensor<8x3xf32>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%1 : tensor<8x3xf32>) {
    ^bb0(%id: i64, %out: f32):
      %r = arith.index_cast %id : i64 to index
      %j = linalg.index 1 : index
      %e = tensor.extract %x[%r, %j] : tensor<4x3xf32>
      linalg.yield %e : f32
    } -> tensor<8x3xf32>
    return %2 : tensor<8x3xf32>
  }
}
