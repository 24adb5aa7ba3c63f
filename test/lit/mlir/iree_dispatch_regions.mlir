// IREE's dispatch regions (flow.dispatch.region, what its dispatch formation leaves): the
// region's ops are the computation where they stand, its results the values flow.return
// yields (several: their uses renamed). The region's own names are renamed apart from
// those the function's later bodies reuse (%1 here).
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s
// CHECK: note: read the boundary and test-harness ops (IREE's, tpp-mlir's): flow.dispatch.region's ops are the computation, its results the values it returns
// CHECK: def main(float(4, 6) x) -> (float(4) [[Y:[a-z0-9_]+]]) {
// CHECK-NEXT: [[E:[a-z0-9_]+]](d0, d1) = exp(x(d0, d1))
// CHECK-NEXT: [[S:[a-z0-9_]+]](d0) +=! [[E]](d0, d1)
// CHECK-NEXT: [[M:[a-z0-9_]+]](d0) max=! x(d0, d1)
// CHECK-NEXT: [[Y]](d0) = [[S]](d0) + [[M]](d0)
// RUN: polyfuse exec %s --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<4x6xf32>) -> tensor<4xf32> {
  %e = flow.dispatch.region -> (tensor<4x6xf32>) {
    %0 = tensor.empty() : tensor<4x6xf32>
    %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%0 : tensor<4x6xf32>) {
    ^bb0(%a: f32, %o: f32):
      %2 = math.exp %a : f32
      linalg.yield %2 : f32
    } -> tensor<4x6xf32>
    flow.return %1 : tensor<4x6xf32>
  }
  %r:2 = flow.dispatch.region -> (tensor<4xf32>, tensor<4xf32>) {
    %zero = arith.constant 0.0 : f32
    %low = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<4xf32>
    %1 = linalg.fill ins(%zero : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    %2 = linalg.fill ins(%low : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
    %3 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x6xf32>) outs(%1 : tensor<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %4 = arith.addf %a, %acc : f32
      linalg.yield %4 : f32
    } -> tensor<4xf32>
    %5 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x6xf32>) outs(%2 : tensor<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %6 = arith.maximumf %a, %acc : f32
      linalg.yield %6 : f32
    } -> tensor<4xf32>
    flow.return %3, %5 : tensor<4xf32>, tensor<4xf32>
  }
  %o = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r#0, %r#1 : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %1 = arith.addf %a, %b : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}
