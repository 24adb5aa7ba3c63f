// Reshapes of reshapes, as torch-mlir writes `view`: a collapse read through an expand or
// a slice composes into floordiv and mod of sums of loops, which the loops' extents
// simplify into parts of single loops (docs/linalg.md, Views). Compared with MLIR's
// execution.
// RUN: %oracle %s --entry regroup --backend ref --backend opencl | FileCheck %s --check-prefix=REGROUP
// REGROUP: ref y: 24 elements match MLIR
// REGROUP: opencl y: 24 elements match MLIR
// RUN: polyfuse check %s --entry regroup --tc | FileCheck %s --check-prefix=REGROUPTC
// REGROUPTC: y(d0_0, d0_1, d1) = tanh(x(d0_0, d0_1, d1))
// RUN: %oracle %s --entry head --backend ref --backend opencl | FileCheck %s --check-prefix=HEAD
// HEAD: ref y: 8 elements match MLIR
// HEAD: opencl y: 8 elements match MLIR
// RUN: polyfuse check %s --entry head --tc | FileCheck %s --check-prefix=HEADTC
// HEADTC: y(d0) = exp(x(0, 0, d0))
// RUN: %oracle %s --entry reshape --backend ref --backend opencl | FileCheck %s --check-prefix=RESHAPE
// RESHAPE: ref y: 16 elements match MLIR
// RESHAPE: opencl y: 16 elements match MLIR
// RUN: polyfuse check %s --entry reshape 2>&1 | FileCheck %s --check-prefix=NOINPUT
// NOINPUT-NOT: becomes an input
// tpp-mlir's blocked matmul: both operands packed into 4x4 tiles (one with its outer dims
// swapped), a generic over the tiles, and the result unpacked: views, read at o * 4 + t and
// at x floordiv 4, x mod 4.
// RUN: %oracle %s --entry packed --backend ref --backend opencl | FileCheck %s --check-prefix=PACKED
// PACKED: ref r: 64 elements match MLIR
// PACKED: opencl r: 64 elements match MLIR
// Boundaries that do not nest (2x6 viewed as 3x4) divide a sum of loops: a gather at the
// division computed over the loops.
// RUN: %oracle %s --entry crossed --backend ref --backend opencl | FileCheck %s --check-prefix=CROSSED
// CROSSED: ref y: 12 elements match MLIR
// CROSSED: opencl y: 12 elements match MLIR
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module attributes {torch.debug_module_name = "Views"} {
  func.func @regroup(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
    %c = tensor.collapse_shape %x [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
    %v = tensor.expand_shape %c [[0, 1]] output_shape [6, 4] : tensor<24xf32> into tensor<6x4xf32>
    %e = tensor.empty() : tensor<6x4xf32>
    %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<6x4xf32>
    return %y : tensor<6x4xf32>
  }
  func.func @head(%x: tensor<2x4x8xf32>) -> tensor<8xf32> {
    %c = tensor.collapse_shape %x [[0, 1, 2]] : tensor<2x4x8xf32> into tensor<64xf32>
    %s = tensor.extract_slice %c[0] [8] [1] : tensor<64xf32> to tensor<8xf32>
    %e = tensor.empty() : tensor<8xf32>
    %y = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%s : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.exp %in : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    return %y : tensor<8xf32>
  }
  func.func @reshape(%x: tensor<2x8xf32>) -> tensor<4x4xf32> {
    %shape = arith.constant dense<[4, 4]> : tensor<2xi64>
    %r = tensor.reshape %x(%shape) : (tensor<2x8xf32>, tensor<2xi64>) -> tensor<4x4xf32>
    %e = tensor.empty() : tensor<4x4xf32>
    %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = arith.mulf %in, %in : f32
      linalg.yield %t : f32
    } -> tensor<4x4xf32>
    return %y : tensor<4x4xf32>
  }
  func.func @packed(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %zero = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x2x4x4xf32>
    %pa = tensor.pack %a inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %0 : tensor<8x8xf32> -> tensor<2x2x4x4xf32>
    %1 = tensor.empty() : tensor<2x2x4x4xf32>
    %pb = tensor.pack %b outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %1 : tensor<8x8xf32> -> tensor<2x2x4x4xf32>
    %2 = tensor.empty() : tensor<2x2x4x4xf32>
    %3 = linalg.fill ins(%zero : f32) outs(%2 : tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>], iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]} ins(%pa, %pb : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) outs(%3 : tensor<2x2x4x4xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %5 = arith.mulf %in, %in_1 : f32
      %6 = arith.addf %out, %5 : f32
      linalg.yield %6 : f32
    } -> tensor<2x2x4x4xf32>
    %7 = tensor.empty() : tensor<8x8xf32>
    %r = tensor.unpack %4 inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %7 : tensor<2x2x4x4xf32> -> tensor<8x8xf32>
    return %r : tensor<8x8xf32>
  }
  func.func @crossed(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
    %c = tensor.collapse_shape %x [[0, 1]] : tensor<2x6xf32> into tensor<12xf32>
    %v = tensor.expand_shape %c [[0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
    %e = tensor.empty() : tensor<3x4xf32>
    %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<3x4xf32>
    return %y : tensor<3x4xf32>
  }
}
