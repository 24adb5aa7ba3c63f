// A scalar result is the tensor of rank 0 that holds it (IREE's tests return an i32):
// an element of a computed tensor, a constant, an argument.
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s
// CHECK: note: the function returns a scalar (line [[@LINE+20]]): output 'v' is the tensor of rank 0 that holds it
// CHECK: note: output 'k' (line [[@LINE+19]]) holds integers; it is stored as f32, exact up to 2^24
// CHECK: def sum_item(float(5) x, float b) -> (float() v, float() k, float() result) {
// CHECK-NEXT: s +=! x(d0)
// CHECK-NEXT: v = s
// CHECK-NEXT: k = 42
// CHECK-NEXT: result = b
// RUN: polyfuse exec %s --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
func.func @sum_item(%x: tensor<5xf32>, %b: f32) -> (f32, i32, f32) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<5xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %v = tensor.extract %s[] : tensor<f32>
  %k = arith.constant 42 : i32
  return %v, %k, %b : f32, i32, f32
}
