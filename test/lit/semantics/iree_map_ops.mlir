// IREE's relayout ops, iree_linalg_ext.map_load and map_store, whose region maps an index
// of the op's iteration space to one of the other tensor. map_load: a generic over the
// output extracting the source at the region's index (affine where its arithmetic is:
// a reversal, a delinearization), the source padded first where the region passes an
// index through to a larger output. map_store: a permutation under a true mask is a
// transposing generic; any other region (a linearization, a mask) a sum over the input of
// the one element whose index hits each output element. Values from the ops' definition.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry load_reversed --tc 2>&1 | FileCheck %s --check-prefix=REV
// REV: note: read 1 iree_linalg_ext.map_load op(s)
// REV: r(d0, d1) = x(-d0 + 3, d1) where d0 in 0:4, d1 in 0:3
// RUN: polyfuse check %s --entry load_delinearized --tc 2>&1 | FileCheck %s --check-prefix=DELIN
// DELIN: r(d0_0, d0_1) = x(d0_0, d0_1)
// RUN: polyfuse check %s --entry store_transposed --tc 2>&1 | FileCheck %s --check-prefix=TRANS
// TRANS: note: read 1 iree_linalg_ext.map_store op(s): a region that permutes
// TRANS: r(d1, d0) = x(d0, d1)
// RUN: polyfuse check %s --entry store_linearized --tc 2>&1 | FileCheck %s --check-prefix=LIN
// LIN: r(d0) +=! {{.*}}x(d1, d2)
// RUN: polyfuse exec %s --entry load_reversed --backend opencl --dump %t/load_reversed | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry load_delinearized --backend opencl --dump %t/load_delinearized | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry load_padded --backend opencl --dump %t/load_padded | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry store_transposed --backend opencl --dump %t/store_transposed | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry store_linearized --backend opencl --dump %t/store_linearized | FileCheck %s --check-prefix=EXEC
// RUN: polyfuse exec %s --entry store_masked --backend opencl --dump %t/store_masked | FileCheck %s --check-prefix=EXEC
// EXEC: verified: yes
// RUN: %python -c "import numpy as n; [print(f, n.load('%t/' + f + '/r.npy').ravel().tolist()) for f in ['load_reversed', 'load_delinearized', 'load_padded', 'store_transposed', 'store_linearized', 'store_masked']]" | FileCheck %s --check-prefix=VALUES
// VALUES: load_reversed [9.0, 10.0, 11.0, 6.0, 7.0, 8.0, 3.0, 4.0, 5.0, 0.0, 1.0, 2.0]
// VALUES-NEXT: load_delinearized [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]
// VALUES-NEXT: load_padded [0.0, 1.0, 2.0, -1.0, -1.0, 3.0, 4.0, 5.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0]
// VALUES-NEXT: store_transposed [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
// VALUES-NEXT: store_linearized [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
// VALUES-NEXT: store_masked [7.0, 6.0, 5.0, 4.0, 3.0]
// A padding value the region computes, where the output is larger, is refused at the op.
// RUN: not polyfuse check %s --entry load_computed_padding 2>&1 | FileCheck %s --check-prefix=PADERR
// PADERR: error: {{.*}}iree_map_ops.mlir:[[@LINE+80]]:{{[0-9]+}}: iree_linalg_ext.map_load: this form is not read

func.func @load_reversed() -> tensor<4x3xf32> {
  %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]> : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<4x3xf32>
  %r = iree_linalg_ext.map_load %x into %o {
  ^bb0(%i: index, %j: index):
    %c3 = arith.constant 3 : index
    %ri = arith.subi %c3, %i : index
    iree_linalg_ext.yield %ri, %j, %zero : index, index, f32
  } : tensor<4x3xf32> into tensor<4x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @load_delinearized() -> tensor<12xf32> {
  %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0]]> : tensor<2x6xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<12xf32>
  %r = iree_linalg_ext.map_load %x into %o {
  ^bb0(%l: index):
    %p:2 = affine.delinearize_index %l into (2, 6) : index, index
    iree_linalg_ext.yield %p#0, %p#1, %zero : index, index, f32
  } : tensor<2x6xf32> into tensor<12xf32> -> tensor<12xf32>
  return %r : tensor<12xf32>
}

func.func @load_padded() -> tensor<3x5xf32> {
  %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %pad = arith.constant -1.0 : f32
  %o = tensor.empty() : tensor<3x5xf32>
  // Rows 2 and columns 3, 4 lie outside the source: the padding value.
  %r = iree_linalg_ext.map_load %x into %o {
  ^bb0(%i: index, %j: index):
    iree_linalg_ext.yield %i, %j, %pad : index, index, f32
  } : tensor<2x3xf32> into tensor<3x5xf32> -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

func.func @store_transposed() -> tensor<3x2xf32> {
  %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %o = tensor.empty() : tensor<3x2xf32>
  %r = iree_linalg_ext.map_store %x into %o {
  ^bb0(%i: index, %j: index):
    %true = arith.constant true
    iree_linalg_ext.yield %j, %i, %true : index, index, i1
  } : tensor<2x3xf32> into tensor<3x2xf32> -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

func.func @store_linearized() -> tensor<6xf32> {
  %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %true = arith.constant true
  %o = tensor.empty() : tensor<6xf32>
  %r = iree_linalg_ext.map_store %x into %o {
  ^bb0(%i: index, %j: index):
    %l = affine.linearize_index disjoint [%i, %j] by (2, 3) : index
    iree_linalg_ext.yield %l, %true : index, i1
  } : tensor<2x3xf32> into tensor<6xf32> -> tensor<6xf32>
  return %r : tensor<6xf32>
}

func.func @store_masked() -> tensor<5xf32> {
  %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %o = tensor.empty() : tensor<5xf32>
  // Element i goes to 7 - i where that is below 5: the last five, reversed.
  %r = iree_linalg_ext.map_store %x into %o {
  ^bb0(%i: index):
    %to = arith.subi %c7, %i : index
    %in = arith.cmpi ult, %to, %c5 : index
    iree_linalg_ext.yield %to, %in : index, i1
  } : tensor<8xf32> into tensor<5xf32> -> tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @load_computed_padding() -> tensor<6xf32> {
  %x = util.unfoldable_constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %o = tensor.empty() : tensor<6xf32>
  %r = iree_linalg_ext.map_load %x into %o {
  ^bb0(%i: index):
    %p = arith.constant 2.0 : f32
    iree_linalg_ext.yield %i, %p : index, f32
  } : tensor<4xf32> into tensor<6xf32> -> tensor<6xf32>
  return %r : tensor<6xf32>
}
