// tensor.pack and tensor.unpack of dynamic extents with constant tiles: the tiles cover
// a dynamic dimension exactly, so it is the tile times the outer extent (8 * dest_0), and
// the views read as the static ones do. Of a static unpacked extent the outer one is its
// tile count. Compared with MLIR's execution.
// RUN: polyfuse check %s --entry pack --tc | FileCheck %s --check-prefix=PACK-TC
// PACK-TC: def pack(float(8*dest_0, 2*dest_1) x, float(dest_0, dest_1, 8, 2) dest) -> (float(dest_0, dest_1, 8, 2) p)
// RUN: %oracle %s --entry pack --shape x=24x6 --shape dest=3x3x8x2 --backend ref --backend opencl | FileCheck %s --check-prefix=PACK
// PACK: ref p: 144 elements match MLIR
// PACK: opencl p: 144 elements match MLIR
// RUN: polyfuse check %s --entry unpack 2>&1 >/dev/null | FileCheck %s --check-prefix=UNPACK-NOTE
// UNPACK-NOTE: note: line [[@LINE+29]]: the tensor.unpack is read as dropping no padding: its dimension 0 is 4 times its tiles' t_0
// RUN: %oracle %s --entry unpack --shape t=3x5x4x2 --shape dest=12x10 --backend ref --backend opencl | FileCheck %s --check-prefix=UNPACK
// UNPACK: ref r: 120 elements match MLIR
// UNPACK: opencl r: 120 elements match MLIR
// A static extent over dynamic tiles: ceil(30 / 16) = 2 of them, the last one partial.
// (Not against MLIR: for an unpack whose last tile is partial, the oracle's mlir-opt-19
// pipeline gives values no element of the source has, -23767.2 among them, at 22 of 30
// elements, static shapes too.)
// RUN: polyfuse check %s --entry partial --tc | FileCheck %s --check-prefix=PARTIAL-TC
// PARTIAL-TC: def partial(float(2, 16) t) -> (float(30) u)
// PARTIAL-TC-NEXT: u(d0) = t(1, d0 - 16) where d0 in 16:30
// PARTIAL-TC-NEXT: u(d0) = t(0, d0) where d0 in 0:16
// RUN: expect-exit 2 polyfuse check %s --entry padded 2>&1 | FileCheck %s --check-prefix=PADDED
// PADDED: dynamic_packs.mlir:[[@LINE+39]]:8: tensor.pack of a dynamic dimension with a padding value is not supported
func.func @pack(%x: tensor<?x?xf32>, %dest: tensor<?x?x8x2xf32>) -> tensor<?x?x8x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<?x?xf32>
  %p = tensor.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %dest : tensor<?x?xf32> -> tensor<?x?x8x2xf32>
  return %p : tensor<?x?x8x2xf32>
}
func.func @unpack(%t: tensor<?x?x4x2xf32>, %dest: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %u = tensor.unpack %t inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %dest : tensor<?x?x4x2xf32> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %u, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %u, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%u : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %s = arith.addf %a, %fi : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @partial(%t: tensor<?x16xf32>) -> tensor<30xf32> {
  %e = tensor.empty() : tensor<30xf32>
  %u = tensor.unpack %t inner_dims_pos = [0] inner_tiles = [16] into %e : tensor<?x16xf32> -> tensor<30xf32>
  return %u : tensor<30xf32>
}
func.func @padded(%x: tensor<?xf32>, %dest: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pack %x padding_value(%z : f32) inner_dims_pos = [0] inner_tiles = [8] into %dest : tensor<?xf32> -> tensor<?x8xf32>
  return %p : tensor<?x8xf32>
}
