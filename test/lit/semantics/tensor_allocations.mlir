// bufferization's tensor ops as tpp-mlir's model tests write them around calls: a
// dealloc_tensor of each temporary after its last use (no value reads it), an
// alloc_tensor as the destination of a fill (a tensor.empty), or with `copy` (the
// tensor it copies). Compared with MLIR's execution.
// RUN: %oracle %s --entry f --backend ref --backend opencl | FileCheck %s
// CHECK: ref {{.*}}: 35 elements match MLIR
// CHECK: opencl {{.*}}: 35 elements match MLIR

func.func @scale(%x: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %e = bufferization.alloc_tensor() : tensor<5x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<5x7xf32>) outs(%e : tensor<5x7xf32>) {
  ^bb0(%in: f32, %o: f32):
    %c = arith.constant 3.0 : f32
    %m = arith.mulf %in, %c : f32
    linalg.yield %m : f32
  } -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}

func.func @f(%x: tensor<5x7xf32>, %y: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %s = call @scale(%x) : (tensor<5x7xf32>) -> tensor<5x7xf32>
  %acc = bufferization.alloc_tensor() copy(%y) : tensor<5x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<5x7xf32>) outs(%acc : tensor<5x7xf32>) {
  ^bb0(%in: f32, %o: f32):
    %a = arith.addf %in, %o : f32
    linalg.yield %a : f32
  } -> tensor<5x7xf32>
  bufferization.dealloc_tensor %s : tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
