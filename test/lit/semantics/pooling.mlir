// Pooling and convolution named ops as torch-mlir writes them: a window's extent is a
// shape-only operand (read for its type, no data), strides and dilations scale the
// subscripts, and a padding of -inf (max) or 0 (sum, convolution) comes first as a
// tensor.pad. Odd sizes, strides 2 and dilations 2; each compared with MLIR's execution.
// RUN: %oracle %s --entry maxpool --backend ref --backend opencl | FileCheck --check-prefix=MAX %s
// MAX: ref r: 72 elements match MLIR
// MAX: opencl r: 72 elements match MLIR
// RUN: polyfuse check %s --entry maxpool --tc 2>/dev/null | FileCheck --check-prefix=MAXTC %s
// MAXTC: r(d0, d1, d2, d3) max=! padded(d0, d1, 2*d2 + 2*d4, 2*d3 + 2*d5)
// RUN: %oracle %s --entry sumpool --backend ref --backend opencl | FileCheck --check-prefix=SUM %s
// SUM: ref r: 24 elements match MLIR
// SUM: opencl r: 24 elements match MLIR
// RUN: %oracle %s --entry conv --backend ref --backend opencl | FileCheck --check-prefix=CONV %s
// CONV: ref r: 48 elements match MLIR
// CONV: opencl r: 48 elements match MLIR
// RUN: polyfuse fuse %s --entry maxpool 2>/dev/null | FileCheck --check-prefix=FUSE %s
// FUSE: total: 1 kernel(s), dram_bytes 2664 (lower bound 2664, 1.00x)
func.func @maxpool(%x: tensor<2x3x9x11xf32>) -> tensor<2x3x3x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f32
  } : tensor<2x3x9x11xf32> to tensor<2x3x11x13xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<2x3x3x4xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x3x3x4xf32>) -> tensor<2x3x3x4xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %window : tensor<2x3x11x13xf32>, tensor<3x3xf32>) outs(%init : tensor<2x3x3x4xf32>) -> tensor<2x3x3x4xf32>
  return %r : tensor<2x3x3x4xf32>
}
func.func @sumpool(%x: tensor<1x8x9x2xf32>) -> tensor<1x3x4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 0] high[0, 0, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x9x2xf32> to tensor<1x8x10x2xf32>
  %window = tensor.empty() : tensor<2x3xf32>
  %e = tensor.empty() : tensor<1x3x4x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x2xf32>) -> tensor<1x3x4x2xf32>
  %r = linalg.pooling_nhwc_sum {dilations = dense<[3, 1]> : vector<2xi64>, strides = dense<[2, 2]> : vector<2xi64>} ins(%padded, %window : tensor<1x8x10x2xf32>, tensor<2x3xf32>) outs(%init : tensor<1x3x4x2xf32>) -> tensor<1x3x4x2xf32>
  return %r : tensor<1x3x4x2xf32>
}
func.func @conv(%x: tensor<1x3x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 2] high[0, 0, 1, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x3x9x9xf32> to tensor<1x3x11x13xf32>
  %e = tensor.empty() : tensor<1x4x3x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x3x4xf32>) -> tensor<1x4x3x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<[3, 2]> : vector<2xi64>} ins(%padded, %w : tensor<1x3x11x13xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<1x4x3x4xf32>) -> tensor<1x4x3x4xf32>
  return %r : tensor<1x4x3x4xf32>
}
