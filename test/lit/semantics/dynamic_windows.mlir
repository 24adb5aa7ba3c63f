// Convolutions of dynamic extents: the window d0 + d2 stays inside the input only if
// output + filter - 1 <= input, which MLIR leaves to the caller (as it does a slice's
// size). The program states it (a comment in TC, isl's context assumes it), and sizes
// that break it are refused where they are given. Compared with MLIR's execution.
// RUN: polyfuse check %s --entry conv --tc 2>/dev/null | FileCheck %s --check-prefix=TC
// TC: # requires f_0 + y_1 - 1 <= x_0: the window of linalg.generic at line [[@LINE+21]]
// TC-NEXT: # requires f_1 + y_2 - 1 <= x_1: the window of linalg.generic at line [[@LINE+20]]
// RUN: %oracle %s --entry conv --shape x=7x9 --shape f=3x2 --shape y=1x5x8 --backend ref --backend opencl | FileCheck %s --check-prefix=CONV
// CONV: ref r: 40 elements match MLIR
// CONV: opencl r: 40 elements match MLIR
// A strided, dilated window: 2*d0 + 3*d2 reads 2*(out - 1) + 3*(filter - 1) + 1 elements.
// RUN: polyfuse check %s --entry strided --tc 2>/dev/null | FileCheck %s --check-prefix=STRIDED
// STRIDED: # requires 3*f_0 + 2*y_1 - 4 <= x_0: the window of linalg.generic at line
// RUN: %oracle %s --entry strided --shape x=15 --shape f=3 --shape y=1x5 --backend ref --backend opencl | FileCheck %s --check-prefix=SCONV
// SCONV: ref r: 5 elements match MLIR
// SCONV: opencl r: 5 elements match MLIR
// RUN: expect-exit 2 polyfuse exec %s --entry conv --size x_0=7,x_1=9,f_0=3,f_1=2,y_1=6,y_2=8 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: error: sizes 'f_0' = 3, 'y_1' = 6 are too large: the window of linalg.generic at line [[@LINE+9]] needs f_0 + y_1 - 1 <= x_0 = 7
func.func @conv(%x: tensor<?x?xf32>, %f: tensor<?x?xf32>, %y: tensor<1x?x?xf32>) -> tensor<?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %y, %c1 : tensor<1x?x?xf32>
  %d1 = tensor.dim %y, %c2 : tensor<1x?x?xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.conv_2d ins(%x, %f : tensor<?x?xf32>, tensor<?x?xf32>) outs(%o : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @strided(%x: tensor<?xf32>, %f: tensor<?xf32>, %y: tensor<1x?xf32>) -> tensor<?xf32> {
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %y, %c1 : tensor<1x?xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%d0) : tensor<?xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (2 * i + 3 * k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %f : tensor<?xf32>, tensor<?xf32>) outs(%o : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
