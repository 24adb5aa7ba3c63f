// Quantized data as torch-mlir and IREE write it: i8 operands with zero points
// (linalg.quantized_matmul, generalized by MLIR into extsi, subi, muli, addi), an i16
// bias widened with extsi, a requantization that rounds back to i8 with fptosi and
// trunci, and the i32 accumulator returned as it is. The i8 and i16 inputs are stored
// in one and two bytes and drawn over both signs (here and by exec), so every sign
// extension is exercised. The oracle hands them to exec as int8 and int16 .npy files.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v2: 15 elements match MLIR
// CHECK: ref v4: 15 elements match MLIR
// CHECK: opencl v2: 15 elements match MLIR
// CHECK: opencl v4: 15 elements match MLIR
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s --check-prefix=TC
// TC: def forward(int8(5, 7) arg0, int8(7, 3) arg1, int16(3) arg2)
// RUN: rm -rf %t && polyfuse codegen %s -o %t > /dev/null && FileCheck %s --check-prefix=CUDA < %t/kernels.cu
// CUDA: const signed char* {{.*}}arg0
// CUDA: const short* {{.*}}arg2
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {torch.debug_module_name = "QLinear"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<5x7xi8>, %arg1: tensor<7x3xi8>, %arg2: tensor<3xi16>) -> (tensor<5x3xi32>, tensor<5x3xf32>) {
    %c0_i32 = arith.constant 0 : i32
    %c3_i32 = arith.constant 3 : i32
    %c-2_i32 = arith.constant -2 : i32
    %cst = arith.constant 1.250000e-01 : f32
    %cst_0 = arith.constant -1.280000e+02 : f32
    %cst_1 = arith.constant 1.270000e+02 : f32
    %0 = tensor.empty() : tensor<5x3xi32>
    %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<5x3xi32>) -> tensor<5x3xi32>
    %2 = linalg.quantized_matmul ins(%arg0, %arg1, %c3_i32, %c-2_i32 : tensor<5x7xi8>, tensor<7x3xi8>, i32, i32) outs(%1 : tensor<5x3xi32>) -> tensor<5x3xi32>
    %3 = tensor.empty() : tensor<5x3xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<5x3xi32>, tensor<3xi16>) outs(%3 : tensor<5x3xf32>) {
    ^bb0(%in: i32, %b: i16, %out: f32):
      %5 = arith.extsi %b : i16 to i32
      %6 = arith.addi %in, %5 : i32
      %7 = arith.sitofp %6 : i32 to f32
      %8 = arith.mulf %7, %cst : f32
      %9 = arith.maximumf %8, %cst_0 : f32
      %10 = arith.minimumf %9, %cst_1 : f32
      %11 = arith.fptosi %10 : f32 to i32
      %12 = arith.trunci %11 : i32 to i8
      %13 = arith.sitofp %12 : i8 to f32
      linalg.yield %13 : f32
    } -> tensor<5x3xf32>
    return %2, %4 : tensor<5x3xi32>, tensor<5x3xf32>
  }
}
