// An LSTM unrolled over two steps, as torch-mlir exports it (gates from one matmul per
// input, sigmoid and tanh, the steps' hidden states concatenated): checked against MLIR's
// execution, and planned with `fuse --json`, whose stdout must stay one JSON document
// (CBC printed "3 slacks added" there when a warm start was loaded).
// RUN: %oracle %s --backend ref | FileCheck %s
// CHECK: ref concat: 32 elements match MLIR
// RUN: polyfuse fuse %s --json 2>/dev/null | %python -c "import json, sys; d = json.load(sys.stdin); print(d['solver']['status'], d['dram_bytes'] >= d['lower_bound_bytes'])" | FileCheck %s --check-prefix=JSON
// JSON: optimal True
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1, d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module attributes {torch.debug_module_name = "LSTMUnrolled"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @forward(%arg0: tensor<2x2x8xf32>, %arg1: tensor<2x8xf32>, %arg2: tensor<2x8xf32>, %arg3: tensor<32x8xf32>, %arg4: tensor<32x8xf32>, %arg5: tensor<32xf32>, %arg6: tensor<32xf32>) -> (tensor<2x2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<8x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg3 : tensor<32x8xf32>) outs(%0 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x32xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg4 : tensor<32x8xf32>) outs(%0 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x32xf32>
    %3 = tensor.empty() : tensor<2x32xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<2x32xf32>) -> tensor<2x32xf32>
    %5 = tensor.empty() : tensor<2x8xf32>
    %extracted_slice_t0 = tensor.extract_slice %arg0[0, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<2x2x8xf32> to tensor<2x8xf32>
    %7 = linalg.matmul ins(%extracted_slice_t0, %1 : tensor<2x8xf32>, tensor<8x32xf32>) outs(%4 : tensor<2x32xf32>) -> tensor<2x32xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %arg5 : tensor<2x32xf32>, tensor<32xf32>) outs(%3 : tensor<2x32xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %100 = arith.addf %in, %in_1 : f32
      linalg.yield %100 : f32
    } -> tensor<2x32xf32>
    %9 = linalg.matmul ins(%arg1, %2 : tensor<2x8xf32>, tensor<8x32xf32>) outs(%4 : tensor<2x32xf32>) -> tensor<2x32xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %9, %arg6 : tensor<2x32xf32>, tensor<2x32xf32>, tensor<32xf32>) outs(%3 : tensor<2x32xf32>) {
    ^bb0(%in: f32, %in_1: f32, %in_2: f32, %out: f32):
      %100 = arith.addf %in, %in_1 : f32
      %101 = arith.addf %100, %in_2 : f32
      linalg.yield %101 : f32
    } -> tensor<2x32xf32>
    %extracted_slice_t0_0 = tensor.extract_slice %10[0, 0] [2, 8] [1, 1] : tensor<2x32xf32> to tensor<2x8xf32>
    %extracted_slice_t0_1 = tensor.extract_slice %10[0, 8] [2, 8] [1, 1] : tensor<2x32xf32> to tensor<2x8xf32>
    %extracted_slice_t0_2 = tensor.extract_slice %10[0, 16] [2, 8] [1, 1] : tensor<2x32xf32> to tensor<2x8xf32>
    %extracted_slice_t0_3 = tensor.extract_slice %10[0, 24] [2, 8] [1, 1] : tensor<2x32xf32> to tensor<2x8xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_t0_0 : tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = arith.negf %in : f32
      %101 = math.exp %100 : f32
      %102 = arith.addf %101, %cst_0 : f32
      %103 = arith.divf %cst_0, %102 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_t0_1 : tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = arith.negf %in : f32
      %101 = math.exp %100 : f32
      %102 = arith.addf %101, %cst_0 : f32
      %103 = arith.divf %cst_0, %102 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_t0_2 : tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = math.tanh %in : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_t0_3 : tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = arith.negf %in : f32
      %101 = math.exp %100 : f32
      %102 = arith.addf %101, %cst_0 : f32
      %103 = arith.divf %cst_0, %102 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%12, %arg2 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %100 = arith.mulf %in, %in_1 : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %13 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %100 = arith.mulf %in, %in_1 : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%15, %16 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %100 = arith.addf %in, %in_1 : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%17 : tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = math.tanh %in : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%14, %18 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %100 = arith.mulf %in, %in_1 : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %expanded_t0 = tensor.expand_shape %19 [[0, 1], [2]] output_shape [1, 2, 8] : tensor<2x8xf32> into tensor<1x2x8xf32>
    %extracted_slice_t1 = tensor.extract_slice %arg0[1, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<2x2x8xf32> to tensor<2x8xf32>
    %20 = linalg.matmul ins(%extracted_slice_t1, %1 : tensor<2x8xf32>, tensor<8x32xf32>) outs(%4 : tensor<2x32xf32>) -> tensor<2x32xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%20, %arg5 : tensor<2x32xf32>, tensor<32xf32>) outs(%3 : tensor<2x32xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %100 = arith.addf %in, %in_1 : f32
      linalg.yield %100 : f32
    } -> tensor<2x32xf32>
    %22 = linalg.matmul ins(%19, %2 : tensor<2x8xf32>, tensor<8x32xf32>) outs(%4 : tensor<2x32xf32>) -> tensor<2x32xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%21, %22, %arg6 : tensor<2x32xf32>, tensor<2x32xf32>, tensor<32xf32>) outs(%3 : tensor<2x32xf32>) {
    ^bb0(%in: f32, %in_1: f32, %in_2: f32, %out: f32):
      %100 = arith.addf %in, %in_1 : f32
      %101 = arith.addf %100, %in_2 : f32
      linalg.yield %101 : f32
    } -> tensor<2x32xf32>
    %extracted_slice_t1_0 = tensor.extract_slice %23[0, 0] [2, 8] [1, 1] : tensor<2x32xf32> to tensor<2x8xf32>
    %extracted_slice_t1_1 = tensor.extract_slice %23[0, 8] [2, 8] [1, 1] : tensor<2x32xf32> to tensor<2x8xf32>
    %extracted_slice_t1_2 = tensor.extract_slice %23[0, 16] [2, 8] [1, 1] : tensor<2x32xf32> to tensor<2x8xf32>
    %extracted_slice_t1_3 = tensor.extract_slice %23[0, 24] [2, 8] [1, 1] : tensor<2x32xf32> to tensor<2x8xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_t1_0 : tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = arith.negf %in : f32
      %101 = math.exp %100 : f32
      %102 = arith.addf %101, %cst_0 : f32
      %103 = arith.divf %cst_0, %102 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_t1_1 : tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = arith.negf %in : f32
      %101 = math.exp %100 : f32
      %102 = arith.addf %101, %cst_0 : f32
      %103 = arith.divf %cst_0, %102 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_t1_2 : tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = math.tanh %in : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_t1_3 : tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = arith.negf %in : f32
      %101 = math.exp %100 : f32
      %102 = arith.addf %101, %cst_0 : f32
      %103 = arith.divf %cst_0, %102 : f32
      linalg.yield %103 : f32
    } -> tensor<2x8xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%25, %17 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %100 = arith.mulf %in, %in_1 : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%24, %26 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %100 = arith.mulf %in, %in_1 : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %30 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%28, %29 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %100 = arith.addf %in, %in_1 : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %31 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%30 : tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %100 = math.tanh %in : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %32 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%27, %31 : tensor<2x8xf32>, tensor<2x8xf32>) outs(%5 : tensor<2x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %100 = arith.mulf %in, %in_1 : f32
      linalg.yield %100 : f32
    } -> tensor<2x8xf32>
    %expanded_t1 = tensor.expand_shape %32 [[0, 1], [2]] output_shape [1, 2, 8] : tensor<2x8xf32> into tensor<1x2x8xf32>
    %concat = tensor.concat dim(0) %expanded_t0, %expanded_t1 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<2x2x8xf32>
    return %concat, %32, %30 : tensor<2x2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
  }
}
