// Tensor constants that are not splats (a LayerNorm weight written into the file, a
// position-id table, a bf16 scale held as a resource blob) become inputs that hold the
// file's elements: exec reads them instead of drawing random ones, so the results match
// MLIR's, which computes with the constants.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v1: 12 elements match MLIR
// CHECK: opencl v1: 12 elements match MLIR
// RUN: polyfuse check %s 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: constant 'cst' (line {{[0-9]+}}) becomes an input of the program, holding the file's elements
// NOTE: constant 'cst_0' (line {{[0-9]+}}) becomes an input of the program, holding the file's elements
// NOTE: constant 'cst_1' (line {{[0-9]+}}) becomes an input of the program, holding the file's elements
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
func.func @forward(%x: tensor<3x4xf32>, %table: tensor<5x4xf32>) -> tensor<3x4xf32> {
  %cst = arith.constant dense<[0.5, -2.0, 1.25, 3.0]> : tensor<4xf32>
  %cst_0 = arith.constant dense<[4, 0, 2]> : tensor<3xi64>
  %cst_1 = arith.constant dense_resource<torch_tensor_4_torch.bfloat16> : tensor<4xbf16>
  %0 = tensor.empty() : tensor<3x4xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %cst, %cst_0, %cst_1 : tensor<3x4xf32>, tensor<4xf32>, tensor<3xi64>, tensor<4xbf16>) outs(%0 : tensor<3x4xf32>) {
  ^bb0(%in: f32, %w: f32, %id: i64, %s: bf16, %out: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %p = tensor.extract %table[%i, %j] : tensor<5x4xf32>
    %sf = arith.extf %s : bf16 to f32
    %2 = arith.mulf %in, %w : f32
    %3 = arith.addf %2, %p : f32
    %4 = arith.mulf %3, %sf : f32
    linalg.yield %4 : f32
  } -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_torch.bfloat16: "0x04000000803F0040C03F80BF"
    }
  }
#-}
