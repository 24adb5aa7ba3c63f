// Slices of a dynamic size (a KV cache read or written up to the new tokens): the slice
// keeps its source only if size + offset <= the source's extent, which MLIR leaves to the
// caller. The program states it (a comment in TC, isl's context assumes it) and sizes that
// break it are refused where they are given. The loop over the slice takes the slice's
// size, given as a where clause (TC would infer the source's). Compared with MLIR's
// execution.
// RUN: %oracle %s --entry read --shape q=5x8 --backend ref --backend opencl | FileCheck %s --check-prefix=READ
// READ: ref r: 40 elements match MLIR
// READ: opencl r: 40 elements match MLIR
// RUN: polyfuse check %s --entry read --tc | FileCheck %s --check-prefix=READTC
// READTC: # requires q_0 + 2 <= 16: the extract_slice at line [[@LINE+18]]
// READTC: r(d0, d1) = cache(d0 + 2, d1) * q(d0, d1) where d0 in 0:q_0
// RUN: %oracle %s --entry write --shape new=3x8 --backend ref --backend opencl | FileCheck %s --check-prefix=WRITE
// WRITE: ref inserted: 128 elements match MLIR
// WRITE: opencl inserted: 128 elements match MLIR
// RUN: %oracle %s --entry both --shape cache=9x8 --shape q=4x8 --backend ref --backend opencl | FileCheck %s --check-prefix=BOTH
// BOTH: opencl r: 32 elements match MLIR
// RUN: expect-exit 2 polyfuse exec %s --entry read --size q_0=15 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: error: size 'q_0' = 15 is too large: the extract_slice at line [[@LINE+10]] needs q_0 + 2 <= 16
// RUN: expect-exit 2 polyfuse exec %s --entry write --size new_0=13 2>&1 | FileCheck %s --check-prefix=BIGW
// BIGW: error: size 'new_0' = 13 is too large: the insert_slice at line [[@LINE+26]] needs new_0 + 4 <= 16
// RUN: expect-exit 2 polyfuse exec %s --entry both --size q_0=10,cache_0=9 2>&1 | FileCheck %s --check-prefix=BIGB
// BIGB: error: size 'q_0' = 10 is too large: the extract_slice at line {{[0-9]+}} needs q_0 <= cache_0 = 9
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @read(%cache: tensor<16x8xf32>, %q: tensor<?x8xf32>) -> tensor<?x8xf32> {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %q, %c0 : tensor<?x8xf32>
    %s = tensor.extract_slice %cache[2, 0] [%n, 8] [1, 1] : tensor<16x8xf32> to tensor<?x8xf32>
    %e = tensor.empty(%n) : tensor<?x8xf32>
    %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%s, %q : tensor<?x8xf32>, tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %m = arith.mulf %in, %in_0 : f32
      linalg.yield %m : f32
    } -> tensor<?x8xf32>
    return %r : tensor<?x8xf32>
  }
  func.func @write(%cache: tensor<16x8xf32>, %new: tensor<?x8xf32>) -> tensor<16x8xf32> {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %new, %c0 : tensor<?x8xf32>
    %e = tensor.empty(%n) : tensor<?x8xf32>
    %t = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%new : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.negf %in : f32
      linalg.yield %m : f32
    } -> tensor<?x8xf32>
    %inserted = tensor.insert_slice %t into %cache[4, 0] [%n, 8] [1, 1] : tensor<?x8xf32> into tensor<16x8xf32>
    return %inserted : tensor<16x8xf32>
  }
  func.func @both(%cache: tensor<?x8xf32>, %q: tensor<?x8xf32>) -> tensor<?x8xf32> {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %q, %c0 : tensor<?x8xf32>
    %s = tensor.extract_slice %cache[0, 0] [%n, 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
    %e = tensor.empty(%n) : tensor<?x8xf32>
    %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%s, %q : tensor<?x8xf32>, tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %m = arith.addf %in, %in_0 : f32
      linalg.yield %m : f32
    } -> tensor<?x8xf32>
    return %r : tensor<?x8xf32>
  }
}
