// Scalar arithmetic outside any body: torch-mlir computes an op's scalar operands before
// the op (an `alpha` scaled in f64 and truncated, a step from an argument), and writes one
// into a rank-0 tensor with tensor.insert. Each is the same expression inlined where used;
// compared with MLIR's execution. An operand beyond 2^53 (a random number generator's
// multiplier) is refused: integers are exact only below it here (mlir/refusals.mlir).
// RUN: %oracle %s --entry scaled --backend ref --backend opencl | FileCheck %s --check-prefix=SCALED
// SCALED: ref r: 15 elements match MLIR
// SCALED: opencl r: 15 elements match MLIR
// RUN: %oracle %s --entry inserted --backend ref --backend opencl | FileCheck %s --check-prefix=INSERTED
// INSERTED: ref r: 1 elements match MLIR
// INSERTED: opencl r: 1 elements match MLIR
// RUN: polyfuse check %s --entry scaled --tc | FileCheck %s --check-prefix=TC
// TC: def scaled(float(3, 5) x, int64() step, double alpha)
// TC: r(d0, d1) = x(d0, d1) + round_f32(alpha * 0.5 + step)
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scaled(%x: tensor<3x5xf32>, %alpha: f64, %step: i64) -> tensor<3x5xf32> {
    %half = arith.constant 5.000000e-01 : f64
    %a = arith.mulf %alpha, %half : f64
    %s = arith.sitofp %step : i64 to f64
    %b = arith.addf %a, %s : f64
    %t = arith.truncf %b : f64 to f32
    %0 = tensor.empty() : tensor<3x5xf32>
    %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x5xf32>) outs(%0 : tensor<3x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %in, %t : f32
      linalg.yield %1 : f32
    } -> tensor<3x5xf32>
    return %r : tensor<3x5xf32>
  }
  func.func @inserted(%seed: tensor<i64>) -> tensor<i64> {
    %c5 = arith.constant 5 : i64
    %c7 = arith.constant 7 : i64
    %v = tensor.extract %seed[] : tensor<i64>
    %m = arith.muli %v, %c5 : i64
    %n = arith.addi %m, %c7 : i64
    %r = tensor.insert %n into %seed[] : tensor<i64>
    return %r : tensor<i64>
  }
}
