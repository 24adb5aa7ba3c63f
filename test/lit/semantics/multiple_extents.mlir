// Extents that are multiples of a size: a collapse of a dynamic extent with static ones
// inside it (`?x4x6` to `?x6`: 4 * x_0 rows, torch's flattening of a dynamic batch before
// a Linear) splits the loops that read it back into x_0 x 4, and an expand of a dynamic
// extent (`?` to `?x4`) makes its source 4 times the new size. Compared with MLIR's
// execution.
// A window of such an extent written through the collapse is refused at the op (its
// pieces are counted over static extents):
// RUN: expect-exit 2 polyfuse check %s --entry window 2>&1 | FileCheck %s --check-prefix=WINDOW
// WINDOW: multiple_extents.mlir:[[@LINE+148]]:8: this op writes a window of dynamic extent 4*x_0 along dimension 0 read through a collapse_shape; polyfuse writes such a window over static extents
// From a review: a literal root reached at a weight keeps its own value (the 3 rows of a,
// collapsed to 12, beside a 12-element c), against MLIR's execution.
// RUN: polyfuse check %s --entry literal --tc 2>/dev/null | FileCheck %s --check-prefix=LITERAL-TC
// LITERAL-TC: def literal(float(3, 4) a, float(12) c) -> (float(3, 4) a_copy, float(3, 4) s)
// RUN: %oracle %s --entry literal --shape a=3x4 --backend ref --backend opencl | FileCheck %s --check-prefix=LITERAL
// LITERAL: ref s: 12 elements match MLIR
// LITERAL: opencl s: 12 elements match MLIR
// Divisions that do not nest in k * N are refused, as in a static extent:
// RUN: expect-exit 2 polyfuse check %s --entry unnested 2>&1 | FileCheck %s --check-prefix=UNNESTED
// UNNESTED: multiple_extents.mlir:[[@LINE+158]]:8: loop d0 is taken apart by floordiv or mod (of a collapse_shape or the op's own subscripts) at 3, which does not divide 4: polyfuse splits a loop of extent 12*a_0 only into parts that nest
// RUN: polyfuse check %s --entry linear --tc | FileCheck %s --check-prefix=LINEAR-TC
// LINEAR-TC: def linear(float(x_0, 4, 6) x, float(6, 5) w) -> (float(x_0, 4, 5) r)
// LINEAR-TC: m(d0_0, d0_1, d1) +=! x(d0_0, d0_1, d2) * w(d2, d1) where d0_0 in 0:x_0, d0_1 in 0:4
// RUN: %oracle %s --entry linear --shape x=3x4x6 --backend ref --backend opencl | FileCheck %s --check-prefix=LINEAR
// LINEAR: ref r: 60 elements match MLIR
// LINEAR: opencl r: 60 elements match MLIR
// A result written over the collapsed rows is stored split, the same elements in order.
// RUN: polyfuse check %s --entry flat --tc 2>&1 | FileCheck %s --check-prefix=FLAT-TC
// FLAT-TC: output 'r' (line {{[0-9]+}}) is stored as x_0x3, the same elements in the same order as its 3*x_0
// FLAT-TC: r(d0_0, d0_1) = x(d0_0, d0_1) + round_f32(3 * d0_0 + d0_1) where d0_0 in 0:x_0, d0_1 in 0:3
// RUN: %oracle %s --entry flat --shape x=5x3 --backend ref --backend opencl | FileCheck %s --check-prefix=FLAT
// FLAT: ref r: 15 elements match MLIR
// FLAT: opencl r: 15 elements match MLIR
// An input whose extent is a multiple of a size says so in its shape; the TC form reads back.
// RUN: polyfuse check %s --entry unflat --tc > %t.tc && FileCheck %s --check-prefix=UNFLAT-TC < %t.tc
// UNFLAT-TC: def unflat(float(4*n) x) -> (float(n, 4) s)
// RUN: polyfuse exec %t.tc --size n=3 | FileCheck %s --check-prefix=READBACK
// READBACK: s: shape (3, 4)
// RUN: %oracle %s --entry unflat --shape x=12 --value n=[3] --backend ref --backend opencl | FileCheck %s --check-prefix=UNFLAT
// UNFLAT: ref s: 12 elements match MLIR
// UNFLAT: opencl s: 12 elements match MLIR
// Another input of the collapsed extent has it too: y is 4 * x_0 rows.
// RUN: polyfuse check %s --entry residual --tc | FileCheck %s --check-prefix=RESIDUAL-TC
// RESIDUAL-TC: def residual(float(x_0, 4, 6) x, float(4*x_0, 6) y) -> (float(x_0, 4, 6) r)
// RUN: %oracle %s --entry residual --shape x=2x4x6 --shape y=8x6 --backend ref --backend opencl | FileCheck %s --check-prefix=RESIDUAL
// RESIDUAL: ref r: 48 elements match MLIR
// RESIDUAL: opencl r: 48 elements match MLIR
// An extent divided by a constant (an expand's output_shape computed as `dim / 6`): the
// 4 * x_0 rows are 6 times a new size only where x_0 is 3 times one, which is taken, with a note.
// RUN: polyfuse check %s --entry divided --tc 2>/dev/null | FileCheck %s --check-prefix=DIVIDED-TC
// DIVIDED-TC: def divided(float(3*x_0_d3, 4) x) -> (r)
// RUN: polyfuse check %s --entry divided 2>&1 >/dev/null | FileCheck %s --check-prefix=DIVIDED-NOTE
// DIVIDED-NOTE: note: size 'x_0' is read as 3 * 'x_0_d3': the division by 6 at line [[@LINE+88]] is exact only so
// RUN: %oracle %s --entry divided --shape x=6x4 --backend ref --backend opencl | FileCheck %s --check-prefix=DIVIDED
// DIVIDED: ref r: 24 elements match MLIR
// DIVIDED: opencl r: 24 elements match MLIR
// RUN: expect-exit 2 polyfuse check %s --entry unrelated 2>&1 | FileCheck %s --check-prefix=UNRELATED
// UNRELATED: multiple_extents.mlir:[[@LINE+60]]:8: extents 4*a_0 and 6*b_0 meet in one loop of this op, as multiples of two sizes neither is a multiple of
// RUN: expect-exit 2 polyfuse check %s --entry inner 2>&1 | FileCheck %s --check-prefix=INNER
// INNER: multiple_extents.mlir:[[@LINE+66]]:8: collapse_shape of a dynamic extent inside static ones (x_1 within 4): its index would be divided by a size
func.func @linear(%x: tensor<?x4x6xf32>, %w: tensor<6x5xf32>) -> tensor<?x4x5xf32> {
  %c0 = arith.constant 0 : index
  %b = tensor.dim %x, %c0 : tensor<?x4x6xf32>
  %f = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x4x6xf32> into tensor<?x6xf32>
  %n = tensor.dim %f, %c0 : tensor<?x6xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x5xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<?x5xf32>) -> tensor<?x5xf32>
  %m = linalg.matmul ins(%f, %w : tensor<?x6xf32>, tensor<6x5xf32>) outs(%o : tensor<?x5xf32>) -> tensor<?x5xf32>
  %r = tensor.expand_shape %m [[0, 1], [2]] output_shape [%b, 4, 5] : tensor<?x5xf32> into tensor<?x4x5xf32>
  return %r : tensor<?x4x5xf32>
}
func.func @flat(%x: tensor<?x3xf32>) -> tensor<?xf32> {
  %f = tensor.collapse_shape %x [[0, 1]] : tensor<?x3xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %f, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%f : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %s = arith.addf %a, %fi : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @unflat(%x: tensor<?xf32>, %n: index) -> tensor<?x4xf32> {
  %r = tensor.expand_shape %x [[0, 1]] output_shape [%n, 4] : tensor<?xf32> into tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}
func.func @residual(%x: tensor<?x4x6xf32>, %y: tensor<?x6xf32>) -> tensor<?x4x6xf32> {
  %c0 = arith.constant 0 : index
  %b = tensor.dim %x, %c0 : tensor<?x4x6xf32>
  %f = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x4x6xf32> into tensor<?x6xf32>
  %n = tensor.dim %f, %c0 : tensor<?x6xf32>
  %e = tensor.empty(%n) : tensor<?x6xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f, %y : tensor<?x6xf32>, tensor<?x6xf32>) outs(%e : tensor<?x6xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %t = arith.addf %a, %c : f32
    linalg.yield %t : f32
  } -> tensor<?x6xf32>
  %r = tensor.expand_shape %s [[0, 1], [2]] output_shape [%b, 4, 6] : tensor<?x6xf32> into tensor<?x4x6xf32>
  return %r : tensor<?x4x6xf32>
}
func.func @unrelated(%a: tensor<?x4xf32>, %b: tensor<?x6xf32>) -> tensor<?xf32> {
  %fa = tensor.collapse_shape %a [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %fb = tensor.collapse_shape %b [[0, 1]] : tensor<?x6xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %fa, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%fa, %fb : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %t = arith.addf %p, %q : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @inner(%x: tensor<4x?xf32>) -> tensor<?xf32> {
  %f = tensor.collapse_shape %x [[0, 1]] : tensor<4x?xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %f, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%f : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%p: f32, %o: f32):
    linalg.yield %p : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @divided(%x: tensor<?x4xf32>) -> tensor<?x6xf32> {
  %f = tensor.collapse_shape %x [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %n = tensor.dim %f, %c0 : tensor<?xf32>
  %q = arith.divui %n, %c6 : index
  %v = tensor.expand_shape %f [[0, 1]] output_shape [%q, 6] : tensor<?xf32> into tensor<?x6xf32>
  %e = tensor.empty(%q) : tensor<?x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<?x6xf32>) outs(%e : tensor<?x6xf32>) {
  ^bb0(%p: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %t = arith.mulf %p, %fi : f32
    linalg.yield %t : f32
  } -> tensor<?x6xf32>
  return %r : tensor<?x6xf32>
}
func.func @window(%x: tensor<?x4xf32>, %d: tensor<?xf32>) -> tensor<?xf32> {
  %f = tensor.collapse_shape %x [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %f, %c0 : tensor<?xf32>
  %r = tensor.insert_slice %f into %d[2] [%n] [1] : tensor<?xf32> into tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @literal(%a: tensor<?x4xf32>, %c: tensor<12xf32>) -> (tensor<3x4xf32>, tensor<12xf32>) {
  %f = tensor.collapse_shape %a [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %k = tensor.cast %a : tensor<?x4xf32> to tensor<3x4xf32>
  %e = tensor.empty() : tensor<12xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c, %f : tensor<12xf32>, tensor<?xf32>) outs(%e : tensor<12xf32>) {
  ^bb0(%x: f32, %z: f32, %y: f32):
    %t = arith.addf %x, %z : f32
    linalg.yield %t : f32
  } -> tensor<12xf32>
  return %k, %s : tensor<3x4xf32>, tensor<12xf32>
}
func.func @unnested(%a: tensor<?x4x3xf32>, %b: tensor<?x3x4xf32>) -> tensor<?xf32> {
  %x = tensor.collapse_shape %a [[0, 1, 2]] : tensor<?x4x3xf32> into tensor<?xf32>
  %y = tensor.collapse_shape %b [[0, 1, 2]] : tensor<?x3x4xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %t = arith.addf %p, %q : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}
