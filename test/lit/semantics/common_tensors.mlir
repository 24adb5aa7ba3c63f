// A tensor computed twice, as an exported ResNet-18 (buddy-mlir's TOSA file) normalizes
// each convolution with the same variance input: the second rsqrt(var + eps) is the first
// (polyir/ConstantTensors.h, mergeCommonTensors), and its reader reads that one. A literal
// that differs keeps its own statement. Against MLIR's execution.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref a: 20 elements match MLIR
// CHECK: ref b: 20 elements match MLIR
// CHECK: ref c: 20 elements match MLIR
// CHECK: opencl a: 20 elements match MLIR
// CHECK: opencl b: 20 elements match MLIR
// CHECK: opencl c: 20 elements match MLIR
// RUN: polyfuse check %s 2>&1 | FileCheck --check-prefix=MERGED %s
// MERGED: note: 2 tensor(s) computed again read where first computed (s2, r2): each is what an earlier statement computes, from the same values
// MERGED: b(d0, d1) = y(d0, d1) * r1(d0)
// MERGED: c(d0, d1) = x(d0, d1) * r3(d0)
#v = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @norms(%var: tensor<4xf32>, %x: tensor<4x5xf32>, %y: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) {
  %eps = arith.constant 1.0e-05 : f32
  %eps3 = arith.constant 1.0e-03 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %s1 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%var : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = arith.addf %a, %eps : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  %r1 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%s1 : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = math.rsqrt %a : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x5xf32>
  %a = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %r1 : tensor<4x5xf32>, tensor<4xf32>) outs(%e2 : tensor<4x5xf32>) {
  ^bb0(%u: f32, %r: f32, %o: f32):
    %p = arith.mulf %u, %r : f32
    linalg.yield %p : f32
  } -> tensor<4x5xf32>
  %s2 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%var : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a2: f32, %o: f32):
    %p = arith.addf %a2, %eps : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  %r2 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%s2 : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a2: f32, %o: f32):
    %p = math.rsqrt %a2 : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%y, %r2 : tensor<4x5xf32>, tensor<4xf32>) outs(%e2 : tensor<4x5xf32>) {
  ^bb0(%u: f32, %r: f32, %o: f32):
    %p = arith.mulf %u, %r : f32
    linalg.yield %p : f32
  } -> tensor<4x5xf32>
  %s3 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%var : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a3: f32, %o: f32):
    %p = arith.addf %a3, %eps3 : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  %r3 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%s3 : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a3: f32, %o: f32):
    %p = math.rsqrt %a3 : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  %c = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %r3 : tensor<4x5xf32>, tensor<4xf32>) outs(%e2 : tensor<4x5xf32>) {
  ^bb0(%u: f32, %r: f32, %o: f32):
    %p = arith.mulf %u, %r : f32
    linalg.yield %p : f32
  } -> tensor<4x5xf32>
  return %a, %b, %c : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
}
