// Results of types MLIR's runtime cannot print (an i1 mask, an i8 result) are widened by
// the oracle, exactly, before printing; polyfuse returns them as f32 values (0/1, and the
// signed value of the i8, wrapped from values up to 300), with a note.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v1: 15 elements match MLIR
// CHECK: ref v3: 15 elements match MLIR
// CHECK: opencl v1: 15 elements match MLIR
// CHECK: opencl v3: 15 elements match MLIR
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @forward(%x: tensor<3x5xf32>) -> (tensor<3x5xi1>, tensor<3x5xi8>) {
  %cst = arith.constant 0.25 : f32
  %cst_0 = arith.constant 300.0 : f32
  %0 = tensor.empty() : tensor<3x5xi1>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x5xf32>) outs(%0 : tensor<3x5xi1>) {
  ^bb0(%in: f32, %out: i1):
    %c = arith.cmpf ogt, %in, %cst : f32
    linalg.yield %c : i1
  } -> tensor<3x5xi1>
  %2 = tensor.empty() : tensor<3x5xi8>
  %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x5xf32>) outs(%2 : tensor<3x5xi8>) {
  ^bb0(%in: f32, %out: i8):
    %m = arith.mulf %in, %cst_0 : f32
    %i = arith.fptosi %m : f32 to i32
    %t = arith.trunci %i : i32 to i8
    linalg.yield %t : i8
  } -> tensor<3x5xi8>
  return %1, %3 : tensor<3x5xi1>, tensor<3x5xi8>
}
