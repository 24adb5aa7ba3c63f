// The harness ops of other projects' test files: tpp-mlir's `check.expect_almost_eq(%a, %b,
// %tol) : T1, T2, f32` (the tensor compared with a constant is the result), a tensor read
// only to be printed (vector.transfer_read + vector.print), bufferization.alloc_tensor,
// a header whose arguments continue below, and a driver that calls a checking function
// (`call @check(..) -> ()`: the call takes the results the checks gave the callee).
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse exec %s --entry tpp_check --backend opencl --dump %t/c | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/c/d.npy').tolist())" | FileCheck --check-prefix=CHECKED %s
// CHECKED: {{\[}}[5.0, 7.0], [9.0, 11.0]]
// RUN: polyfuse exec %s --entry printed --backend opencl --dump %t/p | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/p/r.npy').tolist())" | FileCheck --check-prefix=PRINTED %s
// PRINTED: [2.0, 4.0, 6.0]
// RUN: polyfuse exec %s --entry driver --backend opencl --dump %t/d | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/d/d.npy').tolist(), numpy.load('%t/d/d_1.npy').tolist())" | FileCheck --check-prefix=DRIVER %s
// DRIVER: {{\[}}[5.0, 7.0], [9.0, 11.0]] {{\[}}[2.0, 4.0], [6.0, 8.0]]
// RUN: polyfuse check %s --entry buffer_check --tc 2>&1 | FileCheck --check-prefix=BUFFERS %s
// BUFFERS: def buffer_check() -> (bfloat16(2, 3) a, bfloat16(2, 3) expected, bfloat16(2, 3) a_copy) {
// BUFFERS-NEXT: a(d0, d1) = round_bf16(1.0 + 1.0) where d0 in 0:2, d1 in 0:3
// RUN: polyfuse exec %s --entry buffer_check --backend opencl | FileCheck --check-prefix=VERIFIED %s
// VERIFIED: verified: yes
// RUN: polyfuse check %s --entry driver 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: a test driver's calls take the results its checks gave the callee
// NOTE-SAME: bufferization.alloc_tensor is tensor.empty
// NOTE-SAME: the values check.expect_* tests are the function's results
func.func private @check(%a: tensor<2x2xf32>,
                         %b: tensor<2x2xf32>) {
  %e = bufferization.alloc_tensor() : tensor<2x2xf32>
  %d = linalg.add ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %expected = arith.constant dense<[[5.0, 7.0], [9.0, 11.0]]> : tensor<2x2xf32>
  %tol = arith.constant 0.001 : f32
  check.expect_almost_eq(%expected, %d, %tol) : tensor<2x2xf32>, tensor<2x2xf32>, f32
  return
}
func.func @tpp_check() {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[4.0, 5.0], [6.0, 7.0]]> : tensor<2x2xf32>
  %e = bufferization.alloc_tensor() : tensor<2x2xf32>
  %d = linalg.add ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %expected = arith.constant dense<[[5.0, 7.0], [9.0, 11.0]]> : tensor<2x2xf32>
  %tol = arith.constant 0.001 : f32
  check.expect_almost_eq(%expected, %d, %tol) : tensor<2x2xf32>, tensor<2x2xf32>, f32
  return
}
func.func @printed() {
  %x = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.add ins(%x, %x : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %c0 = arith.constant 0 : index
  %pad = arith.constant -1.0 : f32
  %v = vector.transfer_read %r[%c0], %pad : tensor<3xf32>, vector<3xf32>
  vector.print %v : vector<3xf32>
  return
}
func.func @driver() {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[4.0, 5.0], [6.0, 7.0]]> : tensor<2x2xf32>
  call @check(%a, %b) : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
  call @check(%a, %a) : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
  return
}
// On buffers (tpp-mlir's bf16 tests): a check of memrefs, with a bf16 tolerance, and a
// buffer printed through a read whose types are on the next line.
func.func @buffer_check() {
  %one = arith.constant 1.0 : bf16
  %a = memref.alloc() : memref<2x3xbf16>
  linalg.fill ins(%one : bf16) outs(%a : memref<2x3xbf16>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]} ins(%a : memref<2x3xbf16>) outs(%a : memref<2x3xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %s = arith.addf %x, %x : bf16
    linalg.yield %s : bf16
  }
  %expected = memref.alloc() : memref<2x3xbf16>
  %two = arith.constant 2.0 : bf16
  linalg.fill ins(%two : bf16) outs(%expected : memref<2x3xbf16>)
  %tol = arith.constant 0.1 : bf16
  check.expect_almost_eq(%a, %expected, %tol) : memref<2x3xbf16>, memref<2x3xbf16>, bf16
  %c0 = arith.constant 0 : index
  %v = vector.transfer_read %a[%c0, %c0], %one
      : memref<2x3xbf16>, vector<2x3xbf16>
  vector.print %v : vector<2x3xbf16>
  return
}
