// A pack whose destination holds more whole tiles than the source fills, with no padding
// value: MLIR's verifier lets it through, and those elements are undefined. Refused at
// the op, as a user's error (MLIR's canonicalize tests write one).
// RUN: expect-exit 2 polyfuse check %s 2>&1 | FileCheck %s
// CHECK: pack_overfull.mlir:[[@LINE+3]]:8: tensor.pack into more tiles than dimension 0 fills, with no padding value: their elements are undefined
func.func @overfull(%dest : tensor<8x16x8x32xf32>) -> tensor<8x16x8x32xf32> {
  %cst = arith.constant dense<1.000000e-01> : tensor<64x128xf32>
  %0 = tensor.pack %cst outer_dims_perm = [1, 0] inner_dims_pos = [0, 1]
    inner_tiles = [8, 32] into %dest : tensor<64x128xf32> -> tensor<8x16x8x32xf32>
  return %0 : tensor<8x16x8x32xf32>
}
