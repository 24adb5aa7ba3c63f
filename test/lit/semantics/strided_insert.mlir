// A tensor.insert_slice with strides: each strided dimension e of the destination viewed
// as (e / stride, stride), the slice inserted there with unit strides, then the collapse
// back (IREE's strided-slice regression test writes one). Compared with MLIR's execution;
// a stride that does not divide its dimension stays refused.
// RUN: %oracle %s --entry strided --backend ref --backend opencl | FileCheck --check-prefix=STRIDED %s
// STRIDED: ref {{.*}}: 120 elements match MLIR
// STRIDED: opencl {{.*}}: 120 elements match MLIR
// RUN: polyfuse check %s --entry strided 2>&1 | FileCheck --check-prefix=NOTE %s
// NOTE: note: 1 insert_slice(s) with strides
// RUN: not polyfuse check %s --entry not_dividing 2>&1 | FileCheck --check-prefix=REFUSED %s
// REFUSED: error: {{.*}}strided_insert.mlir:[[@LINE+16]]:{{[0-9]+}}: insert_slice with a stride other than 1 is not supported

func.func @strided(%x: tensor<3x3xf32>, %d: tensor<10x12xf32>) -> tensor<10x12xf32> {
  %e = tensor.empty() : tensor<10x12xf32>
  %dd = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]} ins(%d : tensor<10x12xf32>) outs(%e : tensor<10x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.tanh %in : f32
    linalg.yield %t : f32
  } -> tensor<10x12xf32>
  // Rows 1, 3, 5 and columns 2, 5, 8.
  %r = tensor.insert_slice %x into %dd[1, 2] [3, 3] [2, 3] : tensor<3x3xf32> into tensor<10x12xf32>
  return %r : tensor<10x12xf32>
}

func.func @not_dividing(%x: tensor<3xf32>, %d: tensor<10xf32>) -> tensor<10xf32> {
  %r = tensor.insert_slice %x into %d[0] [3] [4] : tensor<3xf32> into tensor<10xf32>
  return %r : tensor<10xf32>
}
