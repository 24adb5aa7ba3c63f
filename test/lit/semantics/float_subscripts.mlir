// torch-mlir's nearest upsample computes each source index in floating point: the output
// index, cast to f32, divided by the scale (or times its inverse), floored, cast back and
// clamped to the last row. Over the loop's static range that function takes the values
// of h floordiv 2 (and w floordiv 3); the importer evaluates it at every point, with f32
// rounding, and reads the affine form only where all of them agree. Sizes are odd (3x5 to
// 6x15), and a stride-2 downsample computed the same way reads y(2*w) as an affine read.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v1: 180 elements match MLIR
// CHECK: ref v17: 3 elements match MLIR
// CHECK: opencl v1: 180 elements match MLIR
// CHECK: opencl v17: 3 elements match MLIR
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s --check-prefix=TC
// TC: note: line {{[0-9]+}} computes a subscript in floating point from one loop; over the loop's range it equals an affine form of it, checked at every point, and is read as that
// TC: v1(d0, d1_0, d1_1, d2_0, d2_1) = x(d0, d1_0, d2_0) + z(d0, 2*d1_0 + d1_1, 3*d2_0 + d2_1)
// TC: v17(d0, d1) = y(0, 2*d1)
// A scale that does not divide the extent (2 rows to 5: floor(h * 0.4) is h floordiv 3 on
// 0:5, and 3 does not divide 5): the loop runs in pieces, 0:3 and 3:5.
// RUN: %oracle %s --entry uneven --backend ref --backend opencl | FileCheck %s --check-prefix=UNEVEN
// UNEVEN: ref v1: 5 elements match MLIR
// UNEVEN: opencl v1: 5 elements match MLIR
// RUN: polyfuse check %s --entry uneven --tc 2>/dev/null | FileCheck %s --check-prefix=UNEVEN-TC
// UNEVEN-TC: v1(d0) = x(1) where d0 in 3:5
// UNEVEN-TC-NEXT: v1(d0) = x(0) where d0 in 0:3
// Each step rounds to its own type: in bf16, 259 is 260, so floor(h * 0.5) is no longer
// h floordiv 2 over 0:520 and the subscript stays computed: stored first as ids, through
// which the read gathers; at h = 519 it reads x(260), past the end (undefined in MLIR),
// which the run refuses. An unsigned min of h - 1 (an index: 64 bits) reads -1 as a huge
// value: no affine fit either, so stored as ids, the unsigned order kept (a value whose
// sign differs from the other's is the larger when negative), as MLIR computes it.
// RUN: expect-exit 2 polyfuse exec %s --entry bf16_rounding --backend ref 2>&1 | FileCheck %s --check-prefix=BF16
// BF16: reads 'x' at 260 in dimension 0 (from 'pf_ids'), outside 0:260
// RUN: %oracle %s --entry unsigned --backend ref --backend opencl | FileCheck %s --check-prefix=UNSIGNED
// UNSIGNED: ref v1: 8 elements match MLIR
// UNSIGNED: opencl v1: 8 elements match MLIR
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {torch.debug_module_name = "Upsample"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%x: tensor<2x3x5xf32>, %z: tensor<2x6x15xf32>, %y: tensor<1x6xf32>) -> (tensor<2x6x15xf32>, tensor<1x3xf32>) {
    %cst = arith.constant 5.000000e-01 : f32
    %cst_0 = arith.constant 3.000000e+00 : f32
    %cst_1 = arith.constant 2.000000e+00 : f32
    %c2_i64 = arith.constant 2 : i64
    %c4_i64 = arith.constant 4 : i64
    %0 = tensor.empty() : tensor<2x6x15xf32>
    %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%z : tensor<2x6x15xf32>) outs(%0 : tensor<2x6x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = linalg.index 0 : index
      %h = linalg.index 1 : index
      %w = linalg.index 2 : index
      %2 = arith.index_cast %h : index to i64
      %3 = arith.sitofp %2 : i64 to f32
      %4 = arith.mulf %3, %cst : f32
      %5 = math.floor %4 : f32
      %6 = arith.fptosi %5 : f32 to i64
      %7 = arith.minsi %6, %c2_i64 : i64
      %8 = arith.index_cast %7 : i64 to index
      %9 = arith.index_cast %w : index to i64
      %10 = arith.sitofp %9 : i64 to f32
      %11 = arith.divf %10, %cst_0 : f32
      %12 = math.floor %11 : f32
      %13 = arith.fptosi %12 : f32 to i64
      %14 = arith.minsi %13, %c4_i64 : i64
      %15 = arith.index_cast %14 : i64 to index
      %e = tensor.extract %x[%n, %8, %15] : tensor<2x3x5xf32>
      %s = arith.addf %e, %in : f32
      linalg.yield %s : f32
    } -> tensor<2x6x15xf32>
    %16 = tensor.empty() : tensor<1x3xf32>
    %17 = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%16 : tensor<1x3xf32>) {
    ^bb0(%out: f32):
      %i = linalg.index 1 : index
      %18 = arith.index_cast %i : index to i64
      %19 = arith.sitofp %18 : i64 to f32
      %20 = arith.mulf %19, %cst_1 : f32
      %21 = arith.fptosi %20 : f32 to i64
      %22 = arith.index_cast %21 : i64 to index
      %c0 = arith.constant 0 : index
      %e = tensor.extract %y[%c0, %22] : tensor<1x6xf32>
      linalg.yield %e : f32
    } -> tensor<1x3xf32>
    return %1, %17 : tensor<2x6x15xf32>, tensor<1x3xf32>
  }
  func.func @uneven(%x: tensor<2xf32>) -> tensor<5xf32> {
    %cst = arith.constant 4.000000e-01 : f32
    %0 = tensor.empty() : tensor<5xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%0 : tensor<5xf32>) {
    ^bb0(%out: f32):
      %h = linalg.index 0 : index
      %2 = arith.index_cast %h : index to i64
      %3 = arith.sitofp %2 : i64 to f32
      %4 = arith.mulf %3, %cst : f32
      %5 = math.floor %4 : f32
      %6 = arith.fptosi %5 : f32 to i64
      %7 = arith.index_cast %6 : i64 to index
      %e = tensor.extract %x[%7] : tensor<2xf32>
      linalg.yield %e : f32
    } -> tensor<5xf32>
    return %1 : tensor<5xf32>
  }
  func.func @bf16_rounding(%x: tensor<260xf32>) -> tensor<520xf32> {
    %cst = arith.constant 5.000000e-01 : bf16
    %0 = tensor.empty() : tensor<520xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%0 : tensor<520xf32>) {
    ^bb0(%out: f32):
      %h = linalg.index 0 : index
      %2 = arith.index_cast %h : index to i64
      %3 = arith.sitofp %2 : i64 to bf16
      %4 = arith.mulf %3, %cst : bf16
      %5 = math.floor %4 : bf16
      %6 = arith.fptosi %5 : bf16 to i64
      %7 = arith.index_cast %6 : i64 to index
      %e = tensor.extract %x[%7] : tensor<260xf32>
      linalg.yield %e : f32
    } -> tensor<520xf32>
    return %1 : tensor<520xf32>
  }
  func.func @unsigned(%x: tensor<9xf32>) -> tensor<8xf32> {
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %0 = tensor.empty() : tensor<8xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%0 : tensor<8xf32>) {
    ^bb0(%out: f32):
      %h = linalg.index 0 : index
      %a = arith.subi %h, %c1 : index
      %b = arith.minui %a, %c7 : index
      %c = arith.addi %b, %c1 : index
      %e = tensor.extract %x[%c] : tensor<9xf32>
      linalg.yield %e : f32
    } -> tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
