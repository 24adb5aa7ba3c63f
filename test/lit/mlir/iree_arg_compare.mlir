// IREE's iree_linalg_ext.arg_compare read as one generic with two results: the element the
// op's region prefers to the one kept so far, and its position along the reduced
// dimension (plus index_base). The expected values are worked out by hand from the
// sources below: ties keep the first position for a strict compare, as IREE's scalar
// implementation does.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse exec %s --entry rows --backend opencl --dump %t/rows | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; d = numpy.load('%t/rows/r_0.npy').tolist(), numpy.load('%t/rows/r_1.npy').tolist(); print(d)" | FileCheck --check-prefix=ROWS %s
// ROWS: ([6.0, 9.0], [1.0, 2.0])
// RUN: polyfuse exec %s --entry based --backend opencl --dump %t/based | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; d = numpy.load('%t/based/r_0.npy').tolist(), numpy.load('%t/based/r_1.npy').tolist(); print(d)" | FileCheck --check-prefix=BASED %s
// BASED: (2.0, 101.0)
// VERIFIED: verified: yes
// RUN: polyfuse check %s --entry rows --tc 2>&1 | FileCheck --check-prefix=TC %s
// TC: note: read 2 iree_linalg_ext.arg_compare op(s) as the generic that reduces to the element the op's region prefers and its position
// TC: r_0(d0) fmax=! input(d0, d1)
// TC-NEXT: r_1(d0) min=! input(d0, d1) == r_0(d0) ? d1 : inf
// RUN: polyfuse check %s --entry based --tc 2>/dev/null | FileCheck --check-prefix=BASE %s
// BASE: r_1 min=! input(d0) == r_0 ? d0 + 100.0 : inf
func.func @rows() {
  %input = util.unfoldable_constant dense<[[1.0, 6.0, 3.0, 6.0, 2.0, 0.0], [4.0, -1.0, 9.0, 9.0, 2.0, 9.0]]> : tensor<2x6xf32>
  %ve = tensor.empty() : tensor<2xf32>
  %ie = tensor.empty() : tensor<2xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %vi = linalg.fill ins(%ninf : f32) outs(%ve : tensor<2xf32>) -> tensor<2xf32>
  %ii = linalg.fill ins(%c0 : i32) outs(%ie : tensor<2xi32>) -> tensor<2xi32>
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%input : tensor<2x6xf32>)
      outs(%vi, %ii : tensor<2xf32>, tensor<2xi32>) {
    ^bb0(%a: f32, %b: f32):
      %cmp = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %cmp : i1
  } -> tensor<2xf32>, tensor<2xi32>
  check.expect_eq(%r#0, %r#0) : tensor<2xf32>
  check.expect_eq(%r#1, %r#1) : tensor<2xi32>
  return
}
func.func @based() {
  %input = util.unfoldable_constant dense<[5.0, 2.0, 7.0, 2.0]> : tensor<4xf32>
  %ve = tensor.empty() : tensor<f32>
  %ie = tensor.empty() : tensor<i32>
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : i32
  %base = arith.constant 100 : index
  %vi = linalg.fill ins(%inf : f32) outs(%ve : tensor<f32>) -> tensor<f32>
  %ii = linalg.fill ins(%c0 : i32) outs(%ie : tensor<i32>) -> tensor<i32>
  %r:2 = iree_linalg_ext.arg_compare dimension(0) ins(%input : tensor<4xf32>)
      outs(%vi, %ii : tensor<f32>, tensor<i32>) index_base(%base : index) {
    ^bb0(%a: f32, %b: f32):
      %cmp = arith.cmpf olt, %a, %b : f32
      iree_linalg_ext.yield %cmp : i1
  } -> tensor<f32>, tensor<i32>
  check.expect_eq(%r#0, %r#0) : tensor<f32>
  check.expect_eq(%r#1, %r#1) : tensor<i32>
  return
}
