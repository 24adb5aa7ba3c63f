// MLIR 21's spelling of the casts between tensors and buffers (buddy-mlir's DeepSeek
// decode step): bufferization.to_buffer names both types, as to_tensor now does. Read as
// MLIR 19's to_memref and to_tensor, with one note; computed as the linalg op on buffers
// between them.
// RUN: polyfuse check %s --tc 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// NOTE: note: upgraded older MLIR spellings: bufferization.to_buffer is bufferization.to_memref in MLIR 19; bufferization.to_tensor names only its source type in MLIR 19
// CHECK: def f(float(4, 3) x) -> (float(4, 3) o) {
// CHECK-NEXT: exp(x(d0, d1))
// RUN: polyfuse exec %s --backend opencl | FileCheck --check-prefix=VERIFIED %s
// VERIFIED: verified: yes
func.func @f(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %b = bufferization.to_buffer %x read_only : tensor<4x3xf32> to memref<4x3xf32>
  %o = memref.alloc() : memref<4x3xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<4x3xf32>) outs(%o : memref<4x3xf32>) {
  ^bb0(%a: f32, %c: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  %r = bufferization.to_tensor %o restrict : memref<4x3xf32> to tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
