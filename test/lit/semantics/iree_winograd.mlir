// IREE's Winograd transforms of F(6x6, 3x3), each two contractions with the algorithm's
// constant matrix: a whole Winograd convolution (input and filter transforms, a batch
// matmul over the 64 tile positions, the output transform, the slice of the image) gives
// the direct convolution's values, on an image of 9x10 whose tiles overrun it (the input
// padded to 14x14, the output cut from 12x12). IREE's own e2e tests give their expected
// matrices (docs/linalg.md).
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s --check-prefix=TC
// TC: note: read 3 iree_linalg_ext.winograd transform(s)
// TC: pf_winograd0_padded(d0, d1, d2) = 0.0 where d0 in 0:14, d1 in 0:14, d2 in 0:2
// TC: pf_winograd0_t1(d0, d1, d2, d3, d4) +=! pf_winograd0_bt(d0, d5) * pf_winograd0_padded(6*d2 + d5, d1 + 6*d3, d4)
// RUN: polyfuse exec %s --backend opencl --dump %t/w | FileCheck %s --check-prefix=EXEC
// EXEC: verified: yes
// RUN: %python -c "import numpy as n; w = n.load('%t/w/wino.npy'); d = n.load('%t/w/direct.npy'); print(w.shape, d.shape, float(n.abs(w - d).max() / n.abs(d).max()) < 1e-5)" | FileCheck %s --check-prefix=SAME
// SAME: (1, 7, 8, 3) (1, 7, 8, 3) True
func.func @conv(%x: tensor<1x9x10x2xf32>, %g: tensor<3x3x2x3xf32>) -> (tensor<1x7x8x3xf32>, tensor<1x7x8x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %ti = tensor.empty() : tensor<8x8x1x2x2x2xf32>
  %xt = iree_linalg_ext.winograd.input_transform output_tile_size(6) kernel_size(3) image_dimensions([1, 2])
        ins(%x : tensor<1x9x10x2xf32>) outs(%ti : tensor<8x8x1x2x2x2xf32>) -> tensor<8x8x1x2x2x2xf32>
  %tf = tensor.empty() : tensor<8x8x2x3xf32>
  %gt = iree_linalg_ext.winograd.filter_transform output_tile_size(6) kernel_size(3) kernel_dimensions([0, 1])
        ins(%g : tensor<3x3x2x3xf32>) outs(%tf : tensor<8x8x2x3xf32>) -> tensor<8x8x2x3xf32>
  %xc = tensor.collapse_shape %xt [[0, 1], [2, 3, 4], [5]] : tensor<8x8x1x2x2x2xf32> into tensor<64x4x2xf32>
  %gc = tensor.collapse_shape %gt [[0, 1], [2], [3]] : tensor<8x8x2x3xf32> into tensor<64x2x3xf32>
  %pe = tensor.empty() : tensor<64x4x3xf32>
  %pz = linalg.fill ins(%zero : f32) outs(%pe : tensor<64x4x3xf32>) -> tensor<64x4x3xf32>
  %p = linalg.batch_matmul ins(%xc, %gc : tensor<64x4x2xf32>, tensor<64x2x3xf32>) outs(%pz : tensor<64x4x3xf32>) -> tensor<64x4x3xf32>
  %pt = tensor.expand_shape %p [[0, 1], [2, 3, 4], [5]] output_shape [8, 8, 1, 2, 2, 3] : tensor<64x4x3xf32> into tensor<8x8x1x2x2x3xf32>
  %to = tensor.empty() : tensor<1x12x12x3xf32>
  %y = iree_linalg_ext.winograd.output_transform output_tile_size(6) kernel_size(3) image_dimensions([1, 2])
       ins(%pt : tensor<8x8x1x2x2x3xf32>) outs(%to : tensor<1x12x12x3xf32>) -> tensor<1x12x12x3xf32>
  %wino = tensor.extract_slice %y[0, 0, 0, 0] [1, 7, 8, 3] [1, 1, 1, 1] : tensor<1x12x12x3xf32> to tensor<1x7x8x3xf32>
  %de = tensor.empty() : tensor<1x7x8x3xf32>
  %dz = linalg.fill ins(%zero : f32) outs(%de : tensor<1x7x8x3xf32>) -> tensor<1x7x8x3xf32>
  %direct = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%x, %g : tensor<1x9x10x2xf32>, tensor<3x3x2x3xf32>) outs(%dz : tensor<1x7x8x3xf32>) -> tensor<1x7x8x3xf32>
  return %wino, %direct : tensor<1x7x8x3xf32>, tensor<1x7x8x3xf32>
}
