// IREE's data-tiling encodings, as its e2e tests write them: `#iree_encoding.encoding<..>`
// on tensor types (inline or through an alias), `iree_encoding.set_encoding` before an op
// and `unset_encoding` after it. An encoding is a layout, not a value: it is dropped, and
// both ops are their operand. The sum computed under the encoding equals the plain one.
// RUN: polyfuse check %s --entry encoded_sum --tc 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: IREE's tensor encodings are layouts, not values: dropped (set_encoding and unset_encoding are their operand)
// NOTE: iree_encoding.set_encoding and unset_encoding of one shape are their operand
// NOTE: def encoded_sum(
// RUN: rm -rf %t && polyfuse exec %s --entry encoded_sum --backend opencl --dump %t/s | FileCheck %s --check-prefix=EXEC
// EXEC: verified: yes
// RUN: %python -c "import numpy as n; a, b = n.load('%t/s/v3.npy'), n.load('%t/s/expected_copy.npy'); print(a.shape, (a == b).all(), a[2, 3])" | FileCheck %s --check-prefix=EQUAL
// EQUAL: (5, 7) True 34.0
#map = affine_map<(d0, d1) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map, #map]>
func.func @encoded_sum() {
  %source = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0], [14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0], [28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0]]> : tensor<5x7xf32>
  %1 = iree_encoding.set_encoding %source : tensor<5x7xf32> -> tensor<5x7xf32, #lhs>
  %2 = tensor.empty() : tensor<5x7xf32, #lhs>
  %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %1 : tensor<5x7xf32, #lhs>, tensor<5x7xf32, #lhs>) outs(%2 : tensor<5x7xf32, #lhs>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %4 = arith.addf %in, %in_0 : f32
    linalg.yield %4 : f32
  } -> tensor<5x7xf32, #lhs>
  %5 = iree_encoding.unset_encoding %3 : tensor<5x7xf32, #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32]>> -> tensor<5x7xf32>
  %expected = arith.addf %source, %source : tensor<5x7xf32>
  check.expect_almost_eq(%5, %expected) : tensor<5x7xf32>
  return
}
