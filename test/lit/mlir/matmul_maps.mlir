// MLIR 20's linalg.matmul and batch_matmul with explicit indexing_maps (torch's Linear as a
// matmul whose B is [N, K]; IREE writes them so), and MLIR 21's linalg.contract, read by
// MLIR 19 as the linalg.generic each means: the maps as given, a loop parallel where the
// result's map names it, the operands cast to the result's type (bf16 to f32 here), then
// multiplied and added.
// RUN: polyfuse check %s --entry linear --tc 2>/dev/null | FileCheck --check-prefix=LINEAR %s
// LINEAR: v2(d0, d1) +=! x(d0, d2) * w(d1, d2)
// LINEAR-NEXT: v3(d0, d1) = v2(d0, d1) + b(d1)
// RUN: polyfuse check %s --entry linear --tc 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: read newer MLIR's spellings: linalg.matmul, batch_matmul, batch_reduce_matmul and contract with indexing_maps (MLIR 20, 21) as the linalg.generic each means
// RUN: polyfuse check %s --entry mixed --tc 2>/dev/null | FileCheck --check-prefix=MIXED %s
// MIXED: def mixed(bfloat16(4, 6) x, bfloat16(6, 5) w) -> (float(4, 5) v2) {
// MIXED-NEXT: v2(d0, d1) +=! x(d0, d2) * w(d2, d1)
// RUN: polyfuse check %s --entry batched --tc 2>/dev/null | FileCheck --check-prefix=BATCHED %s
// BATCHED: v2(d0, d1, d2) +=! x(d0, d3, d1) * w(d0, d3, d2)
// RUN: polyfuse check %s --entry contract --tc 2>/dev/null | FileCheck --check-prefix=CONTRACT %s
// CONTRACT: v2(d0, d1) +=! q(d2, d0) * k(d2, d1)
// RUN: polyfuse check %s --entry unsigned --tc 2>/dev/null | FileCheck --check-prefix=UNSIGNED %s
// An i32 sum wraps at 32 bits: summed, then wrapped once (wrapping commutes with + and *).
// UNSIGNED: v2_unwrapped(d0, d1) +=! wrap(zext(a(d0, d2), 8) * zext(b(d2, d1), 8), 32)
// UNSIGNED-NEXT: v2(d0, d1) = wrap(v2_unwrapped(d0, d1), 32)
// RUN: polyfuse exec %s --entry linear --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
// The generic keeps the op's lines: a message after it names the user's line.
// RUN: not polyfuse check %s --entry after 2>&1 | FileCheck --check-prefix=AFTER %s
// AFTER: matmul_maps.mlir:[[@LINE+54]]:8: tensor.pad with computed padding amounts is not supported
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @linear(%x: tensor<5x7xf32>, %w: tensor<3x7xf32>, %b: tensor<3xf32>) -> tensor<5x3xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<5x3xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<5x3xf32>) -> tensor<5x3xf32>
  %2 = linalg.matmul indexing_maps = [#mA, #mB, #mC]
         ins(%x, %w : tensor<5x7xf32>, tensor<3x7xf32>)
         outs(%1 : tensor<5x3xf32>) -> tensor<5x3xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2, %b : tensor<5x3xf32>, tensor<3xf32>) outs(%0 : tensor<5x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %s = arith.addf %in, %bb : f32
    linalg.yield %s : f32
  } -> tensor<5x3xf32>
  return %3 : tensor<5x3xf32>
}
func.func @mixed(%x: tensor<4x6xbf16>, %w: tensor<6x5xbf16>) -> tensor<4x5xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<4x5xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %2 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<4x6xbf16>, tensor<6x5xbf16>) outs(%1 : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %2 : tensor<4x5xf32>
}
func.func @batched(%x: tensor<2x6x4xf32>, %w: tensor<2x6x5xf32>) -> tensor<2x4x5xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<2x4x5xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  %2 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%x, %w : tensor<2x6x4xf32>, tensor<2x6x5xf32>) outs(%1 : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return %2 : tensor<2x4x5xf32>
}
func.func @contract(%q: tensor<6x4xf32>, %k: tensor<6x5xf32>) -> tensor<4x5xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<4x5xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %2 = linalg.contract
         indexing_maps = [affine_map<(i, j, r) -> (r, i)>,
                          affine_map<(i, j, r) -> (r, j)>,
                          affine_map<(i, j, r) -> (i, j)>]
         ins(%q, %k : tensor<6x4xf32>, tensor<6x5xf32>) outs(%1 : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %2 : tensor<4x5xf32>
}
func.func @unsigned(%a: tensor<3x4xi8>, %b: tensor<4x2xi8>) -> tensor<3x2xi32> {
  %c0 = arith.constant 0 : i32
  %0 = tensor.empty() : tensor<3x2xi32>
  %1 = linalg.fill ins(%c0 : i32) outs(%0 : tensor<3x2xi32>) -> tensor<3x2xi32>
  %2 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : tensor<3x4xi8>, tensor<4x2xi8>) outs(%1 : tensor<3x2xi32>) -> tensor<3x2xi32>
  return %2 : tensor<3x2xi32>
}
func.func @after(%x: tensor<4xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %y, %c0 : tensor<?xf32>
  %p = tensor.pad %x low[%n] high[0] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %p : tensor<?xf32>
}
