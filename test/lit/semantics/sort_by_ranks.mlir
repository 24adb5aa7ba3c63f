// Sorts and top-k as torch-mlir (tm_tensor) and IREE (iree_linalg_ext) write them, read as
// affine generics: each element's rank is the number of elements the comparator puts
// before it, ties broken by position (so the order is stable), and output position r
// takes the element of rank r. Neither dialect runs in MLIR 19, so the values are checked
// against the sorted constants written here.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry sort_rows --tc 2>&1 | FileCheck %s --check-prefix=TC
// TC: note: read 1 tm_tensor.sort op(s) by ranks
// TC: pf_rank_s(d0, d1) +=! x(d0, d2) <= x(d0, d1) ? (x(d0, d1) <= x(d0, d2) ? (d2 < d1 ? 1 : 0) : 1) : (x(d0, d1) <= x(d0, d2) ? 0 : (d2 < d1 ? 1 : 0))
// TC: s_0(d0, d1) +=! pf_rank_s(d0, d2) == d1 ? x(d0, d2) : 0.0 where d1 in 0:5
// RUN: polyfuse exec %s --entry sort_rows --backend opencl --dump %t/s | FileCheck %s --check-prefix=EXEC
// EXEC: verified: yes
// RUN: %python -c "import numpy as n; print(n.load('%t/s/s_0.npy').tolist(), n.load('%t/s/s_1.npy').tolist())" | FileCheck %s --check-prefix=ROWS
// ROWS: {{\[}}[1.0, 1.0, 2.0, 3.0, 5.0], [-1.0, -1.0, 0.5, 0.5, 7.0]] {{\[}}[1.0, 3.0, 2.0, 0.0, 4.0], [1.0, 4.0, 0.0, 2.0, 3.0]]
// RUN: polyfuse exec %s --entry sort_columns --backend opencl --dump %t/c | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n; print(n.load('%t/c/v0.npy').tolist())" | FileCheck %s --check-prefix=COLUMNS
// COLUMNS: {{\[}}[7.0, 6.0], [5.0, 3.0], [-2.0, 3.0]]
// RUN: polyfuse exec %s --entry top3 --backend opencl --dump %t/k | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n; print(n.load('%t/k/v0_0.npy').tolist(), n.load('%t/k/v0_1.npy').tolist())" | FileCheck %s --check-prefix=TOP3
// TOP3: {{\[}}[9.0, 8.0, 8.0], [4.0, 2.0, 1.0]] {{\[}}[12.0, 11.0, 13.0], [20.0, 22.0, 21.0]]
// RUN: polyfuse exec %s --entry smallest_dynamic --backend opencl --dump %t/d | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n; print(n.load('%t/d/v0.npy').tolist())" | FileCheck %s --check-prefix=SMALLEST
// SMALLEST: [-3.0, 0.0]
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @sort_rows() -> (tensor<2x5xf32>, tensor<2x5xi64>) {
    %x = arith.constant dense<[[3.0, 1.0, 2.0, 1.0, 5.0], [0.5, -1.0, 0.5, 7.0, -1.0]]> : tensor<2x5xf32>
    %0 = tensor.empty() : tensor<2x5xi64>
    %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%0 : tensor<2x5xi64>) {
    ^bb0(%out: i64):
      %3 = linalg.index 1 : index
      %4 = arith.index_cast %3 : index to i64
      linalg.yield %4 : i64
    } -> tensor<2x5xi64>
    %s:2 = tm_tensor.sort dimension(1) outs(%x, %1 : tensor<2x5xf32>, tensor<2x5xi64>) {
    ^bb0(%arg1: f32, %arg2: f32, %arg3: i64, %arg4: i64):
      %3 = arith.cmpf ole, %arg1, %arg2 : f32
      tm_tensor.yield %3 : i1
    } -> tensor<2x5xf32>, tensor<2x5xi64>
    return %s#0, %s#1 : tensor<2x5xf32>, tensor<2x5xi64>
  }
  func.func @sort_columns() -> tensor<3x2xf32> {
    %x = arith.constant dense<[[5.0, 3.0], [-2.0, 6.0], [7.0, 3.0]]> : tensor<3x2xf32>
    %0 = iree_linalg_ext.sort dimension(0) outs(%x : tensor<3x2xf32>) {
      ^bb0(%a: f32, %b: f32):
        %1 = arith.cmpf ogt, %a, %b : f32
        iree_linalg_ext.yield %1 : i1
      } -> tensor<3x2xf32>
    return %0 : tensor<3x2xf32>
  }
  func.func @top3() -> (tensor<2x3xf32>, tensor<2x3xi32>) {
    %v = arith.constant dense<[[1.0, 8.0, 9.0, 8.0, 0.0], [1.0, -5.0, 4.0, 2.0, 0.5]]> : tensor<2x5xf32>
    %i = arith.constant dense<[[10, 11, 12, 13, 14], [21, 23, 20, 22, 24]]> : tensor<2x5xi32>
    %ov = tensor.empty() : tensor<2x3xf32>
    %oi = tensor.empty() : tensor<2x3xi32>
    %0:2 = iree_linalg_ext.topk
          dimension(1)
          ins(%v, %i : tensor<2x5xf32>, tensor<2x5xi32>)
          outs(%ov, %oi : tensor<2x3xf32>, tensor<2x3xi32>) {
          ^bb0(%a : f32, %b : f32):
           %1 = arith.cmpf ogt, %a, %b : f32
           iree_linalg_ext.yield %1 : i1
          } -> tensor<2x3xf32>, tensor<2x3xi32>
    return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi32>
  }
  func.func @smallest_dynamic() -> tensor<2xf32> {
    %s = arith.constant dense<[4.0, 0.0, 8.0, -3.0, 2.0]> : tensor<5xf32>
    %v = tensor.cast %s : tensor<5xf32> to tensor<?xf32>
    %o = tensor.empty() : tensor<2xf32>
    %0 = iree_linalg_ext.topk_v2 dimension(0) is_sorted
        ins(%v : tensor<?xf32>)
        outs(%o : tensor<2xf32>) {
        ^bb0(%a : f32, %b : f32):
          %1 = arith.cmpf olt, %a, %b : f32
          iree_linalg_ext.yield %1 : i1
        } -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
