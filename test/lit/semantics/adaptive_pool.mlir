// torch-mlir's adaptive average pooling (VGG16, AlexNet and ResNet's `avgpool`, as exported
// by torch-mlir): one generic computes each window's sum beside the window's size, the
// size indexed by the output's spatial loops alone (the batch and channel loops, and the
// window's, leave it as it is), and reads its padded input with tensor.extract, which
// the unit-extent folding puts behind an expand_shape. Windows of 5 over 3 outputs are
// 2, 3 and 2 wide. Compared with MLIR's execution.
// RUN: %oracle %s --entry adaptive_avg_pool --backend ref --backend opencl | FileCheck --check-prefix=POOL %s
// POOL: ref {{.*}}: 36 elements match MLIR
// POOL: opencl {{.*}}: 36 elements match MLIR
// RUN: polyfuse check %s --entry adaptive_avg_pool 2>&1 | FileCheck --check-prefix=NOTE %s
// NOTE: note: 1 tensor.extract(s) from a reshape or slice read from the tensor it views
// A result whose value changes along a loop its map leaves out has no one value there.
// RUN: not polyfuse check %s --entry varies 2>&1 | FileCheck --check-prefix=VARIES %s
// VARIES: error: {{.*}}adaptive_pool.mlir:[[@LINE+70]]:{{[0-9]+}}: loop d0 is a parallel loop but does not index result 1

func.func @adaptive_avg_pool(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x3x3xf32> {
  %c0 = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %padded = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %c0 : f32
  } : tensor<1x4x5x5xf32> to tensor<1x4x6x6xf32>
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %k = tensor.empty() : tensor<3x3xi1>
  %sizes = tensor.empty() : tensor<3x3xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>,
                                          affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>,
                                          affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%k : tensor<3x3xi1>) outs(%z, %sizes : tensor<1x4x3x3xf32>, tensor<3x3xf32>) {
  ^bb0(%in: i1, %out: f32, %out_n: f32):
    %n = linalg.index 0 : index
    %ch = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %p = linalg.index 4 : index
    %q = linalg.index 5 : index
    %i5 = arith.muli %i, %c5 : index
    %h0 = arith.floordivsi %i5, %c3 : index
    %i1 = arith.addi %i, %c1 : index
    %i15 = arith.muli %i1, %c5 : index
    %i15m = arith.subi %i15, %c1 : index
    %h1d = arith.floordivsi %i15m, %c3 : index
    %h1 = arith.addi %h1d, %c1 : index
    %j5 = arith.muli %j, %c5 : index
    %w0 = arith.floordivsi %j5, %c3 : index
    %j1 = arith.addi %j, %c1 : index
    %j15 = arith.muli %j1, %c5 : index
    %j15m = arith.subi %j15, %c1 : index
    %w1d = arith.floordivsi %j15m, %c3 : index
    %w1 = arith.addi %w1d, %c1 : index
    %h = arith.addi %h0, %p : index
    %w = arith.addi %w0, %q : index
    %v = tensor.extract %padded[%n, %ch, %h, %w] : tensor<1x4x6x6xf32>
    %inh = arith.cmpi ult, %h, %h1 : index
    %vh = arith.select %inh, %v, %c0 : f32
    %inw = arith.cmpi ult, %w, %w1 : index
    %vw = arith.select %inw, %vh, %c0 : f32
    %sum = arith.addf %vw, %out : f32
    %dh = arith.subi %h1, %h0 : index
    %dw = arith.subi %w1, %w0 : index
    %area = arith.muli %dh, %dw : index
    %ai = arith.index_cast %area : index to i64
    %af = arith.sitofp %ai : i64 to f32
    linalg.yield %sum, %af : f32, f32
  } -> (tensor<1x4x3x3xf32>, tensor<3x3xf32>)
  %avg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>,
                                          affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r#1 : tensor<3x3xf32>) outs(%r#0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %out, %in : f32
    linalg.yield %d : f32
  } -> tensor<1x4x3x3xf32>
  return %avg : tensor<1x4x3x3xf32>
}

func.func @varies(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<2x3xf32>
  %e1 = tensor.empty() : tensor<3xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%e, %e1 : tensor<2x3xf32>, tensor<3xf32>) {
  ^bb0(%in: f32, %o: f32, %o1: f32):
    linalg.yield %in, %in : f32, f32
  } -> (tensor<2x3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<3xf32>
}
