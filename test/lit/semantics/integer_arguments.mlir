// torch-mlir passes an op's number operands as function arguments: `dim`, `keepdim`, an
// integer `alpha`. An integer argument is a rank-0 integer input: unused where the ops
// already fold it, read as its one element where a body uses it. Compared with MLIR's
// execution. An index argument is a size (semantics/index_arguments.mlir).
// RUN: %oracle %s --entry add_alpha --backend ref --backend opencl | FileCheck %s --check-prefix=ALPHA
// ALPHA: ref r: 35 elements match MLIR
// ALPHA: opencl r: 35 elements match MLIR
// RUN: %oracle %s --entry amax_dim --backend ref --backend opencl | FileCheck %s --check-prefix=AMAX
// AMAX: ref r: 5 elements match MLIR
// AMAX: opencl r: 5 elements match MLIR
// RUN: %oracle %s --entry masked --backend ref --backend opencl | FileCheck %s --check-prefix=MASKED
// MASKED: ref r: 7 elements match MLIR
// MASKED: opencl r: 7 elements match MLIR
// RUN: polyfuse check %s --entry add_alpha --tc | FileCheck %s --check-prefix=TC
// TC: def add_alpha(float(5, 7) arg0, float(5, 7) arg1, int64() arg2) -> (float(5, 7) r)
// TC: r(d0, d1) = arg0(d0, d1) + arg1(d0, d1) * round_f32(arg2)
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
module {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @add_alpha(%arg0: tensor<5x7xf32>, %arg1: tensor<5x7xf32>, %arg2: i64) -> tensor<5x7xf32> {
    %0 = tensor.empty() : tensor<5x7xf32>
    %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<5x7xf32>, tensor<5x7xf32>) outs(%0 : tensor<5x7xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %1 = arith.sitofp %arg2 : i64 to f32
      %2 = arith.mulf %in_0, %1 : f32
      %3 = arith.addf %in, %2 : f32
      linalg.yield %3 : f32
    } -> tensor<5x7xf32>
    return %r : tensor<5x7xf32>
  }
  func.func @amax_dim(%arg0: tensor<5x7xf32>, %arg1: i64, %arg2: i1) -> tensor<5xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<5xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<5xf32>) -> tensor<5xf32>
    %r = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<5x7xf32>) outs(%1 : tensor<5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.maximumf %in, %out : f32
      linalg.yield %2 : f32
    } -> tensor<5xf32>
    return %r : tensor<5xf32>
  }
  func.func @masked(%arg0: tensor<7xf32>, %arg1: i1, %arg2: i32) -> tensor<7xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<7xf32>
    %r = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel"]} ins(%arg0 : tensor<7xf32>) outs(%0 : tensor<7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %i = linalg.index 0 : index
      %j = arith.index_cast %i : index to i32
      %lt = arith.cmpi slt, %j, %arg2 : i32
      %keep = arith.andi %lt, %arg1 : i1
      %2 = arith.select %keep, %in, %cst : f32
      linalg.yield %2 : f32
    } -> tensor<7xf32>
    return %r : tensor<7xf32>
  }
}
