// A parallel loop whose divisions do not nest in its extent runs in aligned pieces, one
// statement each, over which every division is a constant or a shift: an unpack of 13
// rows from tiles of 8 (2 pieces) and 10 columns from tiles of 4 (3), then a consumer
// that reads it; a nearest upsample of 3 rows to 5 (X(d0 floordiv 2): 3 pieces); a
// reduction over 5 columns whose weights are shared by pairs.
// Compared with MLIR's execution.
// RUN: %oracle %s --entry unpacked --backend ref --backend opencl | FileCheck --check-prefix=UNPACK %s
// UNPACK: ref {{.*}}: 130 elements match MLIR
// UNPACK: opencl {{.*}}: 130 elements match MLIR
// RUN: polyfuse check %s --entry unpacked --tc 2>&1 | FileCheck --check-prefix=UNPACK-TC %s
// UNPACK-TC: r(d0, d1) = tanh(x(1, 2, d0 - 8, d1 - 8)) where d0 in 8:13, d1 in 8:10
// UNPACK-TC: r(d0, d1) = tanh(x(0, 0, d0, d1)) where d0 in 0:8, d1 in 0:4
// RUN: %oracle %s --entry upsample --backend ref --backend opencl | FileCheck --check-prefix=UP %s
// UP: ref {{.*}}: 35 elements match MLIR
// UP: opencl {{.*}}: 35 elements match MLIR
// RUN: polyfuse check %s --entry upsample --tc 2>&1 | FileCheck --check-prefix=UP-TC %s
// UP-TC: y(d0, d1) = x(2, d1) * 2.0 where d0 in 4:5
// UP-TC: y(d0, d1) = x(1, d1) * 2.0 where d0 in 2:4
// UP-TC: y(d0, d1) = x(0, d1) * 2.0 where d0 in 0:2
// Over a reduction loop, each piece adds its part, the first starting the reduction.
// RUN: %oracle %s --entry reduced --backend ref --backend opencl | FileCheck --check-prefix=RED %s
// RED: ref {{.*}}: 4 elements match MLIR
// RED: opencl {{.*}}: 4 elements match MLIR
// RUN: polyfuse check %s --entry reduced --tc 2>&1 | FileCheck --check-prefix=RED-TC %s
// RED-TC: y(d0) +=! x(d0, d1) * w(2) where d1 in 4:5
// RED-TC-NEXT: y(d0) += x(d0, d1) * w(1) where d1 in 2:4
// RED-TC-NEXT: y(d0) += x(d0, d1) * w(0) where d1 in 0:2
// Pieces over both a parallel and a reduction loop: the maximum starts once in each part
// of the result (the first of its pieces), the others take the maximum with it.
// RUN: %oracle %s --entry row_max --backend ref --backend opencl | FileCheck --check-prefix=MAX %s
// MAX: ref {{.*}}: 13 elements match MLIR
// MAX: opencl {{.*}}: 13 elements match MLIR
// RUN: polyfuse check %s --entry row_max --tc 2>&1 | FileCheck --check-prefix=MAX-TC %s
// MAX-TC: r(d0) max=! x(1, 2, d0 - 8, d1 - 8) where d0 in 8:13, d1 in 8:10
// MAX-TC-NEXT: r(d0) max= x(1, 1, d0 - 8, d1 - 4) where d0 in 8:13, d1 in 4:8
// MAX-TC-NEXT: r(d0) max= x(1, 0, d0 - 8, d1) where d0 in 8:13, d1 in 0:4
// MAX-TC-NEXT: r(d0) max=! x(0, 2, d0, d1 - 8) where d0 in 0:8, d1 in 8:10
func.func @unpacked(%x: tensor<2x3x8x4xf32>) -> tensor<13x10xf32> {
  %e = tensor.empty() : tensor<13x10xf32>
  %u = tensor.unpack %x inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e : tensor<2x3x8x4xf32> -> tensor<13x10xf32>
  %o = tensor.empty() : tensor<13x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%u : tensor<13x10xf32>) outs(%o : tensor<13x10xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<13x10xf32>
  return %r : tensor<13x10xf32>
}
func.func @upsample(%x: tensor<3x7xf32>) -> tensor<5x7xf32> {
  %e = tensor.empty() : tensor<5x7xf32>
  %c2 = arith.constant 2.0 : f32
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 floordiv 2, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x7xf32>) outs(%e : tensor<5x7xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %c2 : f32
    linalg.yield %m : f32
  } -> tensor<5x7xf32>
  return %y : tensor<5x7xf32>
}
func.func @reduced(%x: tensor<4x5xf32>, %w: tensor<3xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1 floordiv 2)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %w : tensor<4x5xf32>, tensor<3xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %c: f32, %b: f32):
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @row_max(%x: tensor<2x3x8x4xf32>) -> tensor<13xf32> {
  %low = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<13x10xf32>
  %u = tensor.unpack %x inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e : tensor<2x3x8x4xf32> -> tensor<13x10xf32>
  %o = tensor.empty() : tensor<13xf32>
  %f = linalg.fill ins(%low : f32) outs(%o : tensor<13xf32>) -> tensor<13xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%u : tensor<13x10xf32>) outs(%f : tensor<13xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<13xf32>
  return %r : tensor<13xf32>
}
