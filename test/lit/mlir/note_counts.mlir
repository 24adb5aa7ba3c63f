// Notes of one kind (the same words, other names and numbers) past two are counted, not
// listed: a torch-mlir model's hundreds of weights, each "becomes an input of the
// program", and its bounds checks would bury every other note. Three of a kind are
// listed whole.
// RUN: polyfuse check %s 2>&1 >/dev/null | FileCheck %s
// CHECK: note: cf.assert at line {{[0-9]+}} dropped: it checks a condition, it computes nothing
// CHECK-NEXT: note: cf.assert at line {{[0-9]+}} dropped: it checks a condition, it computes nothing
// CHECK-NEXT: note: cf.assert at line {{[0-9]+}} dropped: it checks a condition, it computes nothing
// CHECK-NEXT: note: constant 'w0' (line {{[0-9]+}}) becomes an input of the program, its elements left out of the file: exec draws them
// CHECK-NEXT: note: constant 'w1' (line {{[0-9]+}}) becomes an input of the program, its elements left out of the file: exec draws them
// CHECK-NEXT: note: ... and 3 more notes like the one before
// CHECK-NOT: note:
#map = affine_map<(d0) -> (d0)>
module {
  func.func @forward(%x: tensor<4xf32>) -> tensor<4xf32> {
    %ok = arith.constant true
    cf.assert %ok, "one"
    cf.assert %ok, "two"
    cf.assert %ok, "three"
    %w0 = arith.constant dense_resource<__elided__> : tensor<4xf32>
    %w1 = arith.constant dense_resource<__elided__> : tensor<4xf32>
    %w2 = arith.constant dense_resource<__elided__> : tensor<4xf32>
    %w3 = arith.constant dense_resource<__elided__> : tensor<4xf32>
    %w4 = arith.constant dense_resource<__elided__> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.generic {indexing_maps = [#map, #map, #map, #map, #map, #map, #map], iterator_types = ["parallel"]} ins(%x, %w0, %w1, %w2, %w3, %w4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %b0: f32, %b1: f32, %b2: f32, %b3: f32, %b4: f32, %o: f32):
      %s0 = arith.addf %a, %b0 : f32
      %s1 = arith.addf %s0, %b1 : f32
      %s2 = arith.addf %s1, %b2 : f32
      %s3 = arith.addf %s2, %b3 : f32
      %s4 = arith.addf %s3, %b4 : f32
      linalg.yield %s4 : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
