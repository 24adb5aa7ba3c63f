// Tensors that hold one value everywhere are read as that value: torch-mlir writes a
// clamp's bounds (relu6, hardsigmoid, hardswish) as a rank-0 i64 fill cast to f32, and
// ones or a splat offset as a fill of a whole tensor. Each was a statement of its own,
// stored and read back (a rank-0 one a kernel of one block: three of them in MobileNet
// v3). Compared with MLIR's execution; the half-precision fill is rounded where its
// store rounded it.
// RUN: %oracle %s --entry hardswish --backend ref --backend opencl | FileCheck %s --check-prefix=HSWISH
// HSWISH: ref {{v[0-9]+}}: 105 elements match MLIR
// HSWISH: opencl {{v[0-9]+}}: 105 elements match MLIR
// RUN: polyfuse check %s --entry hardswish 2>&1 | FileCheck %s --check-prefix=HSWISH-STMTS
// HSWISH-STMTS: note: 1 constant tensor(s) read as their value where used ([[SIX:v[0-9]+]]): each is written once, everywhere, from no other tensor
// HSWISH-STMTS-NOT: [[SIX]]
// HSWISH-STMTS: < 6 ? {{.*}} : 6
// HSWISH-STMTS-NOT: [[SIX]]
// RUN: polyfuse fuse %s --entry hardswish --json | FileCheck %s --check-prefix=HSWISH-FUSE
// HSWISH-FUSE: "num_kernels": 1,
// RUN: %oracle %s --entry splat_half --backend ref --backend opencl | FileCheck %s --check-prefix=HALF
// HALF: ref r: 12 elements match MLIR
// HALF: opencl r: 12 elements match MLIR
// RUN: polyfuse check %s --entry splat_half 2>&1 | FileCheck %s --check-prefix=HALF-STMTS
// HALF-STMTS: note: 1 constant tensor(s) read as their value where used (h)
// HALF-STMTS: r(d0, d1) = x(d0, d1) + round_f16(round_f16(1) / 10.0)
// Kept as tensors: one written in two parts (a pad's border, then its inside), and one
// whose fill covers part of it only.
// RUN: polyfuse check %s --entry kept 2>&1 | FileCheck %s --check-prefix=KEPT
// KEPT-NOT: constant tensor
// KEPT: padded(d0) = 1.5
// KEPT: padded(d0) = x(d0 - 1)
// RUN: %oracle %s --entry kept --backend ref --backend opencl | FileCheck %s --check-prefix=KEPTEXEC
// KEPTEXEC: ref r: 7 elements match MLIR
// KEPTEXEC: opencl r: 7 elements match MLIR
// The one f64 tensor of a program makes it compute in double: it stays, and its readers'
// f64 arithmetic with it.
// RUN: polyfuse check %s --entry double_kept 2>&1 | FileCheck %s --check-prefix=DOUBLE
// DOUBLE-NOT: constant tensor
// DOUBLE: d(d0) = 1 / 3.0
// DOUBLE: r(d0) = round_f32((x(d0) + d(d0)) * (x(d0) + d(d0)))
// RUN: %oracle %s --entry double_kept --backend ref --backend opencl | FileCheck %s --check-prefix=DOUBLEEXEC
// DOUBLEEXEC: ref r: 64 elements match MLIR
// DOUBLEEXEC: opencl r: 64 elements match MLIR
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map0 = affine_map<(d0, d1, d2) -> ()>
#map3 = affine_map<() -> ()>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
module {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @hardswish(%x: tensor<3x5x7xf32>) -> tensor<3x5x7xf32> {
    %c6_i64 = arith.constant 6 : i64
    %cst_3 = arith.constant 3.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_6 = arith.constant 6.000000e+00 : f32
    %0 = tensor.empty() : tensor<3x5x7xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<3x5x7xf32>) outs(%0 : tensor<3x5x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %in, %cst_3 : f32
      linalg.yield %1 : f32
    } -> tensor<3x5x7xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<3x5x7xf32>) outs(%0 : tensor<3x5x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.cmpf ugt, %in, %cst_0 : f32
      %2 = arith.select %1, %in, %cst_0 : f32
      linalg.yield %2 : f32
    } -> tensor<3x5x7xf32>
    %7 = tensor.empty() : tensor<i64>
    %8 = linalg.fill ins(%c6_i64 : i64) outs(%7 : tensor<i64>) -> tensor<i64>
    %9 = tensor.empty() : tensor<f32>
    %10 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%8 : tensor<i64>) outs(%9 : tensor<f32>) {
    ^bb0(%in: i64, %out: f32):
      %1 = arith.sitofp %in : i64 to f32
      linalg.yield %1 : f32
    } -> tensor<f32>
    %11 = linalg.generic {indexing_maps = [#map, #map0, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %10 : tensor<3x5x7xf32>, tensor<f32>) outs(%0 : tensor<3x5x7xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %1 = arith.cmpf olt, %in, %in_1 : f32
      %2 = arith.select %1, %in, %in_1 : f32
      linalg.yield %2 : f32
    } -> tensor<3x5x7xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<3x5x7xf32>) outs(%0 : tensor<3x5x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.divf %in, %cst_6 : f32
      linalg.yield %1 : f32
    } -> tensor<3x5x7xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12, %x : tensor<3x5x7xf32>, tensor<3x5x7xf32>) outs(%0 : tensor<3x5x7xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %1 = arith.mulf %in, %in_1 : f32
      linalg.yield %1 : f32
    } -> tensor<3x5x7xf32>
    return %13 : tensor<3x5x7xf32>
  }
  func.func @splat_half(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %c1 = arith.constant 1 : i64
    %ten = arith.constant 1.000000e+01 : f16
    %e = tensor.empty() : tensor<3x4xi64>
    %f = linalg.fill ins(%c1 : i64) outs(%e : tensor<3x4xi64>) -> tensor<3x4xi64>
    %eh = tensor.empty() : tensor<3x4xf16>
    %h = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%f : tensor<3x4xi64>) outs(%eh : tensor<3x4xf16>) {
    ^bb0(%in: i64, %out: f16):
      %1 = arith.sitofp %in : i64 to f16
      %2 = arith.divf %1, %ten : f16
      linalg.yield %2 : f16
    } -> tensor<3x4xf16>
    %0 = tensor.empty() : tensor<3x4xf32>
    %r = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%x, %h : tensor<3x4xf32>, tensor<3x4xf16>) outs(%0 : tensor<3x4xf32>) {
    ^bb0(%in: f32, %hv: f16, %out: f32):
      %1 = arith.extf %hv : f16 to f32
      %2 = arith.addf %in, %1 : f32
      linalg.yield %2 : f32
    } -> tensor<3x4xf32>
    return %r : tensor<3x4xf32>
  }
  func.func @kept(%x: tensor<5xf32>) -> tensor<7xf32> {
    %c = arith.constant 1.500000e+00 : f32
    %padded = tensor.pad %x low[1] high[1] {
    ^bb0(%i: index):
      tensor.yield %c : f32
    } : tensor<5xf32> to tensor<7xf32>
    %0 = tensor.empty() : tensor<7xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%padded : tensor<7xf32>) outs(%0 : tensor<7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.mulf %in, %in : f32
      linalg.yield %1 : f32
    } -> tensor<7xf32>
    return %r : tensor<7xf32>
  }
  func.func @double_kept(%x: tensor<64xf32>) -> tensor<64xf32> {
    %c1 = arith.constant 1 : i64
    %ten = arith.constant 3.000000e+00 : f64
    %e = tensor.empty() : tensor<64xi64>
    %f = linalg.fill ins(%c1 : i64) outs(%e : tensor<64xi64>) -> tensor<64xi64>
    %ed = tensor.empty() : tensor<64xf64>
    %d = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%f : tensor<64xi64>) outs(%ed : tensor<64xf64>) {
    ^bb0(%in: i64, %out: f64):
      %1 = arith.sitofp %in : i64 to f64
      %2 = arith.divf %1, %ten : f64
      linalg.yield %2 : f64
    } -> tensor<64xf64>
    %0 = tensor.empty() : tensor<64xf32>
    %r = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel"]} ins(%x, %d : tensor<64xf32>, tensor<64xf64>) outs(%0 : tensor<64xf32>) {
    ^bb0(%in: f32, %c: f64, %out: f32):
      %1 = arith.extf %in : f32 to f64
      %2 = arith.addf %1, %c : f64
      %3 = arith.mulf %2, %2 : f64
      %4 = arith.truncf %3 : f64 to f32
      linalg.yield %4 : f32
    } -> tensor<64xf32>
    return %r : tensor<64xf32>
  }
}
