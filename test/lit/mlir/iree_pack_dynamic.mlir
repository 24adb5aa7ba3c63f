// IREE's pack and unpack tests on shapes hidden from the compiler: the source is a
// dynamic constant, the destination sized with `arith.ceildivui` of its dims, the tiles
// given as values. Extents known to be numbers fold through integer arithmetic (as
// MLIR's folder would), so the pack is the view a static one is; the padded tail is the
// padding value. check.expect_eq(%a, %b) compares two computed values: both are results.
// RUN: rm -rf %t && polyfuse exec %s --entry dynamic_pack_pad --backend opencl --dump %t/p | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry dynamic_tiles --backend opencl --dump %t/t | FileCheck %s --check-prefix=EXEC
// EXEC: verified: yes
// RUN: %python -c "import numpy as n; print(n.load('%t/p/pack.npy').astype(int).tolist())" | FileCheck %s --check-prefix=PADDED
// PADDED: {{\[\[\[\[}}0, 1, 2], [4, 5, 6], [8, 9, 10]], {{\[\[}}3, -1, -1], [7, -1, -1], [11, -1, -1]]], {{\[\[\[}}12, 13, 14], [-1, -1, -1], [-1, -1, -1]], {{\[\[}}15, -1, -1], [-1, -1, -1], [-1, -1, -1]]]]
// RUN: %python -c "import numpy as n; a, b = n.load('%t/t/pack.npy'), n.load('%t/t/again.npy'); print(a.shape, (a == b).all())" | FileCheck %s --check-prefix=TILES
// TILES: (2, 2, 2, 2) True
// RUN: polyfuse check %s --entry dynamic_pack_pad --tc 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: flow.tensor.dynamic_constant is a constant, cast to its dynamic type
func.func @dynamic_pack_pad() {
  %in = flow.tensor.dynamic_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi32> -> tensor<?x?xi32>
  %pad = arith.constant -1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %in, %c0 : tensor<?x?xi32>
  %d1 = tensor.dim %in, %c1 : tensor<?x?xi32>
  %o0 = arith.ceildivui %d0, %c3 : index
  %o1 = arith.ceildivui %d1, %c3 : index
  %init = tensor.empty(%o0, %o1) : tensor<?x?x3x3xi32>
  %pack = tensor.pack %in padding_value(%pad : i32) inner_dims_pos = [0, 1] inner_tiles = [3, 3] into %init : tensor<?x?xi32> -> tensor<?x?x3x3xi32>
  %cast = tensor.cast %pack : tensor<?x?x3x3xi32> to tensor<2x2x3x3xi32>
  check.expect_eq_const(%cast, dense<[[[[0, 1, 2], [4, 5, 6], [8, 9, 10]], [[3, -1, -1], [7, -1, -1], [11, -1, -1]]], [[[12, 13, 14], [-1, -1, -1], [-1, -1, -1]], [[15, -1, -1], [-1, -1, -1], [-1, -1, -1]]]]> : tensor<2x2x3x3xi32>) : tensor<2x2x3x3xi32>
  return
}
// Tiles as values (tensor.dim of a dynamic constant), packed twice: equal.
func.func @dynamic_tiles() {
  %in = flow.tensor.dynamic_constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi32> -> tensor<?x?xi32>
  %two = flow.tensor.dynamic_constant dense<[0, 0]> : tensor<2xi32> -> tensor<?xi32>
  %c0 = arith.constant 0 : index
  %t = tensor.dim %two, %c0 : tensor<?xi32>
  %d0 = tensor.dim %in, %c0 : tensor<?x?xi32>
  %o = arith.divui %d0, %t : index
  %init = tensor.empty(%o, %o, %t, %t) : tensor<?x?x?x?xi32>
  %pack = tensor.pack %in inner_dims_pos = [0, 1] inner_tiles = [%t, %t] into %init : tensor<?x?xi32> -> tensor<?x?x?x?xi32>
  %init2 = tensor.empty() : tensor<2x2x2x2xi32>
  %again = tensor.pack %in inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %init2 : tensor<?x?xi32> -> tensor<2x2x2x2xi32>
  %cast = tensor.cast %pack : tensor<?x?x?x?xi32> to tensor<2x2x2x2xi32>
  check.expect_eq(%cast, %again) : tensor<2x2x2x2xi32>
  return
}
