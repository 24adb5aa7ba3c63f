// Linalg on buffers (tpp-mlir's integration tests): read as the tensor program it
// computes. A buffer holds a tensor value; an op writing it (a linalg op's outs, a fill,
// a copy, a store) gives it its next one; an allocation is an empty tensor, a constant
// global its constant. The argument buffers a function writes are results, after the
// buffers it returns; outputs are named after their buffers.
// RUN: polyfuse check %s --entry gemm --tc 2>&1 | FileCheck --check-prefix=GEMM %s
// GEMM: note: the function works on buffers (memref): read as the tensor program it computes
// GEMM: note: argument 2 of '@gemm' is a buffer the function writes: what it holds at the return is result 0 of the program
// GEMM: def gemm(float(3, 5) A, float(5, 7) B, float(3, 7) C) -> (float(3, 7) C_1) {
// GEMM-NEXT: C_1(d0, d1) = C(d0, d1)
// GEMM-NEXT: C_1(d0, d1) += A(d0, d2) * B(d2, d1)
// RUN: polyfuse check %s --entry pipeline --tc 2>&1 | FileCheck --check-prefix=PIPE %s
// PIPE: note: argument 1 of '@pipeline' is a buffer the function writes: what it holds at the return is result 1 of the program
// PIPE: def pipeline(float(3, 5) x, float(3) sums, float(3, 5) w) -> (float(3, 5) t_1, float(3) sums_1) {
// PIPE-NEXT: t(d0, d1) = x(d0, d1) * w(d0, d1)
// PIPE-NEXT: sums_1(d0) +=! t(d0, d1)
// PIPE-NEXT: t_1(d0, d1) = t(d0, d1) where d0 in 0:3, d1 in 0:5
// PIPE-NEXT: t_1(d0, d1) = 0.0 where d0 in 1:2, d1 in 1:2
// RUN: polyfuse exec %s --entry gemm --backend opencl | FileCheck --check-prefix=EXEC %s
// RUN: polyfuse exec %s --entry pipeline --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
// A view (a subview, a reshape, a cast) reads its parent's elements, and a write through
// it replaces them in the parent: x's window is zeroed after y took its doubled values.
// RUN: polyfuse check %s --entry views --tc 2>&1 | FileCheck --check-prefix=VIEWS %s
// VIEWS: note: argument 0 of '@views' is a buffer the function writes: what it holds at the return is result 0 of the program
// VIEWS: note: argument 1 of '@views' is a buffer the function writes: what it holds at the return is result 1 of the program
// VIEWS: def views(float(4, 6) x, float(2, 3) y) -> (float(4, 6) s, float(2, 3) e) {
// VIEWS-NEXT: t0(d0, d1) = x(d0 + 1, d1 + 2) + x(d0 + 1, d1 + 2) where d0 in 0:2, d1 in 0:3
// VIEWS-NEXT: s(d0, d1) = x(d0, d1) where d0 in 0:4, d1 in 0:6
// VIEWS-NEXT: s(d0, d1) = 0.0 where d0 in 1:3, d1 in 2:5
// VIEWS-NEXT: e(d0, d1) = t0(d0, d1) where d0 in 0:2, d1 in 0:3
// RUN: polyfuse exec %s --entry views --backend opencl | FileCheck --check-prefix=EXEC %s
// A view that reinterprets memory is refused at the op.
// RUN: not polyfuse check %s --entry reinterpret 2>&1 | FileCheck --check-prefix=REINT %s
// REINT: buffers.mlir:[[@LINE+47]]:8: 'memref.reinterpret_cast' reinterprets a buffer's memory: such views are not read
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
memref.global "private" constant @weights : memref<3x5xf32> = dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0, 15.0]]>
func.func @gemm(%A: memref<3x5xf32>, %B: memref<5x7xf32>, %C: memref<3x7xf32>) {
  linalg.matmul ins(%A, %B : memref<3x5xf32>, memref<5x7xf32>) outs(%C : memref<3x7xf32>)
  return
}
func.func @pipeline(%x: memref<3x5xf32>, %sums: memref<3xf32>) -> memref<3x5xf32> {
  %t = memref.alloc() : memref<3x5xf32>
  %w = memref.get_global @weights : memref<3x5xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : memref<3x5xf32>, memref<3x5xf32>) outs(%t : memref<3x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%sums : memref<3xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%t : memref<3x5xf32>) outs(%sums : memref<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  %c1 = arith.constant 1 : index
  memref.store %zero, %t[%c1, %c1] : memref<3x5xf32>
  %r = memref.alloc() : memref<3x5xf32>
  memref.copy %t, %r : memref<3x5xf32> to memref<3x5xf32>
  memref.dealloc %t : memref<3x5xf32>
  return %r : memref<3x5xf32>
}
func.func @views(%x: memref<4x6xf32>, %y: memref<2x3xf32>) {
  %s = memref.subview %x[1, 2] [2, 3] [1, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 8>>
  %e = memref.expand_shape %y [[0], [1, 2]] output_shape [2, 3, 1] : memref<2x3xf32> into memref<2x3x1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : memref<2x3xf32, strided<[6, 1], offset: 8>>) outs(%e : memref<2x3x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.addf %a, %a : f32
    linalg.yield %d : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<2x3xf32, strided<[6, 1], offset: 8>>)
  return
}
func.func @reinterpret(%x: memref<4x6xf32>, %y: memref<24xf32>) {
  %r = memref.reinterpret_cast %x to offset: [0], sizes: [24], strides: [1] : memref<4x6xf32> to memref<24xf32>
  memref.copy %r, %y : memref<24xf32> to memref<24xf32>
  return
}
