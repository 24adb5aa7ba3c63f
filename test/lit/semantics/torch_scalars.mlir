// What torch-mlir writes around reductions and scalars, compared with MLIR's execution:
// - a returned reduction that keeps its reduced dimension (keepdim=True): its output map
//   writes 0 where the extent is 1, read as an index of its own over 0:1;
// - the position beside a maximum that nothing reads, once dropping unit loops has put a
//   view after it: not computed;
// - tensor.splat and a one-value tensor.from_elements: fills;
// - tensor.extract of one element outside any body (.item()): a read of that element
//   where a body uses it;
// - math.trunc in a body;
// - a value returned twice: the second output a copy.
// RUN: %oracle %s --entry maxdim --backend ref --backend opencl --value 'x=[1, 3, 3, 0, 2, 3, 1, -1, -1, -2, -1, -3, 0, 0, 5, 4, 5, 5, 1, 2, 5, 7, 6, 5]' | FileCheck %s --check-prefix=MAXDIM
// MAXDIM: ref v: 4 elements match MLIR
// MAXDIM: ref i: 4 elements match MLIR
// MAXDIM: opencl v: 4 elements match MLIR
// MAXDIM: opencl i: 4 elements match MLIR
// RUN: polyfuse check %s --entry maxdim --tc | FileCheck %s --check-prefix=KEEPDIM
// KEEPDIM: v(d0, [[K:d[0-9]+]]) max=! x(d0, d1)
// KEEPDIM-SAME: where [[K]] in 0:1
// RUN: %oracle %s --entry sumkeep --backend ref --backend opencl | FileCheck %s --check-prefix=SUM
// SUM: ref s: 4 elements match MLIR
// SUM: opencl s: 4 elements match MLIR
// RUN: polyfuse check %s --entry softmax 2>&1 | FileCheck %s --check-prefix=UNREAD
// UNREAD: note: result 1 of the op at line [[@LINE+60]] is never used: not computed
// UNREAD-NOT: min=!
// RUN: %oracle %s --entry softmax --backend ref --backend opencl | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX: opencl y: 64 elements match MLIR
// RUN: %oracle %s --entry scalars --backend ref --backend opencl | FileCheck %s --check-prefix=SCALARS
// SCALARS: ref r: 32 elements match MLIR
// SCALARS: ref s: 32 elements match MLIR
// SCALARS: opencl r: 32 elements match MLIR
// SCALARS: opencl s: 32 elements match MLIR
// RUN: %oracle %s --entry item --backend ref --backend opencl | FileCheck %s --check-prefix=ITEM
// ITEM: ref y: 32 elements match MLIR
// ITEM: opencl y: 32 elements match MLIR
// RUN: %oracle %s --entry twice --backend ref --backend opencl | FileCheck %s --check-prefix=TWICE
// TWICE: ref t: 8 elements match MLIR
// TWICE: ref t_copy: 8 elements match MLIR
// TWICE: opencl t_copy: 8 elements match MLIR
// RUN: polyfuse check %s --entry twice 2>&1 >/dev/null | FileCheck %s --check-prefix=TWICENOTE
// TWICENOTE: note: 't' is returned more than once; output 't_copy' is a copy of it
#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
#scalar = affine_map<(d0, d1) -> ()>
module attributes {torch.debug_module_name = "Scalars"} {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @maxdim(%x: tensor<4x6xf32>) -> (tensor<4x1xf32>, tensor<4x1xi64>) {
    %c0_i64 = arith.constant 0 : i64
    %ninf = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<4x1xi64>
    %1 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<4x1xi64>) -> tensor<4x1xi64>
    %2 = tensor.empty() : tensor<4x1xf32>
    %3 = linalg.fill ins(%ninf : f32) outs(%2 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %v, %i = linalg.generic {indexing_maps = [#id, #keep, #keep], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x6xf32>) outs(%3, %1 : tensor<4x1xf32>, tensor<4x1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_0: i64):
      %5 = linalg.index 1 : index
      %6 = arith.index_cast %5 : index to i64
      %7 = arith.maximumf %in, %out : f32
      %8 = arith.cmpf ogt, %in, %out : f32
      %9 = arith.select %8, %6, %out_0 : i64
      linalg.yield %7, %9 : f32, i64
    } -> (tensor<4x1xf32>, tensor<4x1xi64>)
    return %v, %i : tensor<4x1xf32>, tensor<4x1xi64>
  }
  func.func @sumkeep(%x: tensor<4x6xf32>) -> tensor<4x1xf32> {
    %zero = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x1xf32>
    %1 = linalg.fill ins(%zero : f32) outs(%0 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %s = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x6xf32>) outs(%1 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.addf %in, %out : f32
      linalg.yield %2 : f32
    } -> tensor<4x1xf32>
    return %s : tensor<4x1xf32>
  }
  func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %0 = tensor.empty() : tensor<4x1xi64>
    %1 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<4x1xi64>) -> tensor<4x1xi64>
    %2 = tensor.empty() : tensor<4x1xf32>
    %3 = linalg.fill ins(%ninf : f32) outs(%2 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %4:2 = linalg.generic {indexing_maps = [#id, #keep, #keep], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%3, %1 : tensor<4x1xf32>, tensor<4x1xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %11 = linalg.index 1 : index
      %12 = arith.index_cast %11 : index to i64
      %13 = arith.maximumf %in, %out : f32
      %14 = arith.cmpf ogt, %in, %out : f32
      %15 = arith.select %14, %12, %out_1 : i64
      linalg.yield %13, %15 : f32, i64
    } -> (tensor<4x1xf32>, tensor<4x1xi64>)
    %5 = tensor.empty() : tensor<4x16xf32>
    %6 = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %4#0 : tensor<4x16xf32>, tensor<4x1xf32>) outs(%5 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %11 = arith.subf %in, %in_1 : f32
      %12 = math.exp %11 : f32
      linalg.yield %12 : f32
    } -> tensor<4x16xf32>
    %8 = linalg.fill ins(%zero : f32) outs(%2 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %9 = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%6 : tensor<4x16xf32>) outs(%8 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.addf %in, %out : f32
      linalg.yield %11 : f32
    } -> tensor<4x1xf32>
    %y = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%6, %9 : tensor<4x16xf32>, tensor<4x1xf32>) outs(%5 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %11 = arith.divf %in, %in_1 : f32
      linalg.yield %11 : f32
    } -> tensor<4x16xf32>
    return %y : tensor<4x16xf32>
  }
  func.func @scalars(%x: tensor<4x8xf32>, %a: f64, %b: f32) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %0 = arith.truncf %a : f64 to f32
    %t = tensor.from_elements %0 : tensor<f32>
    %sp = tensor.splat %b : tensor<4x8xf32>
    %e = tensor.empty() : tensor<4x8xf32>
    %r = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %t : tensor<4x8xf32>, tensor<f32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %1 = arith.mulf %in, %in_0 : f32
      %2 = math.trunc %1 : f32
      linalg.yield %2 : f32
    } -> tensor<4x8xf32>
    %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sp : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %1 = arith.subf %in, %in_0 : f32
      linalg.yield %1 : f32
    } -> tensor<4x8xf32>
    return %r, %s : tensor<4x8xf32>, tensor<4x8xf32>
  }
  func.func @item(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %ninf = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<f32>
    %1 = linalg.fill ins(%ninf : f32) outs(%0 : tensor<f32>) -> tensor<f32>
    %m = linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%1 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.maximumf %in, %out : f32
      linalg.yield %2 : f32
    } -> tensor<f32>
    %item = tensor.extract %m[] : tensor<f32>
    %e = tensor.empty() : tensor<4x8xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.subf %in, %item : f32
      linalg.yield %2 : f32
    } -> tensor<4x8xf32>
    return %y : tensor<4x8xf32>
  }
  func.func @twice(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
    %e = tensor.empty() : tensor<2x4xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = math.tanh %in : f32
      linalg.yield %1 : f32
    } -> tensor<2x4xf32>
    return %t, %t : tensor<2x4xf32>, tensor<2x4xf32>
  }
}
