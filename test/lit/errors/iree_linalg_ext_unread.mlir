// An iree_linalg_ext op polyfuse does not read is refused at the op with the reason, not
// MLIR's "dialect not found": here arg_compare's explicit indices (the first position of
// the extreme is no reduction of the indices' values).
// RUN: not polyfuse check %s 2>&1 | FileCheck %s
// CHECK: iree_linalg_ext_unread.mlir:[[@LINE+6]]:10: iree_linalg_ext.arg_compare: this form is not read: polyfuse reads one input with positions from the reduced dimension (an index_base added), not explicit indices (read: attention, online_attention, gather, arg_compare, sort, topk, scan, scatter, map_load, map_store, winograd)
func.func @explicit() {
  %input = util.unfoldable_constant dense<[[3.0, 8.0, 8.0]]> : tensor<1x3xf32>
  %ids = util.unfoldable_constant dense<[[10, 11, 12]]> : tensor<1x3xi32>
  %ve = tensor.empty() : tensor<1xf32>
  %ie = tensor.empty() : tensor<1xi32>
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%input, %ids : tensor<1x3xf32>, tensor<1x3xi32>)
      outs(%ve, %ie : tensor<1xf32>, tensor<1xi32>) {
    ^bb0(%a: f32, %b: f32):
      %cmp = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %cmp : i1
  } -> tensor<1xf32>, tensor<1xi32>
  check.expect_eq(%r#1, %r#1) : tensor<1xi32>
  return
}
