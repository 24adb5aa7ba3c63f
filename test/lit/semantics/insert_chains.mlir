// A tensor built piece by piece, inserts into a tensor.empty each into the one before
// (MLIR's lowering of tosa.concat, torch's rotate_half as an exported LLaMA writes it),
// is the one tensor.concat of its pieces (src/mlir/InsertChains.h): no zero fill, no copy
// of each partial result, one window write a piece. Inserts that are not one
// concatenation (pieces of a grid, pieces that overlap) stay inserts. Every function
// against MLIR's execution.
// RUN: %oracle %s --entry rotate_half --backend ref --backend opencl | FileCheck --check-prefix=ROT %s
// ROT: ref y: 24 elements match MLIR
// ROT: opencl y: 24 elements match MLIR
// RUN: polyfuse check %s --entry rotate_half 2>&1 | FileCheck --check-prefix=ROTP %s
// ROTP: note: 1 chain(s) of tensor.insert_slice filling a tensor.empty side by side along one dimension read as the tensor.concat of their pieces
// ROTP-NOT: = 0.0
// ROTP: S0 (line {{[0-9]+}}): nb(d0, d1) = -x(d0, d1 + 4)
// ROTP: S1 (line {{[0-9]+}}): r2(d0, d1) = x(d0, d1 - 4)
// ROTP: S2 (line {{[0-9]+}}): r2(d0, d1) = nb(d0, d1)
// ROTP: S3 (line {{[0-9]+}}): y(d0, d1) = x(d0, d1) * r2(d0, d1) + x(d0, d1)
// ROTP-NOT: S4
// RUN: %oracle %s --entry tosa_concat --backend ref --backend opencl | FileCheck --check-prefix=TOSA %s
// TOSA: ref r: 30 elements match MLIR
// TOSA: opencl r: 30 elements match MLIR
// RUN: polyfuse check %s --entry tosa_concat 2>&1 | FileCheck --check-prefix=TOSAP %s
// TOSAP: note: 1 chain(s) of tensor.insert_slice
// RUN: %oracle %s --entry grid --backend ref --backend opencl | FileCheck --check-prefix=GRID %s
// GRID: ref r4: 16 elements match MLIR
// GRID: opencl r4: 16 elements match MLIR
// RUN: %oracle %s --entry overlap --backend ref --backend opencl | FileCheck --check-prefix=OVER %s
// OVER: ref r2: 12 elements match MLIR
// OVER: opencl r2: 12 elements match MLIR
// RUN: polyfuse check %s --entry grid 2>&1 | FileCheck --check-prefix=KEPT %s
// RUN: polyfuse check %s --entry overlap 2>&1 | FileCheck --check-prefix=KEPT %s
// KEPT-NOT: chain(s) of tensor.insert_slice
// KEPT: writes into starts as zeros
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rotate_half(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %a = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %b = tensor.extract_slice %x[0, 4] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %e4 = tensor.empty() : tensor<3x4xf32>
  %nb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<3x4xf32>) outs(%e4 : tensor<3x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x8xf32>
  %r1 = tensor.insert_slice %nb into %e[0, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  %r2 = tensor.insert_slice %a into %r1[0, 4] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<3x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %r2 : tensor<3x8xf32>, tensor<3x8xf32>) outs(%e : tensor<3x8xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %m = arith.mulf %u, %v : f32
    %s = arith.addf %m, %u : f32
    linalg.yield %s : f32
  } -> tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}

func.func @tosa_concat(%p: tensor<5x2xf32>, %q: tensor<5x3xf32>, %s: tensor<5x1xf32>) -> tensor<5x6xf32> {
  %r = tosa.concat %p, %q, %s {axis = 1 : i32} : (tensor<5x2xf32>, tensor<5x3xf32>, tensor<5x1xf32>) -> tensor<5x6xf32>
  return %r : tensor<5x6xf32>
}

func.func @grid(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2xf32>, %d: tensor<2x2xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %r1 = tensor.insert_slice %a into %e[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  %r2 = tensor.insert_slice %b into %r1[0, 2] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  %r3 = tensor.insert_slice %c into %r2[2, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  %r4 = tensor.insert_slice %d into %r3[2, 2] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  return %r4 : tensor<4x4xf32>
}

func.func @overlap(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %r1 = tensor.insert_slice %a into %e[0, 0] [3, 3] [1, 1] : tensor<3x3xf32> into tensor<3x4xf32>
  %r2 = tensor.insert_slice %b into %r1[0, 2] [3, 2] [1, 1] : tensor<3x2xf32> into tensor<3x4xf32>
  return %r2 : tensor<3x4xf32>
}
