// tensor.expand_shape as written before 2024, its result sizes in the type alone, loads
// with one note: the static sizes become its output_shape. A dynamic result's `?` is its
// group's source extent over the group's other sizes, as MLIR then inferred it: a
// constant, or the operand's tensor.dim where that is the whole group.
// RUN: polyfuse check %s --entry heads --tc 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// CHECK: def heads(float(8, 768) X) -> (float(8, 12, 64) Z) {
// CHECK-NEXT:   Z(d0, d1, d2) = tanh(X(d0, 64*d1 + d2)) where d1 in 0:12, d2 in 0:64
// An operand that is one result of several (torch-mlir's max beside its position, %m#0):
// RUN: polyfuse check %s --entry keep_max --tc | FileCheck --check-prefix=RESULT %s
// RESULT: def keep_max(float(8, 5) X) -> (float(8, 1) Y) {
// torch-mlir's grouped convolution: its operand cast to dynamic sizes, then split into
// groups with `?` results; the sizes come from the cast's static type.
// RUN: polyfuse check %s --entry grouped_conv --tc 2>/dev/null | FileCheck --check-prefix=GROUPED %s
// GROUPED: def grouped_conv(float(1, 4, 5, 5) x, float(4, 2, 3, 3) w) -> (float(1, 2, 2, 3, 3) flat) {
// GROUPED-NEXT: c(d0, d1, d2, d3, d4) +=! x(0, 2*d1 + d5, d3 + d6, d4 + d7) * w(2*d1 + d2, d5, d6, d7)
// RUN: polyfuse exec %s --entry grouped_conv --backend opencl | FileCheck --check-prefix=VERIFIED %s
// VERIFIED: verified: yes
// NOTE: note: upgraded older MLIR spellings: tensor.expand_shape names its result sizes in output_shape
// RUN: polyfuse check %s --entry heads_dynamic --tc 2>/dev/null | FileCheck --check-prefix=DYN %s
// DYN: def heads_dynamic(float(X_0, 768) X) -> (float(X_0, 12, 64) z) {
// DYN-NEXT: z(d0, d1, d2) = tanh(X(d0, 64*d1 + d2)) where d1 in 0:12, d2 in 0:64
// RUN: polyfuse exec %s --entry heads_dynamic --size X_0=5 --backend opencl | FileCheck --check-prefix=VERIFIED %s
// A dynamic extent split in two: its source is 4 times a size (the upgrade's division):
// RUN: polyfuse check %s --entry split_dynamic --tc 2>&1 | FileCheck --check-prefix=SPLIT %s
// SPLIT-DAG: def split_dynamic(float(4*x_0_d4, 6) x) -> (float(x_0_d4, 4, 6) r)
// SPLIT-DAG: note: size 'x_0' is read as 4 * 'x_0_d4': the division by 4 at line 87 is exact only so
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @heads(%X: tensor<8x768xf32>) -> tensor<8x12x64xf32> {
  %e = tensor.expand_shape %X [[0], [1, 2]] : tensor<8x768xf32> into tensor<8x12x64xf32>
  %o = tensor.empty() : tensor<8x12x64xf32>
  %Z = linalg.generic {indexing_maps = [#m3, #m3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : tensor<8x12x64xf32>) outs(%o : tensor<8x12x64xf32>) {
  ^bb0(%x: f32, %out: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<8x12x64xf32>
  return %Z : tensor<8x12x64xf32>
}
func.func @keep_max(%X: tensor<8x5xf32>) -> tensor<8x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<8xf32>
  %ei = tensor.empty() : tensor<8xi64>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %i0 = linalg.fill ins(%c0 : i64) outs(%ei : tensor<8xi64>) -> tensor<8xi64>
  %m:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%X : tensor<8x5xf32>) outs(%m0, %i0 : tensor<8xf32>, tensor<8xi64>) {
  ^bb0(%x: f32, %acc: f32, %at: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %gt = arith.cmpf ogt, %x, %acc : f32
    %mx = arith.maximumf %x, %acc : f32
    %pos = arith.select %gt, %ki, %at : i64
    linalg.yield %mx, %pos : f32, i64
  } -> (tensor<8xf32>, tensor<8xi64>)
  %Y = tensor.expand_shape %m#0 [[0, 1]] : tensor<8xf32> into tensor<8x1xf32>
  return %Y : tensor<8x1xf32>
}
func.func @grouped_conv(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %cast = tensor.cast %x : tensor<1x4x5x5xf32> to tensor<?x?x?x?xf32>
  %cast_o = tensor.cast %o : tensor<1x4x3x3xf32> to tensor<1x4x?x?xf32>
  %gx = tensor.expand_shape %cast [[0], [1, 2], [3], [4]] : tensor<?x?x?x?xf32> into tensor<?x2x?x?x?xf32>
  %gw = tensor.expand_shape %w [[0, 1], [2], [3], [4]] : tensor<4x2x3x3xf32> into tensor<2x2x2x3x3xf32>
  %go = tensor.expand_shape %cast_o [[0], [1, 2], [3], [4]] : tensor<1x4x?x?xf32> into tensor<1x2x2x?x?xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%gx, %gw : tensor<?x2x?x?x?xf32>, tensor<2x2x2x3x3xf32>) outs(%go : tensor<1x2x2x?x?xf32>) -> tensor<1x2x2x?x?xf32>
  %flat = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x2x2x?x?xf32> into tensor<1x4x?x?xf32>
  %r = tensor.cast %flat : tensor<1x4x?x?xf32> to tensor<1x4x3x3xf32>
  return %r : tensor<1x4x3x3xf32>
}
func.func @heads_dynamic(%X: tensor<?x768xf32>) -> tensor<?x12x64xf32> {
  %e = tensor.expand_shape %X [[0], [1, 2]] : tensor<?x768xf32> into tensor<?x12x64xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %X, %c0 : tensor<?x768xf32>
  %o = tensor.empty(%n) : tensor<?x12x64xf32>
  %z = linalg.generic {indexing_maps = [#m3, #m3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : tensor<?x12x64xf32>) outs(%o : tensor<?x12x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<?x12x64xf32>
  return %z : tensor<?x12x64xf32>
}
func.func @split_dynamic(%x: tensor<?x6xf32>) -> tensor<?x4x6xf32> {
  %r = tensor.expand_shape %x [[0, 1], [2]] : tensor<?x6xf32> into tensor<?x4x6xf32>
  return %r : tensor<?x4x6xf32>
}
