// IREE's iree_linalg_ext.gather read as one generic that extracts each element at the
// indices' values (polyfuse's gather): rows by one index, elements by pairs (the map in
// either order), and a mask that keeps the output's element where false. The expected
// values are worked out by hand from the sources below (row-major 0..11). Indices that
// are constants of the file become affine reads (the ids 3, 1 are -2*d0 + 3).
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse exec %s --entry rows --backend opencl --dump %t/rows | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/rows/r.npy').tolist())" | FileCheck --check-prefix=ROWS %s
// ROWS: {{\[}}[9.0, 10.0, 11.0], [3.0, 4.0, 5.0]]
// RUN: polyfuse exec %s --entry pairs --backend opencl --dump %t/pairs | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/pairs/r.npy').tolist())" | FileCheck --check-prefix=PAIRS %s
// PAIRS: [9.0, 2.0]
// RUN: polyfuse exec %s --entry swapped --backend opencl --dump %t/swapped | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/swapped/r.npy').tolist())" | FileCheck --check-prefix=SWAPPED %s
// SWAPPED: [6.0, 8.0]
// RUN: polyfuse exec %s --entry masked --backend opencl --dump %t/masked | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/masked/r.npy').tolist())" | FileCheck --check-prefix=MASKED %s
// MASKED: {{\[}}[-1.0, -1.0, -1.0], [3.0, 4.0, 5.0]]
// VERIFIED: verified: yes
// RUN: polyfuse check %s --entry rows --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// RUN: polyfuse check %s --entry rows --tc 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// TC: r(d0, d1) = source(-2*d0 + 3, d1) where d0 in 0:2, d1 in 0:3
// NOTE: note: read 4 iree_linalg_ext.gather op(s) as the generic that extracts each element from the source at the indices' values
func.func @rows() {
  %source = util.unfoldable_constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]> : tensor<4x3xf32>
  %ids = util.unfoldable_constant dense<[3, 1]> : tensor<2xi32>
  %empty = tensor.empty() : tensor<2x3xf32>
  %r = iree_linalg_ext.gather dimension_map = [0]
         ins(%source, %ids : tensor<4x3xf32>, tensor<2xi32>) outs(%empty : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq(%r, %r) : tensor<2x3xf32>
  return
}
func.func @pairs() {
  %source = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %ids = util.unfoldable_constant dense<[[2, 1], [0, 2]]> : tensor<2x2xi32>
  %empty = tensor.empty() : tensor<2xf32>
  %r = iree_linalg_ext.gather dimension_map = [0, 1]
         ins(%source, %ids : tensor<3x4xf32>, tensor<2x2xi32>) outs(%empty : tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq(%r, %r) : tensor<2xf32>
  return
}
func.func @swapped() {
  %source = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %ids = util.unfoldable_constant dense<[[2, 1], [0, 2]]> : tensor<2x2xi32>
  %empty = tensor.empty() : tensor<2xf32>
  %r = iree_linalg_ext.gather dimension_map = [1, 0]
         ins(%source, %ids : tensor<3x4xf32>, tensor<2x2xi32>) outs(%empty : tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq(%r, %r) : tensor<2xf32>
  return
}
func.func @masked() {
  %source = util.unfoldable_constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]> : tensor<4x3xf32>
  %ids = util.unfoldable_constant dense<[3, 1]> : tensor<2xi32>
  %keep = util.unfoldable_constant dense<[false, true]> : tensor<2xi1>
  %init = util.unfoldable_constant dense<[[-1.0, -1.0, -1.0], [-2.0, -2.0, -2.0]]> : tensor<2x3xf32>
  %r = iree_linalg_ext.gather dimension_map = [0]
         ins(%source, %ids, %keep : tensor<4x3xf32>, tensor<2xi32>, tensor<2xi1>) outs(%init : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq(%r, %r) : tensor<2x3xf32>
  return
}
