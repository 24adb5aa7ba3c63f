// Named ops newer than MLIR 19 (src/mlir/Upgrade.cpp, upgradeNewerNamedOps), each read
// as the linalg.generic it is defined to mean. Each function `new_X` here imports as the
// same TC program as `old_X`, the same computation in MLIR 19's ops (the def line, which
// names the function, left out), or, for the convolutions, computes the same values as
// `old_X`, whose ops MLIR 19 has and which matches MLIR's own execution.
// RUN: rm -rf %t && mkdir -p %t
// linalg.elementwise (MLIR 21), its default identity maps, a kind each of unary, binary
// and ternary, integers in the unsigned order:
// RUN: polyfuse check %s --entry new_exp --tc 2>/dev/null | tail -n +2 > %t/new_exp && polyfuse check %s --entry old_exp --tc 2>/dev/null | tail -n +2 > %t/old_exp && diff %t/new_exp %t/old_exp
// RUN: polyfuse check %s --entry new_add --tc 2>/dev/null | tail -n +2 > %t/new_add && polyfuse check %s --entry old_add --tc 2>/dev/null | tail -n +2 > %t/old_add && diff %t/new_add %t/old_add
// RUN: polyfuse check %s --entry new_sub_i32 --tc 2>/dev/null | tail -n +2 > %t/new_sub_i32 && polyfuse check %s --entry old_sub_i32 --tc 2>/dev/null | tail -n +2 > %t/old_sub_i32 && diff %t/new_sub_i32 %t/old_sub_i32
// RUN: polyfuse check %s --entry new_select --tc 2>/dev/null | tail -n +2 > %t/new_select && polyfuse check %s --entry old_select --tc 2>/dev/null | tail -n +2 > %t/old_select && diff %t/new_select %t/old_select
// RUN: polyfuse check %s --entry new_max_unsigned --tc 2>/dev/null | tail -n +2 > %t/new_max_unsigned && polyfuse check %s --entry old_max_unsigned --tc 2>/dev/null | tail -n +2 > %t/old_max_unsigned && diff %t/new_max_unsigned %t/old_max_unsigned
// RUN: polyfuse check %s --entry new_square --tc 2>/dev/null | tail -n +2 > %t/new_square && polyfuse check %s --entry old_square --tc 2>/dev/null | tail -n +2 > %t/old_square && diff %t/new_square %t/old_square
// On booleans, add is `or`:
// RUN: polyfuse check %s --entry new_bool_add --tc 2>/dev/null | tail -n +2 > %t/new_bool_add && polyfuse check %s --entry old_bool_add --tc 2>/dev/null | tail -n +2 > %t/old_bool_add && diff %t/new_bool_add %t/old_bool_add
// Strides spelled other than as integers (a hex blob) are not read as ones: the op is left
// for MLIR 19 to refuse.
// RUN: not polyfuse check %S/../Inputs/mlir/conv_hex_strides.mlir 2>&1 | FileCheck --check-prefix=HEX %s
// HEX: conv_hex_strides.mlir:3:8: custom op 'linalg.conv_2d_nhwgc_gfhwc' is unknown
// Explicit maps (a broadcast row):
// RUN: polyfuse check %s --entry new_row --tc 2>/dev/null | tail -n +2 > %t/new_row && polyfuse check %s --entry old_row --tc 2>/dev/null | tail -n +2 > %t/old_row && diff %t/new_row %t/old_row
// RUN: polyfuse check %s --entry new_row 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: read named ops newer than MLIR 19 as the linalg.generic each means: linalg.conv_2d_nchw_fchw_q, linalg.conv_2d_nhwgc_gfhwc, linalg.conv_2d_nhwgc_gfhwc_q, linalg.elementwise
// The convolutions (MLIR 20): each matches the MLIR 19 route, values dumped and compared
// (exactly for the integer ones; the f32 one sums its window in another order).
// RUN: %oracle %s --entry old_nchw_fchw_q --backend ref | FileCheck --check-prefix=ORACLE %s
// RUN: %oracle %s --entry old_nhwgc_gfhwc --backend ref | FileCheck --check-prefix=ORACLE %s
// ORACLE: ref r: {{[0-9]+}} elements match MLIR
// RUN: polyfuse exec %s --entry new_nchw_fchw_q --dump %t/new_nchw_fchw_q > /dev/null 2>&1 && polyfuse exec %s --entry old_nchw_fchw_q --dump %t/old_nchw_fchw_q > /dev/null 2>&1
// RUN: polyfuse exec %s --entry new_nhwgc_gfhwc --dump %t/new_nhwgc_gfhwc > /dev/null 2>&1 && polyfuse exec %s --entry old_nhwgc_gfhwc --dump %t/old_nhwgc_gfhwc > /dev/null 2>&1
// RUN: polyfuse exec %s --entry new_nhwgc_gfhwc_q --dump %t/new_nhwgc_gfhwc_q > /dev/null 2>&1 && polyfuse exec %s --entry old_nhwgc_gfhwc_q --dump %t/old_nhwgc_gfhwc_q > /dev/null 2>&1
// RUN: /usr/bin/python3 -c "import numpy as n, sys; d = sys.argv[1]; [n.testing.assert_array_equal(n.load(d + '/new_' + f + '/r.npy'), n.load(d + '/old_' + f + '/r.npy')) for f in ('nchw_fchw_q', 'nhwgc_gfhwc_q')]; n.testing.assert_allclose(n.load(d + '/new_nhwgc_gfhwc/r.npy'), n.load(d + '/old_nhwgc_gfhwc/r.npy'), rtol=1e-5, atol=1e-6); print('same values')" %t | FileCheck --check-prefix=SAME %s
// SAME: same values
// The generic of the quantized convolution, as MLIR 19 generalizes its own _q ops:
// RUN: polyfuse check %s --entry new_nchw_fchw_q --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// TC: r_unwrapped(d0, d1, d2, d3) += wrap(wrap(x(d0, d4, 2*d2 + d5, 2*d3 + d6) - 3, 32) * wrap(w(d1, d4, d5, d6) - -2, 32), 32)
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @new_exp(%a: tensor<5x7xf32>, %o: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %r = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%a : tensor<5x7xf32>) outs(%o : tensor<5x7xf32>) -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
func.func @old_exp(%a: tensor<5x7xf32>, %o: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %r = linalg.exp ins(%a : tensor<5x7xf32>) outs(%o : tensor<5x7xf32>) -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
func.func @new_add(%a: tensor<5x7xf32>, %b: tensor<5x7xf32>, %o: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %r = linalg.elementwise
      kind=#linalg.elementwise_kind<add>
      ins(%a, %b : tensor<5x7xf32>, tensor<5x7xf32>)
      outs(%o : tensor<5x7xf32>) -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
func.func @old_add(%a: tensor<5x7xf32>, %b: tensor<5x7xf32>, %o: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %r = linalg.add ins(%a, %b : tensor<5x7xf32>, tensor<5x7xf32>)
      outs(%o : tensor<5x7xf32>) -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
func.func @new_sub_i32(%a: tensor<6xi32>, %b: tensor<6xi32>, %o: tensor<6xi32>) -> tensor<6xi32> {
  %r = linalg.elementwise kind=#linalg.elementwise_kind<sub> ins(%a, %b : tensor<6xi32>, tensor<6xi32>) outs(%o : tensor<6xi32>) -> tensor<6xi32>
  return %r : tensor<6xi32>
}
func.func @old_sub_i32(%a: tensor<6xi32>, %b: tensor<6xi32>, %o: tensor<6xi32>) -> tensor<6xi32> {
  %r = linalg.sub ins(%a, %b : tensor<6xi32>, tensor<6xi32>) outs(%o : tensor<6xi32>) -> tensor<6xi32>
  return %r : tensor<6xi32>
}
func.func @new_select(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @old_select(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.select ins(%c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @new_max_unsigned(%a: tensor<6xi16>, %b: tensor<6xi16>, %o: tensor<6xi16>) -> tensor<6xi16> {
  %r = linalg.elementwise kind=#linalg.elementwise_kind<max_unsigned> ins(%a, %b : tensor<6xi16>, tensor<6xi16>) outs(%o : tensor<6xi16>) -> tensor<6xi16>
  return %r : tensor<6xi16>
}
func.func @old_max_unsigned(%a: tensor<6xi16>, %b: tensor<6xi16>, %o: tensor<6xi16>) -> tensor<6xi16> {
  %r = linalg.map ins(%a, %b : tensor<6xi16>, tensor<6xi16>) outs(%o : tensor<6xi16>)
      (%x: i16, %y: i16) {
        %m = arith.maxui %x, %y : i16
        linalg.yield %m : i16
      }
  return %r : tensor<6xi16>
}
func.func @new_square(%a: tensor<5xf32>, %o: tensor<5xf32>) -> tensor<5xf32> {
  %r = linalg.elementwise kind=#linalg.elementwise_kind<square> ins(%a : tensor<5xf32>) outs(%o : tensor<5xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}
func.func @old_square(%a: tensor<5xf32>, %o: tensor<5xf32>) -> tensor<5xf32> {
  %r = linalg.square ins(%a : tensor<5xf32>) outs(%o : tensor<5xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}
func.func @new_row(%a: tensor<5x7xf32>, %b: tensor<7xf32>, %o: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %r = linalg.elementwise kind=#linalg.elementwise_kind<mul> indexing_maps = [#id, #col, #id]
      ins(%a, %b : tensor<5x7xf32>, tensor<7xf32>) outs(%o : tensor<5x7xf32>) -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
func.func @old_row(%a: tensor<5x7xf32>, %b: tensor<7xf32>, %o: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<5x7xf32>, tensor<7xf32>) outs(%o : tensor<5x7xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
func.func @new_nchw_fchw_q(%x: tensor<2x3x11x9xi8>, %w: tensor<4x3x3x2xi8>, %o: tensor<2x4x5x4xi32>) -> tensor<2x4x5x4xi32> {
  %zx = arith.constant 3 : i32
  %zw = arith.constant -2 : i32
  %r = linalg.conv_2d_nchw_fchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w, %zx, %zw : tensor<2x3x11x9xi8>, tensor<4x3x3x2xi8>, i32, i32) outs(%o : tensor<2x4x5x4xi32>) -> tensor<2x4x5x4xi32>
  return %r : tensor<2x4x5x4xi32>
}
func.func @old_nchw_fchw_q(%x: tensor<2x3x11x9xi8>, %w: tensor<4x3x3x2xi8>, %o: tensor<2x4x5x4xi32>) -> tensor<2x4x5x4xi32> {
  %zx = arith.constant 3 : i32
  %zw = arith.constant -2 : i32
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [2, 1, 3, 11, 9] : tensor<2x3x11x9xi8> into tensor<2x1x3x11x9xi8>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [1, 4, 3, 3, 2] : tensor<4x3x3x2xi8> into tensor<1x4x3x3x2xi8>
  %og = tensor.expand_shape %o [[0], [1, 2], [3], [4]] output_shape [2, 1, 4, 5, 4] : tensor<2x4x5x4xi32> into tensor<2x1x4x5x4xi32>
  %rg = linalg.conv_2d_ngchw_gfchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%xg, %wg, %zx, %zw : tensor<2x1x3x11x9xi8>, tensor<1x4x3x3x2xi8>, i32, i32) outs(%og : tensor<2x1x4x5x4xi32>) -> tensor<2x1x4x5x4xi32>
  %r = tensor.collapse_shape %rg [[0], [1, 2], [3], [4]] : tensor<2x1x4x5x4xi32> into tensor<2x4x5x4xi32>
  return %r : tensor<2x4x5x4xi32>
}
func.func @new_nhwgc_gfhwc(%x: tensor<1x11x9x2x3xf32>, %w: tensor<2x4x3x2x3xf32>, %o: tensor<1x4x8x2x4xf32>) -> tensor<1x4x8x2x4xf32> {
  %r = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : tensor<1x11x9x2x3xf32>, tensor<2x4x3x2x3xf32>) outs(%o : tensor<1x4x8x2x4xf32>) -> tensor<1x4x8x2x4xf32>
  return %r : tensor<1x4x8x2x4xf32>
}
func.func @old_nhwgc_gfhwc(%x: tensor<1x11x9x2x3xf32>, %w: tensor<2x4x3x2x3xf32>, %o: tensor<1x4x8x2x4xf32>) -> tensor<1x4x8x2x4xf32> {
  %xe = tensor.empty() : tensor<1x2x3x11x9xf32>
  %xt = linalg.transpose ins(%x : tensor<1x11x9x2x3xf32>) outs(%xe : tensor<1x2x3x11x9xf32>) permutation = [0, 3, 4, 1, 2]
  %we = tensor.empty() : tensor<2x4x3x3x2xf32>
  %wt = linalg.transpose ins(%w : tensor<2x4x3x2x3xf32>) outs(%we : tensor<2x4x3x3x2xf32>) permutation = [0, 1, 4, 2, 3]
  %oe = tensor.empty() : tensor<1x2x4x4x8xf32>
  %ot = linalg.transpose ins(%o : tensor<1x4x8x2x4xf32>) outs(%oe : tensor<1x2x4x4x8xf32>) permutation = [0, 3, 4, 1, 2]
  %rt = linalg.conv_2d_ngchw_gfchw {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%xt, %wt : tensor<1x2x3x11x9xf32>, tensor<2x4x3x3x2xf32>) outs(%ot : tensor<1x2x4x4x8xf32>) -> tensor<1x2x4x4x8xf32>
  %re = tensor.empty() : tensor<1x4x8x2x4xf32>
  %r = linalg.transpose ins(%rt : tensor<1x2x4x4x8xf32>) outs(%re : tensor<1x4x8x2x4xf32>) permutation = [0, 3, 4, 1, 2]
  return %r : tensor<1x4x8x2x4xf32>
}
func.func @new_nhwgc_gfhwc_q(%x: tensor<1x11x9x2x3xi8>, %w: tensor<2x4x3x2x3xi8>, %o: tensor<1x4x8x2x4xi32>) -> tensor<1x4x8x2x4xi32> {
  %zx = arith.constant 1 : i32
  %zw = arith.constant 2 : i32
  %r = linalg.conv_2d_nhwgc_gfhwc_q {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w, %zx, %zw : tensor<1x11x9x2x3xi8>, tensor<2x4x3x2x3xi8>, i32, i32) outs(%o : tensor<1x4x8x2x4xi32>) -> tensor<1x4x8x2x4xi32>
  return %r : tensor<1x4x8x2x4xi32>
}
func.func @old_nhwgc_gfhwc_q(%x: tensor<1x11x9x2x3xi8>, %w: tensor<2x4x3x2x3xi8>, %o: tensor<1x4x8x2x4xi32>) -> tensor<1x4x8x2x4xi32> {
  %zx = arith.constant 1 : i32
  %zw = arith.constant 2 : i32
  %xe = tensor.empty() : tensor<1x2x3x11x9xi8>
  %xt = linalg.transpose ins(%x : tensor<1x11x9x2x3xi8>) outs(%xe : tensor<1x2x3x11x9xi8>) permutation = [0, 3, 4, 1, 2]
  %we = tensor.empty() : tensor<2x4x3x3x2xi8>
  %wt = linalg.transpose ins(%w : tensor<2x4x3x2x3xi8>) outs(%we : tensor<2x4x3x3x2xi8>) permutation = [0, 1, 4, 2, 3]
  %oe = tensor.empty() : tensor<1x2x4x4x8xi32>
  %ot = linalg.transpose ins(%o : tensor<1x4x8x2x4xi32>) outs(%oe : tensor<1x2x4x4x8xi32>) permutation = [0, 3, 4, 1, 2]
  %rt = linalg.conv_2d_ngchw_gfchw_q {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%xt, %wt, %zx, %zw : tensor<1x2x3x11x9xi8>, tensor<2x4x3x3x2xi8>, i32, i32) outs(%ot : tensor<1x2x4x4x8xi32>) -> tensor<1x2x4x4x8xi32>
  %re = tensor.empty() : tensor<1x4x8x2x4xi32>
  %r = linalg.transpose ins(%rt : tensor<1x2x4x4x8xi32>) outs(%re : tensor<1x4x8x2x4xi32>) permutation = [0, 3, 4, 1, 2]
  return %r : tensor<1x4x8x2x4xi32>
}
func.func @new_bool_add(%a: tensor<4xi1>, %b: tensor<4xi1>, %o: tensor<4xi1>) -> tensor<4xi1> {
  %r = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%a, %b : tensor<4xi1>, tensor<4xi1>) outs(%o : tensor<4xi1>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}
func.func @old_bool_add(%a: tensor<4xi1>, %b: tensor<4xi1>, %o: tensor<4xi1>) -> tensor<4xi1> {
  %r = linalg.map ins(%a, %b : tensor<4xi1>, tensor<4xi1>) outs(%o : tensor<4xi1>)
      (%x: i1, %y: i1) {
        %m = arith.ori %x, %y : i1
        linalg.yield %m : i1
      }
  return %r : tensor<4xi1>
}
