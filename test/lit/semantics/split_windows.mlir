// A tensor op that reads a collapse along a whole dimension of its result: torch-mlir's
// GroupNorm views [1, 2, 45] back as [1, 6, 3, 5] (channels split into 2 groups of 3), and
// the channel-wise affine's result, stored as its parts [1, 2, 3, 3, 5], is padded in height
// and width, then concatenated along height. Each tensor op splits its channel loop the way
// the generic did and stores its result split as well, so every write stays a plain index.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v9: 42 elements match MLIR
// CHECK: ref concat: 294 elements match MLIR
// CHECK: opencl v9: 42 elements match MLIR
// CHECK: opencl concat: 294 elements match MLIR
// RUN: polyfuse check %s --tc 2>/dev/null | FileCheck %s --check-prefix=TC
// TC: v6(d0_0, d0_1, d1, d2) = v4(d0_0, 15*d0_1 + 5*d1 + d2) * w(3*d0_0 + d0_1) + b(3*d0_0 + d0_1)
// TC: padded(d0_0, d0_1, d1, d2) = 0.0 where d0_0 in 0:2, d0_1 in 0:3, d1 in 0:5, d2 in 0:7
// TC: padded(d0_0, d0_1, d1, d2) = v6(d0_0, d0_1, d1 - 1, d2 - 1) where d0_0 in 0:2, d0_1 in 0:3, d1 in 1:4, d2 in 1:6
// TC: concat(d0, d1_0, d1_1, d2, d3) = z(d0, 3*d1_0 + d1_1, d2 - 5, d3) where d0 in 0:1, d1_0 in 0:2, d1_1 in 0:3, d2 in 5:7, d3 in 0:7
// TC: concat(d0, d1_0, d1_1, d2, d3) = padded(d1_0, d1_1, d2, d3) where d0 in 0:1, d1_0 in 0:2, d1_1 in 0:3, d2 in 0:5, d3 in 0:7
// RUN: polyfuse exec %s --strategy ilp --backend opencl | FileCheck %s --check-prefix=EXEC
// EXEC: verified
// Along a window's offset no loop splits (the other windows cross the parts): the
// windows read divided are written in pieces, one per group (semantics/split_concat.mlir).
// RUN: %oracle %s --entry offset --backend ref --backend opencl | FileCheck %s --check-prefix=OFF
// OFF: ref concat: 105 elements match MLIR
// OFF: opencl concat: 105 elements match MLIR
// RUN: polyfuse check %s --entry offset --tc | FileCheck %s --check-prefix=OFF-TC
// OFF-TC: concat(d0, d1, d2, d3) = v6(1, d1 - 4, d2, d3) where d0 in 0:1, d1 in 4:7, d2 in 0:3, d3 in 0:5
// OFF-TC-NEXT: concat(d0, d1, d2, d3) = v6(0, d1 - 1, d2, d3) where d0 in 0:1, d1 in 1:4, d2 in 0:3, d3 in 0:5
// So is a window that covers part of the split dimension at offset 0:
// RUN: %oracle %s --entry partial --backend ref --backend opencl | FileCheck %s --check-prefix=PARTIAL
// PARTIAL: ref concat: 180 elements match MLIR
// PARTIAL: opencl concat: 180 elements match MLIR
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d1)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module attributes {torch.debug_module_name = "GroupNormPad"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%x: tensor<1x2x45xf32>, %w: tensor<6xf32>, %b: tensor<6xf32>, %z: tensor<1x6x2x7xf32>) -> (tensor<1x6x7xf32>, tensor<1x6x7x7xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 4.500000e+01 : f32
    %0 = tensor.empty() : tensor<1x2x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x2x45xf32>) outs(%1 : tensor<1x2x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    } -> tensor<1x2x1xf32>
    %3 = tensor.empty() : tensor<1x2x45xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %2 : tensor<1x2x45xf32>, tensor<1x2x1xf32>) outs(%3 : tensor<1x2x45xf32>) {
    ^bb0(%in: f32, %m: f32, %out: f32):
      %d = arith.divf %m, %cst_0 : f32
      %s = arith.subf %in, %d : f32
      linalg.yield %s : f32
    } -> tensor<1x2x45xf32>
    %collapsed = tensor.collapse_shape %4 [[0], [1, 2]] : tensor<1x2x45xf32> into tensor<1x90xf32>
    %expanded = tensor.expand_shape %collapsed [[0], [1, 2, 3]] output_shape [1, 6, 3, 5] : tensor<1x90xf32> into tensor<1x6x3x5xf32>
    %5 = tensor.empty() : tensor<1x6x3x5xf32>
    %6 = linalg.generic {indexing_maps = [#map2, #map3, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %w, %b : tensor<1x6x3x5xf32>, tensor<6xf32>, tensor<6xf32>) outs(%5 : tensor<1x6x3x5xf32>) {
    ^bb0(%in: f32, %g: f32, %h: f32, %out: f32):
      %m = arith.mulf %in, %g : f32
      %a = arith.addf %m, %h : f32
      linalg.yield %a : f32
    } -> tensor<1x6x3x5xf32>
    %padded = tensor.pad %6 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %cst : f32
    } : tensor<1x6x3x5xf32> to tensor<1x6x5x7xf32>
    %concat = tensor.concat dim(2) %padded, %z : (tensor<1x6x5x7xf32>, tensor<1x6x2x7xf32>) -> tensor<1x6x7x7xf32>
    %7 = tensor.empty() : tensor<1x6x7xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<1x6x7xf32>) -> tensor<1x6x7xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%concat : tensor<1x6x7x7xf32>) outs(%8 : tensor<1x6x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    } -> tensor<1x6x7xf32>
    return %9, %concat : tensor<1x6x7xf32>, tensor<1x6x7x7xf32>
  }
  func.func @offset(%x: tensor<1x2x45xf32>, %y: tensor<1x1x3x5xf32>) -> tensor<1x7x3x5xf32> {
    %collapsed = tensor.collapse_shape %x [[0], [1, 2]] : tensor<1x2x45xf32> into tensor<1x90xf32>
    %expanded = tensor.expand_shape %collapsed [[0], [1, 2, 3]] output_shape [1, 6, 3, 5] : tensor<1x90xf32> into tensor<1x6x3x5xf32>
    %5 = tensor.empty() : tensor<1x6x3x5xf32>
    %6 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<1x6x3x5xf32>) outs(%5 : tensor<1x6x3x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %in : f32
      linalg.yield %m : f32
    } -> tensor<1x6x3x5xf32>
    %concat = tensor.concat dim(1) %y, %6 : (tensor<1x1x3x5xf32>, tensor<1x6x3x5xf32>) -> tensor<1x7x3x5xf32>
    return %concat : tensor<1x7x3x5xf32>
  }
  func.func @partial(%x: tensor<1x2x30xf32>, %y: tensor<1x6x3x5xf32>, %z: tensor<1x2x3x5xf32>) -> tensor<1x12x3x5xf32> {
    %collapsed = tensor.collapse_shape %x [[0], [1, 2]] : tensor<1x2x30xf32> into tensor<1x60xf32>
    %expanded = tensor.expand_shape %collapsed [[0], [1, 2, 3]] output_shape [1, 4, 3, 5] : tensor<1x60xf32> into tensor<1x4x3x5xf32>
    %5 = tensor.empty() : tensor<1x4x3x5xf32>
    %6 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<1x4x3x5xf32>) outs(%5 : tensor<1x4x3x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %in : f32
      linalg.yield %m : f32
    } -> tensor<1x4x3x5xf32>
    %concat = tensor.concat dim(1) %6, %y, %z : (tensor<1x4x3x5xf32>, tensor<1x6x3x5xf32>, tensor<1x2x3x5xf32>) -> tensor<1x12x3x5xf32>
    return %concat : tensor<1x12x3x5xf32>
  }
}
