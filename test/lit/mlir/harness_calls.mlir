// A benchmark's harness around a kernel (buddy-mlir's examples): calls to functions
// without a body that compute nothing the kernel returns (a clock read twice and
// subtracted, a print of a tensor) are dropped with one note; the kernel is read and
// verified. A tensor printed is a result of the program (a kernel that prints what it
// computes and returns nothing). A call whose result the kernel uses stays refused at
// the call.
// RUN: polyfuse check %s --tc 2> %t.err | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// NOTE: note: calls to @printMemrefF32, @rtclock (no body in this file) dropped: they compute nothing the function returns (a benchmark's clock, a print)
// CHECK: def kernel(float(4, 6) x) -> (float(4, 6) y) {
// CHECK-NEXT: y(d0, d1) = tanh(x(d0, d1))
// RUN: polyfuse exec %s --backend opencl | FileCheck --check-prefix=VERIFIED %s
// VERIFIED: verified: yes
// RUN: expect-exit 2 polyfuse check %s --entry used 2>&1 | FileCheck --check-prefix=USED %s
// USED: harness_calls.mlir:[[@LINE+22]]:9: call to '@rtclock', which has no body in this file
// RUN: polyfuse check %s --entry shown --tc 2> %t.shown | FileCheck --check-prefix=SHOWN %s
// SHOWN: def shown(float(4, 6) x) -> (float(4, 6) y) {
// RUN: FileCheck --check-prefix=SHOWN-NOTE %s < %t.shown
// SHOWN-NOTE: note: 1 printed tensor(s) made results of the program, after its own

func.func private @rtclock() -> f64
func.func private @printMemrefF32(%ptr : tensor<*xf32>)

func.func @kernel(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %t0 = call @rtclock() : () -> f64
  %e = tensor.empty() : tensor<4x6xf32>
  %y = linalg.tanh ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %t1 = call @rtclock() : () -> f64
  %time = arith.subf %t1, %t0 : f64
  vector.print %time : f64
  %u = tensor.cast %y : tensor<4x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return %y : tensor<4x6xf32>
}

func.func @used(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %t0 = call @rtclock() : () -> f64
  %s = arith.truncf %t0 : f64 to f32
  %e = tensor.empty() : tensor<4x6xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

func.func @shown(%x: tensor<4x6xf32>) {
  %e = tensor.empty() : tensor<4x6xf32>
  %y = linalg.exp ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %u = tensor.cast %y : tensor<4x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
