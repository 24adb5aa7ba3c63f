// A print of a buffer (MLIR's integration tests: `call @printMemrefF32` of a memref cast
// to an unranked type) shows what the buffer holds there: that value is a result of the
// program, read where the call was. The values are the ones MLIR's own test expects
// (mlir/test/Integration/Dialect/Linalg/CPU/test-conv-2d-call.mlir): 36 everywhere, 52
// where the window meets the stored 10.
// RUN: rm -rf %t && polyfuse exec %s --entry main --backend opencl --dump %t 2>&1 | FileCheck %s
// CHECK: verified: yes
// RUN: %python -c "import numpy as n; r = n.load('%t/buf_1.npy'); print(r[0].tolist(), int((r[1:] == 36).sum()))" | FileCheck --check-prefix=VALUES %s
// VALUES: [36.0, 52.0, 52.0, 52.0, 36.0, 36.0] 30
// RUN: polyfuse check %s --entry main 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: 1 printed tensor(s) made results of the program, after its own
func.func private @printMemrefF32(memref<*xf32>)

func.func @alloc_2d_filled_f32(%s1 : index, %s2 : index, %f : f32) -> memref<?x?xf32> {
  %buf = memref.alloc(%s1, %s2) : memref<?x?xf32>
  linalg.fill ins(%f : f32) outs(%buf : memref<?x?xf32>)
  return %buf : memref<?x?xf32>
}

func.func @conv_2d(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>) {
  linalg.conv_2d ins (%arg0, %arg1: memref<?x?xf32>, memref<?x?xf32>)
                outs (%arg2: memref<?x?xf32>)
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %f10 = arith.constant 10.00000e+00 : f32
  %val = arith.constant 2.00000e+00 : f32
  %zero = arith.constant 0.00000e+00 : f32
  %filter2D = call @alloc_2d_filled_f32(%c3, %c3, %val) : (index, index, f32) -> (memref<?x?xf32>)
  %in2D = call @alloc_2d_filled_f32(%c8, %c8, %val) : (index, index, f32) -> (memref<?x?xf32>)
  %out2D = call @alloc_2d_filled_f32(%c6, %c6, %zero) : (index, index, f32) -> (memref<?x?xf32>)
  memref.store %f10, %in2D[%c0, %c3] : memref<?x?xf32>
  call @conv_2d(%in2D, %filter2D, %out2D) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %out2D_ = memref.cast %out2D : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%out2D_): (memref<*xf32>) -> ()
  memref.dealloc %filter2D : memref<?x?xf32>
  memref.dealloc %in2D : memref<?x?xf32>
  memref.dealloc %out2D : memref<?x?xf32>
  return
}
