// IREE's end-to-end tests, as they are written: functions with no arguments whose
// results are the values check.expect_* compares (an expected matrix spread over several
// lines), inputs planted with tensor.insert into a fill, an argmax written as a two-result
// reduction. polyfuse computes what IREE's own expectations state.
// RUN: polyfuse check %s --entry argmax --tc 2>&1 | FileCheck %s --check-prefix=TC
// TC: note: read the boundary and test-harness ops (IREE's, tpp-mlir's): {{.*}}the values check.expect_* tests are the function's results
// TC: input(d0) = 2.5 where d0 in 0:1001
// TC-NEXT: input(d0) = 9.0 where d0 in 700:701
// RUN: rm -rf %t && polyfuse exec %s --entry argmax --backend opencl --dump %t/a | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry planted --backend opencl --dump %t/p | FileCheck %s --check-prefix=EXEC
// EXEC: verified: yes
// RUN: %python -c "import numpy as n; print(n.load('%t/a/result_0.npy').ravel().tolist(), n.load('%t/a/result_1.npy').ravel().tolist(), n.load('%t/p/s.npy').ravel().tolist())" | FileCheck %s --check-prefix=VALUES
// VALUES: [9.0] [700.0] [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.5, 0.0, 0.0, 0.0]
// An unfoldable splat stays an input (a softmax over it keeps its reduction loop), and a
// dynamic constant is that constant cast to its dynamic type: each row is 1/7 everywhere.
// RUN: polyfuse check %s --entry softmax_dynamic --tc 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: flow.tensor.dynamic_constant is a constant, cast to its dynamic type
// DYN: def softmax_dynamic(float(3, 7) pf_static_x)
// RUN: polyfuse exec %s --entry softmax_splat --backend opencl --dump %t/s | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry softmax_dynamic --backend opencl --dump %t/d | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n, glob; print(sorted(set(n.round(n.concatenate([n.load(f).ravel() for f in glob.glob('%t/[sd]/*.npy')]), 6).tolist())))" | FileCheck %s --check-prefix=SEVENTH
// SEVENTH: [0.142857]
// MLIR 20's linalg.pack (tensor.pack in MLIR 19) of a source that flow.tensor.tie_shape
// ties to its extents; the packed tiles hold 4*i + j at (i, j).
// RUN: polyfuse exec %s --entry packed --backend opencl --dump %t/k | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n; print(n.load('%t/k/pack.npy').ravel().tolist())" | FileCheck %s --check-prefix=PACKED
// PACKED: [0.0, 1.0, 4.0, 5.0, 2.0, 3.0, 6.0, 7.0, 8.0, 9.0, 12.0, 13.0, 10.0, 11.0, 14.0, 15.0]
// A check's type, or a dynamic constant's value and type, on lines of their own (IREE's
// gather, topk and dynamic attention tests write them so): the value doubled, 2, 4, 6.
// RUN: polyfuse exec %s --entry split_types --backend opencl --dump %t/t | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import numpy as n; print(n.load('%t/t/r.npy').ravel().tolist())" | FileCheck %s --check-prefix=SPLIT
// SPLIT: [2.0, 4.0, 6.0]
// RUN: polyfuse check %s --entry long_check --tc 2>/dev/null | FileCheck %s --check-prefix=LONG
// LONG: def long_check({{.*}}) -> (float(70, 1) r)
// A computed index is refused at the op.
// RUN: expect-exit 2 polyfuse check %s --entry computed_index 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: iree_e2e_checks.mlir:{{[0-9]+}}:{{[0-9]+}}: tensor.insert at a computed index is not supported (at constant indices it is)
// A value computed outside any op (scalar arithmetic) is inserted as its expression.
// RUN: polyfuse check %s --entry computed_value --tc 2>/dev/null | FileCheck %s --check-prefix=VALUE
// VALUE: r(d0) = x(d0) where d0 in 0:4
// VALUE-NEXT: r(d0) = a * a where d0 in 0:1
func.func @argmax() {
  %v = arith.constant 2.5 : f32
  %e = tensor.empty() : tensor<1001xf32>
  %fill = linalg.fill ins(%v : f32) outs(%e : tensor<1001xf32>) -> tensor<1001xf32>
  %big = arith.constant 9.0 : f32
  %at = arith.constant 700 : index
  %input = tensor.insert %big into %fill[%at] : tensor<1001xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %ve = tensor.empty() : tensor<f32>
  %ie = tensor.empty() : tensor<i32>
  %vi = linalg.fill ins(%ninf : f32) outs(%ve : tensor<f32>) -> tensor<f32>
  %ii = linalg.fill ins(%zero : i32) outs(%ie : tensor<i32>) -> tensor<i32>
  %result:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>],
                              iterator_types = ["reduction"]}
      ins(%input : tensor<1001xf32>) outs(%vi, %ii : tensor<f32>, tensor<i32>) {
  ^bb0(%in: f32, %m: f32, %k: i32):
    %i = linalg.index 0 : index
    %ic = arith.index_cast %i : index to i32
    %mx = arith.maximumf %in, %m : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %sel = arith.select %gt, %ic, %k : i32
    linalg.yield %mx, %sel : f32, i32
  } -> (tensor<f32>, tensor<i32>)
  check.expect_almost_eq_const(%result#0, dense<9.0> : tensor<f32>) : tensor<f32>
  check.expect_eq_const(%result#1, dense<700> : tensor<i32>) : tensor<i32>
  return
}
func.func @planted() {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %fill = linalg.fill ins(%z : f32) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = tensor.insert %one into %fill[%c0, %c1] : tensor<3x4xf32>
  %r = tensor.insert %one into %a[%c2, %c0] : tensor<3x4xf32>
  %e2 = tensor.empty() : tensor<3x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]} ins(%r : tensor<3x4xf32>) outs(%e2 : tensor<3x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d0 = linalg.index 0 : index
    %d0i = arith.index_cast %d0 : index to i32
    %d0f = arith.sitofp %d0i : i32 to f32
    %h = arith.constant 0.75 : f32
    %w = arith.mulf %d0f, %h : f32
    %m = arith.mulf %in, %w : f32
    %x = arith.addf %m, %in : f32
    linalg.yield %x : f32
  } -> tensor<3x4xf32>
  check.expect_almost_eq_const(%s, dense<[[0.0, 1.0, 0.0, 0.0],
                                          [0.0, 0.0, 0.0, 0.0],
                                          [2.5, 0.0, 0.0, 0.0]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  return
}
func.func @computed_index(%x: tensor<4xf32>) -> tensor<4xf32> {
  %v = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i = arith.addi %c0, %c1 : index
  %r = tensor.insert %v into %x[%i] : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @softmax_splat() {
  %x = util.unfoldable_constant dense<5.000000e+00> : tensor<3x7xf32>
  %init = tensor.empty() : tensor<3x7xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<3x7xf32>) outs(%init : tensor<3x7xf32>) -> tensor<3x7xf32>
  check.expect_almost_eq_const(%0, dense<0.142857149> : tensor<3x7xf32>) : tensor<3x7xf32>
  return
}
func.func @softmax_dynamic() {
  %x = flow.tensor.dynamic_constant dense<5.000000e+00> : tensor<3x7xf32> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  %barrier = util.optimization_barrier %0 : tensor<?x?xf32>
  %result = tensor.cast %barrier : tensor<?x?xf32> to tensor<3x7xf32>
  check.expect_almost_eq_const(%result, dense<0.142857149> : tensor<3x7xf32>) : tensor<3x7xf32>
  return
}
func.func private @source(%h : index, %w : index) -> tensor<?x?xi32> {
  %e = tensor.empty(%h, %w) : tensor<?x?xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xi32>) {
  ^bb0(%o : i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %r = arith.muli %i, %w : index
    %k = arith.addi %j, %r : index
    %v = arith.index_cast %k : index to i32
    linalg.yield %v : i32
  } -> tensor<?x?xi32>
  %b = util.optimization_barrier %s : tensor<?x?xi32>
  %t = flow.tensor.tie_shape %b : tensor<?x?xi32>{%h, %w}
  return %t : tensor<?x?xi32>
}
func.func @packed() {
  %h = arith.constant 4 : index
  %w = arith.constant 4 : index
  %0 = call @source(%h, %w) : (index, index) -> tensor<?x?xi32>
  %src = tensor.cast %0 : tensor<?x?xi32> to tensor<4x4xi32>
  %init = tensor.empty() : tensor<2x2x2x2xi32>
  %pack = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %init
      : tensor<4x4xi32> -> tensor<2x2x2x2xi32>
  check.expect_eq_const(%pack, dense<[[[[0, 1], [4, 5]], [[2, 3], [6, 7]]], [[[8, 9], [12, 13]], [[10, 11], [14, 15]]]]> : tensor<2x2x2x2xi32>) : tensor<2x2x2x2xi32>
  return
}
func.func @computed_value(%x: tensor<4xf32>, %a: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %v = arith.mulf %a, %a : f32
  %r = tensor.insert %v into %x[%c0] : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @split_types() {
  %x = flow.tensor.dynamic_constant
      dense<[1.0, 2.0,
             3.0]>
      : tensor<3xf32> -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.addf %a, %a : f32
    linalg.yield %d : f32
  } -> tensor<?xf32>
  %s = tensor.cast %r : tensor<?xf32> to tensor<3xf32>
  check.expect_almost_eq_const(%s, dense<[2.0, 4.0, 6.0]> : tensor<3xf32>)
      : tensor<3xf32>
  return
}

// An expected value over 70 lines (IREE's transpose tests write 64x32 matrices row by row).
func.func @long_check() {
  %x = util.unfoldable_constant dense<1.0> : tensor<70x1xf32>
  %e = tensor.empty() : tensor<70x1xf32>
  %r = linalg.add ins(%x, %x : tensor<70x1xf32>, tensor<70x1xf32>) outs(%e : tensor<70x1xf32>) -> tensor<70x1xf32>
  check.expect_almost_eq_const(%r, dense<[
    [0.0],
    [1.0],
    [2.0],
    [3.0],
    [4.0],
    [5.0],
    [6.0],
    [7.0],
    [8.0],
    [9.0],
    [10.0],
    [11.0],
    [12.0],
    [13.0],
    [14.0],
    [15.0],
    [16.0],
    [17.0],
    [18.0],
    [19.0],
    [20.0],
    [21.0],
    [22.0],
    [23.0],
    [24.0],
    [25.0],
    [26.0],
    [27.0],
    [28.0],
    [29.0],
    [30.0],
    [31.0],
    [32.0],
    [33.0],
    [34.0],
    [35.0],
    [36.0],
    [37.0],
    [38.0],
    [39.0],
    [40.0],
    [41.0],
    [42.0],
    [43.0],
    [44.0],
    [45.0],
    [46.0],
    [47.0],
    [48.0],
    [49.0],
    [50.0],
    [51.0],
    [52.0],
    [53.0],
    [54.0],
    [55.0],
    [56.0],
    [57.0],
    [58.0],
    [59.0],
    [60.0],
    [61.0],
    [62.0],
    [63.0],
    [64.0],
    [65.0],
    [66.0],
    [67.0],
    [68.0],
    [69.0]]> : tensor<70x1xf32>) : tensor<70x1xf32>
  return
}
