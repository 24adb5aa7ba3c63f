// Strides as a hex blob: left for MLIR 19 (mlir/newer_named_ops.mlir).
func.func @conv_hex(%x: tensor<1x9x9x2x3xf32>, %w: tensor<2x4x3x3x3xf32>, %o: tensor<1x4x4x2x4xf32>) -> tensor<1x4x4x2x4xf32> {
  %r = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<"0x02000000000000000200000000000000"> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x2x3xf32>, tensor<2x4x3x3x3xf32>) outs(%o : tensor<1x4x4x2x4xf32>) -> tensor<1x4x4x2x4xf32>
  return %r : tensor<1x4x4x2x4xf32>
}
