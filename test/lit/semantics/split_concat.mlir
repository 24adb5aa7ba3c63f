// A window written over part of a dimension, its source read through a collapse_shape
// of several extents: ViT's class token concatenated before its patches (a strided
// convolution's 5x5 outputs, flattened to 25 and transposed). No loop of the result can
// split (the class token's window crosses the parts), so the divided window is written
// in pieces aligned to the collapse: over each, (d1 - 1) floordiv 5 is a constant and
// (d1 - 1) mod 5 a shifted loop. Compared with MLIR's execution.
// RUN: %oracle %s --entry vit --backend ref --backend opencl | FileCheck --check-prefix=VIT %s
// VIT: ref v6: 208 elements match MLIR
// VIT: opencl v6: 208 elements match MLIR
// RUN: polyfuse check %s --entry vit --tc | FileCheck --check-prefix=VIT-TC %s
// The transpose is read through (its readers read the convolution's output).
// VIT-TC: concat(d0, d1, d2) = v2(d2, 4, d1 - 21) where d0 in 0:1, d1 in 21:26, d2 in 0:8
// VIT-TC-NEXT: concat(d0, d1, d2) = v2(d2, 3, d1 - 16) where d0 in 0:1, d1 in 16:21, d2 in 0:8
// VIT-TC-NEXT: concat(d0, d1, d2) = v2(d2, 2, d1 - 11) where d0 in 0:1, d1 in 11:16, d2 in 0:8
// VIT-TC-NEXT: concat(d0, d1, d2) = v2(d2, 1, d1 - 6) where d0 in 0:1, d1 in 6:11, d2 in 0:8
// VIT-TC-NEXT: concat(d0, d1, d2) = v2(d2, 0, d1 - 1) where d0 in 0:1, d1 in 1:6, d2 in 0:8
// VIT-TC-NEXT: concat(d0, d1, d2) = cls(d0, d1, d2) where d0 in 0:1, d1 in 0:1, d2 in 0:8
// The pieces and the class token fuse with the convolution, transpose and position add: the
// concatenation is never stored (one kernel).
// RUN: polyfuse fuse %s --entry vit | FileCheck --check-prefix=VIT-FUSE %s
// VIT-FUSE: total: 1 kernel(s)
//
// The collapse read as a view (rows of [3, 5, 4] flattened to 15, after 2 other rows),
// and a collapse of three extents (2x3x2 to 12: pieces of 2, where both divisions are
// constant):
// RUN: %oracle %s --entry rows --backend ref --backend opencl | FileCheck --check-prefix=ROWS %s
// ROWS: ref v1: 68 elements match MLIR
// ROWS: opencl v1: 68 elements match MLIR
// RUN: polyfuse check %s --entry rows --tc | FileCheck --check-prefix=ROWS-TC %s
// ROWS-TC: concat(d0, d1) = x(2, d0 - 12, d1) where d0 in 12:17, d1 in 0:4
// ROWS-TC: concat(d0, d1) = y(d0, d1) where d0 in 0:2, d1 in 0:4
// RUN: %oracle %s --entry three --backend ref --backend opencl | FileCheck --check-prefix=THREE %s
// THREE: ref concat: 13 elements match MLIR
// THREE: opencl concat: 13 elements match MLIR
// RUN: polyfuse check %s --entry three --tc | FileCheck --check-prefix=THREE-TC %s
// THREE-TC: concat(d0) = x(1, 2, d0 - 11) where d0 in 11:13
// THREE-TC: concat(d0) = x(0, 0, d0 - 1) where d0 in 1:3
//
// A pad along the collapsed dimension writes its window in pieces too:
// RUN: %oracle %s --entry padded --backend ref --backend opencl | FileCheck --check-prefix=PAD %s
// PAD: ref padded_1: 36 elements match MLIR
// PAD: opencl padded_1: 36 elements match MLIR
//
// Pieces are bounded: a collapse of [70, 2] read at an offset would take 70.
// RUN: not polyfuse check %s --entry many 2>&1 | FileCheck --check-prefix=MANY %s
// MANY: split_concat.mlir:[[@LINE+56]]:13: this op writes a window read through a collapse_shape of several extents along dimension 0 in 70 or more pieces; polyfuse writes at most 64

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @vit(%x: tensor<1x3x15x15xf32>, %w: tensor<8x3x3x3xf32>, %cls: tensor<1x1x8xf32>, %pos: tensor<1x26x8xf32>) -> tensor<1x26x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x8x5x5xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<3> : vector<2xi64>} ins(%x, %w : tensor<1x3x15x15xf32>, tensor<8x3x3x3xf32>) outs(%1 : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %collapsed = tensor.collapse_shape %2 [[0], [1], [2, 3]] : tensor<1x8x5x5xf32> into tensor<1x8x25xf32>
  %3 = tensor.empty() : tensor<1x25x8xf32>
  %4 = linalg.generic {indexing_maps = [#tr, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed : tensor<1x8x25xf32>) outs(%3 : tensor<1x25x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x25x8xf32>
  %concat = tensor.concat dim(1) %cls, %4 : (tensor<1x1x8xf32>, tensor<1x25x8xf32>) -> tensor<1x26x8xf32>
  %5 = tensor.empty() : tensor<1x26x8xf32>
  %6 = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat, %pos : tensor<1x26x8xf32>, tensor<1x26x8xf32>) outs(%5 : tensor<1x26x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %7 = arith.addf %in, %in_0 : f32
    linalg.yield %7 : f32
  } -> tensor<1x26x8xf32>
  return %6 : tensor<1x26x8xf32>
}

func.func @rows(%x: tensor<3x5x4xf32>, %y: tensor<2x4xf32>, %s: tensor<17x4xf32>) -> tensor<17x4xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<3x5x4xf32> into tensor<15x4xf32>
  %concat = tensor.concat dim(0) %y, %c : (tensor<2x4xf32>, tensor<15x4xf32>) -> tensor<17x4xf32>
  %e = tensor.empty() : tensor<17x4xf32>
  %1 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%concat, %s : tensor<17x4xf32>, tensor<17x4xf32>) outs(%e : tensor<17x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<17x4xf32>
  return %1 : tensor<17x4xf32>
}

func.func @three(%x: tensor<2x3x2xf32>, %z: tensor<1xf32>) -> tensor<13xf32> {
  %c = tensor.collapse_shape %x [[0, 1, 2]] : tensor<2x3x2xf32> into tensor<12xf32>
  %concat = tensor.concat dim(0) %z, %c : (tensor<1xf32>, tensor<12xf32>) -> tensor<13xf32>
  return %concat : tensor<13xf32>
}

func.func @padded(%x: tensor<2x3x4xf32>) -> tensor<9x4xf32> {
  %cst = arith.constant 5.000000e-01 : f32
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %padded = tensor.pad %c low[1, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<6x4xf32> to tensor<9x4xf32>
  return %padded : tensor<9x4xf32>
}

func.func @many(%x: tensor<70x2xf32>, %z: tensor<1xf32>) -> tensor<141xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<70x2xf32> into tensor<140xf32>
  %concat = tensor.concat dim(0) %z, %c : (tensor<1xf32>, tensor<140xf32>) -> tensor<141xf32>
  return %concat : tensor<141xf32>
}
