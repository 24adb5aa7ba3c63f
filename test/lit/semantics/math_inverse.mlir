// The inverse trigonometric and hyperbolic functions and the cube root (torch's asin, acos,
// sinh, cosh, asinh, acosh, atanh, cbrt as torch-mlir lowers them to the math dialect),
// compared with MLIR's own execution on the reference and on PoCL.
// RUN: %oracle %s --backend ref --backend opencl | FileCheck %s
// CHECK: ref r: 32 elements match MLIR
// CHECK: opencl r: 32 elements match MLIR
// RUN: polyfuse check %s --tc | FileCheck --check-prefix=TC %s
// TC: r(d0, d1) = asinh(sinh(asin(tanh(a(d0, d1))))) + acosh(cosh(acos(tanh(a(d0, d1)))) + 2.0) + atanh(tanh(a(d0, d1))) + cbrt(a(d0, d1)) + a(d0, d1)
// RUN: rm -rf %t && polyfuse codegen %s --target cuda -o %t > /dev/null && FileCheck --check-prefix=CUDA %s < %t/kernels.cu
// CUDA: asinhf(sinhf(asinf(tanhf(
// CUDA: cbrtf(
func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    %as = math.asin %t : f32
    %ac = math.acos %t : f32
    %sh = math.sinh %as : f32
    %ch = math.cosh %ac : f32
    %ash = math.asinh %sh : f32
    %c2 = arith.addf %ch, %two : f32
    %ach = math.acosh %c2 : f32
    %ath = math.atanh %t : f32
    %q = math.cbrt %x : f32
    %s1 = arith.addf %ash, %ach : f32
    %s2 = arith.addf %s1, %ath : f32
    %s3 = arith.addf %s2, %q : f32
    %s4 = arith.addf %s3, %x : f32
    linalg.yield %s4 : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
