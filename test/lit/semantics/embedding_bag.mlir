// torch-mlir's embedding bag (mode sum): bag b sums the rows whose positions lie in
// offsets[b] .. offsets[b + 1], the last bag up to the number of ids. offsets[b + 1]
// is read under `b + 1 == bags ? ids : ...`, so it bounds no loop: every bag is
// computed (the last one was dropped, and exec called the result verified).
// RUN: %oracle %s --backend ref --backend opencl --value 'arg2=[0, 2, 5, 7]' --value 'arg1=[3, 19, 0, 7, 7, 12, 1, 4, 18, 2]' | FileCheck %s
// CHECK: ref v12: 32 elements match MLIR
// CHECK: opencl v12: 32 elements match MLIR
// RUN: polyfuse check %s | FileCheck %s --check-prefix=RANGES
// RANGES: ranges:    d0 in 0:4, d2 in 0:8, d1 in 0:10
#map3 = affine_map<(d0, d1, d2) -> (d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @forward(%arg1: tensor<10xi64>, %arg2: tensor<4xi64>, %arg9: tensor<20x8xf32>) -> tensor<4x8xf32> {
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c1_i64 = arith.constant 1 : i64
  %c0 = arith.constant 0 : index
  %8 = tensor.empty() : tensor<4x8xf32>
  %9 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %dim = tensor.dim %arg2, %c0 : tensor<4xi64>
  %dim_3 = tensor.dim %arg1, %c0 : tensor<10xi64>
  %12 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg1, %arg2 : tensor<10xi64>, tensor<4xi64>) outs(%9 : tensor<4x8xf32>) {
  ^bb0(%in: i64, %in_10: i64, %out: f32):
    %100 = linalg.index 0 : index
    %101 = arith.index_cast %100 : index to i64
    %102 = arith.addi %101, %c1_i64 : i64
    %103 = arith.index_cast %102 : i64 to index
    %104 = arith.index_cast %dim : index to i64
    %105 = arith.cmpi eq, %104, %102 : i64
    %106 = arith.index_cast %dim_3 : index to i64
    %extracted = tensor.extract %arg2[%103] : tensor<4xi64>
    %107 = arith.select %105, %106, %extracted : i64
    %108 = linalg.index 1 : index
    %109 = arith.index_cast %108 : index to i64
    %110 = arith.cmpi slt, %in_10, %109 : i64
    %111 = arith.cmpi eq, %in_10, %109 : i64
    %112 = arith.ori %110, %111 : i1
    %113 = arith.cmpi slt, %109, %107 : i64
    %114 = arith.andi %112, %113 : i1
    %115 = arith.index_cast %in : i64 to index
    %116 = linalg.index 2 : index
    %extracted_10 = tensor.extract %arg9[%115, %116] : tensor<20x8xf32>
    %117 = arith.addf %extracted_10, %out : f32
    %118 = arith.select %114, %117, %out : f32
    linalg.yield %118 : f32
  } -> tensor<4x8xf32>
  return %12 : tensor<4x8xf32>
}
