// torch-mlir passes a destination that a fill overwrites (`linalg.fill outs(%arg)`), and
// reads part of an input through a slice: the lower bound counts what is read, so the
// plan's DRAM bytes are at it, never below (they were 0.69-0.83x "the lower bound").
// x (8x16 floats, 512 B) is read in part: rows 0-3 (256 B); w (16x4, 256 B) whole; the
// destination never; y (4x4, 64 B) is written: 576 B.
// RUN: polyfuse fuse %s 2>/dev/null | FileCheck %s
// CHECK: total: 1 kernel(s), dram_bytes 576 (lower bound 576, 1.00x)
// RUN: polyfuse exec %s --backend opencl 2>/dev/null | FileCheck --check-prefix=OK %s
// OK: verified: yes
func.func @head(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %dest: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %top = tensor.extract_slice %x[0, 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%dest : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%top, %w : tensor<4x16xf32>, tensor<16x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
