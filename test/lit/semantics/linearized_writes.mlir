// A generic writing its result through a linearization of loops (tpp-mlir's relayout of
// 2x2 blocks back to rows, `(n1 * 2 + n2, c1 * 2 + c2)`; a row of 2x3x4 positions as
// `d0 * 12 + d1 * 4 + d2`) is read as writing the result's expansion, then the collapse
// back. Compared with MLIR's execution. A map that is not one-to-one onto the result
// (strides that skip or overlap) stays refused.
// RUN: %oracle %s --entry blocks_to_rows --backend ref --backend opencl | FileCheck --check-prefix=ROWS %s
// ROWS: ref {{.*}}: 24 elements match MLIR
// ROWS: opencl {{.*}}: 24 elements match MLIR
// RUN: polyfuse check %s --entry blocks_to_rows 2>&1 | FileCheck --check-prefix=NOTE %s
// NOTE: note: 1 generic(s) write a result through a linearization of loops
// RUN: %oracle %s --entry three_levels --backend ref --backend opencl | FileCheck --check-prefix=THREE %s
// THREE: ref {{.*}}: 24 elements match MLIR
// THREE: opencl {{.*}}: 24 elements match MLIR
// RUN: not polyfuse check %s --entry overlapping 2>&1 | FileCheck --check-prefix=OVER %s
// OVER: error: {{.*}}linearized_writes.mlir:[[@LINE+28]]:{{[0-9]+}}: result 0 is written through a map that is not a projection of the loops

func.func @blocks_to_rows(%x: tensor<2x3x2x2xf32>) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n1, c1, n2, c2) -> (n1, c1, n2, c2)>,
                                        affine_map<(n1, c1, n2, c2) -> (n1 * 2 + n2, c1 * 2 + c2)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x2x2xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.tanh %in : f32
    linalg.yield %t : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

func.func @three_levels(%x: tensor<4x3x2xf32>) -> tensor<24xf32> {
  %e = tensor.empty() : tensor<24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (c, b, a)>, affine_map<(a, b, c) -> (a * 12 + b * 4 + c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x3x2xf32>) outs(%e : tensor<24xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<24xf32>
  return %r : tensor<24xf32>
}

func.func @overlapping(%x: tensor<3x3xf32>) -> tensor<7xf32> {
  %e = tensor.empty() : tensor<7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a * 2 + b)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x3xf32>) outs(%e : tensor<7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<7xf32>
  return %r : tensor<7xf32>
}
