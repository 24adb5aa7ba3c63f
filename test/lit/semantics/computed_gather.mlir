// Ids a body computes, not from loop indices alone (T5's relative position buckets: the
// log of the distance (math.absi), truncated and capped), are kept as the integers they are: the
// ids tensor is an int64 temporary, and the bias table is gathered through it. Every
// strategy's OpenCL, compared with MLIR's execution.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// RUN: %oracle %s --backend opencl --strategy nofuse | FileCheck --check-prefix=CL %s
// RUN: %oracle %s --backend opencl --strategy greedy | FileCheck --check-prefix=CL %s
// CHECK: ref r: 50 elements match MLIR
// CHECK: opencl r: 50 elements match MLIR
// CL: opencl r: 50 elements match MLIR
// RUN: polyfuse check %s | FileCheck --check-prefix=TYPE %s
// TYPE: bucket temporary int64(5, 5)
// TYPE: r(d0, d1, d2) = table(bucket(d1, d2), d0)
func.func @bias(%table: tensor<8x2xf32>) -> tensor<2x5x5xf32> {
  %e = tensor.empty() : tensor<5x5xi64>
  %bucket = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<5x5xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %d = arith.subi %ii, %jj : i64
    %abs = math.absi %d : i64
    %f = arith.sitofp %abs : i64 to f32
    %one = arith.constant 1.0 : f32
    %f1 = arith.addf %f, %one : f32
    %l = math.log %f1 : f32
    %four = arith.constant 4.0 : f32
    %s = arith.mulf %l, %four : f32
    %b = arith.fptosi %s : f32 to i64
    %seven = arith.constant 7 : i64
    %m = arith.minsi %b, %seven : i64
    linalg.yield %m : i64
  } -> tensor<5x5xi64>
  %e2 = tensor.empty() : tensor<2x5x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bucket : tensor<5x5xi64>) outs(%e2 : tensor<2x5x5xf32>) {
  ^bb0(%id: i64, %o: f32):
    %x = arith.index_cast %id : i64 to index
    %h = linalg.index 0 : index
    %v = tensor.extract %table[%x, %h] : tensor<8x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x5x5xf32>
  return %r : tensor<2x5x5xf32>
}
