// Scatters as IREE (iree_linalg_ext) and torch-mlir (tm_tensor) write them, read as
// affine generics over the batch: an element of the result takes the updates whose
// indices hit it. A region that adds is one reduction started from the original; one that
// replaces counts the hits and sums their values (the largest where indices need not be
// unique), then keeps the original where nothing hit. Neither dialect runs in MLIR 19: the
// values are checked against the scattered constants written here.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry masked_rows --tc 2>&1 | FileCheck %s --check-prefix=TC
// TC: note: read 1 iree_linalg_ext.scatter op(s)
// TC: pf_scatter_r_hits(d0, d1) +=! ids(d2, 0) == d0 ? (mask(d2) != 0 ? 1 : 0) : 0 where d0 in 0:4, d1 in 0:2
// TC: r(d0, d1) = pf_scatter_r_hits(d0, d1) > 0 ? pf_scatter_r_value(d0, d1) : 0.0
// RUN: polyfuse exec %s --entry masked_rows --backend opencl --dump %t/m | FileCheck %s --check-prefix=EXEC
// EXEC: verified: yes
// RUN: %python -c "import numpy as n; print(n.load('%t/m/r.npy').tolist())" | FileCheck %s --check-prefix=ROWS
// ROWS: {{\[}}[0.0, 0.0], [0.0, 0.0], [5.0, 6.0], [1.0, 2.0]]
// RUN: polyfuse exec %s --entry added --backend opencl --dump %t/a | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n; print(n.load('%t/a/r.npy').tolist())" | FileCheck %s --check-prefix=ADDED
// ADDED: {{\[}}[1.0, 7.0], [1.0, 1.0]]
// RUN: polyfuse exec %s --entry repeated --backend opencl --dump %t/p | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n; print(n.load('%t/p/r.npy').tolist())" | FileCheck %s --check-prefix=REPEATED
// REPEATED: [-1.0, 4.0, -1.0]
module {
  func.func @masked_rows() -> tensor<4x2xf32> {
    %orig = arith.constant dense<0.0> : tensor<4x2xf32>
    %upd = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
    %ids = arith.constant dense<[[3], [1], [2]]> : tensor<3x1xi32>
    %mask = arith.constant dense<[true, false, true]> : tensor<3xi1>
    %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(true)
           ins(%upd, %ids, %mask : tensor<3x2xf32>, tensor<3x1xi32>, tensor<3xi1>)
           outs(%orig : tensor<4x2xf32>) {
      ^bb0(%a: f32, %b: f32):
        iree_linalg_ext.yield %a : f32
    } -> tensor<4x2xf32>
    return %r : tensor<4x2xf32>
  }
  func.func @added() -> tensor<2x2xf32> {
    %orig = arith.constant dense<1.0> : tensor<2x2xf32>
    %upd = arith.constant dense<[2.5, 3.5]> : tensor<2xf32>
    %ids = arith.constant dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>
    %r = tm_tensor.scatter {dimension_map = array<i64: 0, 1>} unique_indices(false) ins(%upd, %ids : tensor<2xf32>, tensor<2x2xi64>) outs(%orig : tensor<2x2xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %b, %a : f32
      tm_tensor.yield %s : f32
    } -> tensor<2x2xf32>
    return %r : tensor<2x2xf32>
  }
  func.func @repeated() -> tensor<3xf32> {
    %orig = arith.constant dense<-1.0> : tensor<3xf32>
    %upd = arith.constant dense<[4.0, 2.0]> : tensor<2xf32>
    %ids = arith.constant dense<[[1], [1]]> : tensor<2x1xi64>
    %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%upd, %ids : tensor<2xf32>, tensor<2x1xi64>) outs(%orig : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32):
      tm_tensor.yield %a : f32
    } -> tensor<3xf32>
    return %r : tensor<3xf32>
  }
}
