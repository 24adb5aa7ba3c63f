// Reshapes and slices are views: a read through one is composed into the reading op's
// access (no copy), as expand_shape's row-major combination, collapse_shape's unit
// groups, and extract_slice's offsets and strides (rank-reducing included).
// RUN: polyfuse check %s --tc | FileCheck %s
// CHECK: def views(float(X_0, 768) X, float(1, Y_1, 64) Y, float(16, 3, 768) K) -> (float(X_0, 12, 64) Z, float(Y_1, 64) W, float(4, 64) V) {
// CHECK-NEXT:   Z(d0, d1, d2) = tanh(X(d0, 64*d1 + d2)) where d1 in 0:12, d2 in 0:64
// CHECK-NEXT:   W(d0, d1) = exp(Y(0, d0, d1))
// CHECK-NEXT:   V(d0, d1) = -K(2*d0 + 2, 0, d1 + 64) where d0 in 0:4, d1 in 0:64
// CHECK-NEXT: }
// Run on PoCL in exec/linalg.test.
#m3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @views(%X: tensor<?x768xf32>, %Y: tensor<1x?x64xf32>, %K: tensor<16x3x768xf32>) -> (tensor<?x12x64xf32>, tensor<?x64xf32>, tensor<4x64xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %X, %c0 : tensor<?x768xf32>
  %e = tensor.expand_shape %X [[0], [1, 2]] output_shape [%n, 12, 64] : tensor<?x768xf32> into tensor<?x12x64xf32>
  %o = tensor.empty(%n) : tensor<?x12x64xf32>
  %Z = linalg.generic {indexing_maps = [#m3, #m3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e : tensor<?x12x64xf32>) outs(%o : tensor<?x12x64xf32>) {
  ^bb0(%x: f32, %out: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<?x12x64xf32>
  %c = tensor.collapse_shape %Y [[0, 1], [2]] : tensor<1x?x64xf32> into tensor<?x64xf32>
  %c1 = arith.constant 1 : index
  %m = tensor.dim %Y, %c1 : tensor<1x?x64xf32>
  %o2 = tensor.empty(%m) : tensor<?x64xf32>
  %W = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<?x64xf32>) outs(%o2 : tensor<?x64xf32>) {
  ^bb0(%x: f32, %out: f32):
    %t = math.exp %x : f32
    linalg.yield %t : f32
  } -> tensor<?x64xf32>
  %s = tensor.extract_slice %K[2, 0, 64] [4, 1, 64] [2, 1, 1] : tensor<16x3x768xf32> to tensor<4x64xf32>
  %o3 = tensor.empty() : tensor<4x64xf32>
  %V = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x64xf32>) outs(%o3 : tensor<4x64xf32>) {
  ^bb0(%x: f32, %out: f32):
    %t = arith.negf %x : f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  return %Z, %W, %V : tensor<?x12x64xf32>, tensor<?x64xf32>, tensor<4x64xf32>
}
