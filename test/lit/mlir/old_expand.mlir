// tensor.expand_shape as written before 2024, its result sizes in the type alone, loads
// with one note: the static sizes become its output_shape. A dynamic result in the old
// form has no SSA value to name its size, and MLIR's parser refuses it at the op.
// RUN: polyfuse check %s --tc 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// CHECK: def heads(float(8, 768) X) -> (float(8, 12, 64) Z) {
// CHECK-NEXT:   Z(d0, d1, d2) = tanh(X(d0, 64*d1 + d2)) where d1 in 0:12, d2 in 0:64
// NOTE: note: upgraded older MLIR spellings: tensor.expand_shape names its result sizes in output_shape
// RUN: sed 's/<8x/<?x/g' %s > %t.dyn.mlir
// RUN: expect-exit 2 polyfuse check %t.dyn.mlir 2>&1 | FileCheck --check-prefix=DYN %s
// DYN: polyfuse: error: {{.*}}.dyn.mlir:14:45: custom op 'tensor.expand_shape' expected 'output_shape'
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
