// IREE's iree_linalg_ext.scan read as affine generics: the start (the first element along
// the dimension, or the accumulator for an exclusive scan), a reduction over each output's
// prefix (the region where k is in it, else the value kept), and the last output as the
// accumulator result. The op's two results have different loops, so later uses of %r#1
// name the accumulator's generic. The values are the running products and sums.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry products --tc 2>&1 | FileCheck %s --check-prefix=TC
// TC: note: read 5 iree_linalg_ext.scan op(s)
// (the scan's start, a copy of x's first column, read through: docs/design.md)
// TC: pf_scan_0(d0, d1) = x(d0, 0) where d0 in 0:2, d1 in 0:4
// TC-NEXT: pf_scan_0(d0, d1) *= d2 >= 1 ? (d2 <= d1 ? x(d0, d2) : 1.0) : 1.0 where d1 in 0:4
// TC-NEXT: pf_scan_0_acc(d0) = pf_scan_0(d0, 3)
// TC-NEXT: twice(d0) = pf_scan_0_acc(d0) + pf_scan_0_acc(d0)
// RUN: polyfuse exec %s --entry products --backend opencl --dump %t/p | FileCheck %s --check-prefix=EXEC
// EXEC: verified: yes
// RUN: %python -c "import numpy as n; print(n.load('%t/p/pf_scan_0.npy').tolist(), n.load('%t/p/twice.npy').tolist())" | FileCheck %s --check-prefix=PRODUCTS
// PRODUCTS: {{\[}}[1.0, 2.0, 6.0, 24.0], [2.0, 1.0, 0.5, 1.5]] [48.0, 3.0]
// RUN: polyfuse exec %s --entry sums_before --backend opencl --dump %t/s | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n; print(n.load('%t/s/pf_scan_0.npy').tolist(), n.load('%t/s/pf_scan_0_acc.npy').tolist())" | FileCheck %s --check-prefix=SUMS
// SUMS: [10.0, 11.0, 13.0, 16.0, 20.0] 20.0
// torch-mlir's tm_tensor.scan (torch.cumsum, here of a mask into position ids), its two
// results named apart (`%ret_out, %ret_acc = ..`): the generics take those names.
// RUN: polyfuse exec %s --entry cumsum_ids --backend opencl --dump %t/c | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n; print(n.load('%t/c/ret_out.npy').tolist(), n.load('%t/c/ret_acc.npy').tolist())" | FileCheck %s --check-prefix=CUMSUM
// CUMSUM: {{\[}}[1.0, 2.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 3.0]] [4.0, 3.0]
// A scan of a scan's output (the second op's generics read `%0#0` renamed too), and an
// inclusive scan along an extent of 1, whose accumulator keeps its start as IREE's does.
// RUN: polyfuse exec %s --entry chained --backend opencl --dump %t/h | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n; print(n.load('%t/h/pf_scan_1.npy').tolist(), n.load('%t/h/pf_scan_2_acc.npy').tolist())" | FileCheck %s --check-prefix=CHAINED
// CHAINED: [1.0, 4.0, 10.0, 20.0] 0.0
#map = affine_map<(d0) -> (d0)>
func.func @products() -> (tensor<2x4xf32>, tensor<2xf32>) {
  %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [2.0, 0.5, 0.5, 3.0]]> : tensor<2x4xf32>
  %init = tensor.empty() : tensor<2x4xf32>
  %t0 = arith.constant dense<1.0> : tensor<2xf32>
  %0:2 = iree_linalg_ext.scan dimension(1) inclusive(true)
         ins(%x : tensor<2x4xf32>)
         outs(%init, %t0 : tensor<2x4xf32>, tensor<2xf32>) {
           ^bb0(%acc : f32, %v : f32):
             %p = arith.mulf %acc, %v : f32
             iree_linalg_ext.yield %p : f32
         } -> tensor<2x4xf32>, tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %twice = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%0#1 : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.addf %a, %a : f32
    linalg.yield %d : f32
  } -> tensor<2xf32>
  return %0#0, %twice : tensor<2x4xf32>, tensor<2xf32>
}
func.func @sums_before() -> (tensor<5xf32>, tensor<f32>) {
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %init = tensor.empty() : tensor<5xf32>
  %t0 = arith.constant dense<10.0> : tensor<f32>
  %0:2 = iree_linalg_ext.scan dimension(0) inclusive(false)
         ins(%x : tensor<5xf32>)
         outs(%init, %t0 : tensor<5xf32>, tensor<f32>) {
           ^bb0(%acc : f32, %v : f32):
             %s = arith.addf %acc, %v : f32
             iree_linalg_ext.yield %s : f32
         } -> tensor<5xf32>, tensor<f32>
  return %0#0, %0#1 : tensor<5xf32>, tensor<f32>
}
func.func @cumsum_ids() -> (tensor<2x5xi64>, tensor<2xi64>) {
  %mask = arith.constant dense<[[1, 1, 0, 1, 1], [0, 1, 1, 1, 0]]> : tensor<2x5xi64>
  %z = arith.constant 0 : i64
  %e = tensor.empty() : tensor<2x5xi64>
  %out = linalg.fill ins(%z : i64) outs(%e : tensor<2x5xi64>) -> tensor<2x5xi64>
  %ea = tensor.empty() : tensor<2xi64>
  %acc = linalg.fill ins(%z : i64) outs(%ea : tensor<2xi64>) -> tensor<2xi64>
  %ret_out, %ret_acc = tm_tensor.scan dimension(1) inclusive(true)
    ins(%mask : tensor<2x5xi64>) outs(%out, %acc : tensor<2x5xi64>, tensor<2xi64>) {
    ^bb0(%prev : i64, %x : i64):
      %sum = arith.addi %prev, %x : i64
      tm_tensor.yield %sum : i64
  } -> tensor<2x5xi64>, tensor<2xi64>
  return %ret_out, %ret_acc : tensor<2x5xi64>, tensor<2xi64>
}
func.func @chained() -> (tensor<4xf32>, tensor<f32>) {
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<4xf32>
  %t0 = arith.constant dense<0.0> : tensor<f32>
  %one = arith.constant dense<[5.0]> : tensor<1xf32>
  %init1 = tensor.empty() : tensor<1xf32>
  %0:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<4xf32>) outs(%init, %t0 : tensor<4xf32>, tensor<f32>) {
    ^bb0(%acc : f32, %v : f32):
      %s = arith.addf %acc, %v : f32
      iree_linalg_ext.yield %s : f32
  } -> tensor<4xf32>, tensor<f32>
  %1:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%0#0 : tensor<4xf32>) outs(%init, %t0 : tensor<4xf32>, tensor<f32>) {
    ^bb0(%acc : f32, %v : f32):
      %s = arith.addf %acc, %v : f32
      iree_linalg_ext.yield %s : f32
  } -> tensor<4xf32>, tensor<f32>
  %2:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%one : tensor<1xf32>) outs(%init1, %t0 : tensor<1xf32>, tensor<f32>) {
    ^bb0(%acc : f32, %v : f32):
      %s = arith.addf %acc, %v : f32
      iree_linalg_ext.yield %s : f32
  } -> tensor<1xf32>, tensor<f32>
  return %1#0, %2#1 : tensor<4xf32>, tensor<f32>
}
