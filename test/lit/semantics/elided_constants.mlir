// torch-mlir elides large weights (dense_resource<__elided__>), which MLIR cannot execute.
// The oracle writes drawn elements into a copy of the file that MLIR and polyfuse both
// read, so a whole-model export is checked with the weights it names, here a Linear with
// its weight read transposed and its bias, at odd sizes.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v4: 35 elements match MLIR
// CHECK: opencl v4: 35 elements match MLIR
// Alone, polyfuse draws the elided elements itself and says so.
// RUN: polyfuse check %s 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: note: constant 'cst' (line {{[0-9]+}}) becomes an input of the program, its elements left out of the file: exec draws them
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {torch.debug_module_name = "Linear"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<5x9xf32>) -> tensor<5x7xf32> {
    %cst = arith.constant dense_resource<__elided__> : tensor<7x9xf32>
    %cst_0 = arith.constant dense_resource<__elided__> : tensor<7xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<9x7xf32>
    %transposed = linalg.transpose ins(%cst : tensor<7x9xf32>) outs(%0 : tensor<9x7xf32>) permutation = [1, 0]
    %1 = tensor.empty() : tensor<5x7xf32>
    %2 = linalg.fill ins(%cst_1 : f32) outs(%1 : tensor<5x7xf32>) -> tensor<5x7xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<5x9xf32>, tensor<9x7xf32>) outs(%2 : tensor<5x7xf32>) -> tensor<5x7xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_0 : tensor<5x7xf32>, tensor<7xf32>) outs(%1 : tensor<5x7xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %5 = arith.addf %in, %in_2 : f32
      linalg.yield %5 : f32
    } -> tensor<5x7xf32>
    return %4 : tensor<5x7xf32>
  }
}
