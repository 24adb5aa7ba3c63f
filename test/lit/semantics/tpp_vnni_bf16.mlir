// tpp-mlir's fc benchmarks as written: type aliases for the packed operands (!A, !B, !C),
// bf16 weights in VNNI-2 layout read at (k floordiv 2, n, k mod 2) by the op's own map,
// accumulation in bf16, a bias add and ReLU on the packed result. The reduction loop over
// k runs as its parts (k = 2*k_0 + k_1). MLIR rounds every bf16 op; polyfuse computes in
// f32 and rounds where it stores, so the oracle allows a few bf16 ulps and counts them.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref v2: 120 elements match MLIR
// CHECK: opencl v2: 120 elements match MLIR
// RUN: polyfuse check %s --tc 2>/dev/null | FileCheck %s --check-prefix=TC
// TC: v0(d0, d1, d3, d4) += round_bf16(arg0(d0, d2, d3, 2*d5_0 + d5_1) * arg1(d1, d2, d5_0, d4, d5_1)) where d5_0 in 0:3, d5_1 in 0:2
#map = affine_map<(d0, d1, d2, d4, d5, d6) -> (d0, d2, d4, d6)>
#map1 = affine_map<(d0, d1, d2, d4, d5, d6) -> (d1, d2, d6 floordiv 2, d5, d6 mod 2)>
#map2 = affine_map<(d0, d1, d2, d4, d5, d6) -> (d0, d1, d4, d5)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

!A = tensor<2x3x5x6xbf16>
!B = tensor<3x3x3x4x2xbf16>
!C = tensor<2x3x5x4xbf16>

func.func @entry(%arg0: !A, %arg1: !B, %bias: !C, %output: !C) -> !C {
  %cst = arith.constant 0.000000e+00 : bf16
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]}
  ins(%arg0, %arg1 : !A, !B)
  outs(%output : !C) {
    ^bb0(%in: bf16, %in_0: bf16, %out: bf16):
      %mul = arith.mulf %in, %in_0 : bf16
      %add = arith.addf %out, %mul : bf16
      linalg.yield %add : bf16
  } -> !C
  %1 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
  ins(%bias : !C)
  outs(%0 : !C) {
    ^bb0(%in: bf16, %out: bf16):
      %add = arith.addf %in, %out : bf16
      linalg.yield %add : bf16
  } -> !C
  %2 = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
  outs(%1 : !C) {
    ^bb0(%out: bf16):
      %max = arith.maximumf %out, %cst : bf16
      linalg.yield %max : bf16
  } -> !C
  return %2 : !C
}
