// tensor.concat, as torch-mlir lowers torch.cat: one window write per operand, each at
// the offset of those before it, compared with MLIR's own meaning (the oracle runs
// MLIR's decomposition into insert_slices, since MLIR 19 cannot bufferize concat).
//
// Rotary embedding's half swap, cat(-x2, x1) along the last dimension, then a product:
// RUN: %oracle %s --entry rotate_half --backend ref --backend opencl | FileCheck --check-prefix=ROT %s
// ROT: ref r: 70 elements match MLIR
// ROT: opencl r: 70 elements match MLIR
// RUN: polyfuse check %s --entry rotate_half --tc | FileCheck --check-prefix=ROT-TC %s
// ROT-TC: rot(d0, d1) = x(d0, d1 - 5) where d0 in 0:7, d1 in 5:10
// ROT-TC-NEXT: rot(d0, d1) = neg(d0, d1) where d0 in 0:7, d1 in 0:5
// The halves, the swap and the product fuse into one kernel: the concatenation is
// never stored.
// RUN: polyfuse fuse %s --entry rotate_half | FileCheck --check-prefix=ROT-FUSE %s
// ROT-FUSE: total: 1 kernel(s)
//
// Three operands along dimension 0, one of them a computed tensor:
// RUN: %oracle %s --entry rows --backend ref --backend opencl | FileCheck --check-prefix=ROWS %s
// ROWS: ref v0: 27 elements match MLIR
// ROWS: opencl v0: 27 elements match MLIR
//
// A concatenation along a dynamic dimension has no static offsets:
// RUN: not polyfuse check %s --entry dynamic 2>&1 | FileCheck --check-prefix=DYN %s
// DYN: concat.mlir:[[@LINE+34]]:8: tensor.concat along a dynamic dimension (dimension 0) is not supported

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rotate_half(%x: tensor<7x10xf32>, %c: tensor<7x10xf32>) -> tensor<7x10xf32> {
  %x1 = tensor.extract_slice %x[0, 0] [7, 5] [1, 1] : tensor<7x10xf32> to tensor<7x5xf32>
  %x2 = tensor.extract_slice %x[0, 5] [7, 5] [1, 1] : tensor<7x10xf32> to tensor<7x5xf32>
  %e = tensor.empty() : tensor<7x5xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x2 : tensor<7x5xf32>) outs(%e : tensor<7x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<7x5xf32>
  %rot = tensor.concat dim(1) %neg, %x1 : (tensor<7x5xf32>, tensor<7x5xf32>) -> tensor<7x10xf32>
  %e2 = tensor.empty() : tensor<7x10xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%rot, %c : tensor<7x10xf32>, tensor<7x10xf32>) outs(%e2 : tensor<7x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<7x10xf32>
  return %r : tensor<7x10xf32>
}

func.func @rows(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<3x3xf32>) -> tensor<9x3xf32> {
  %e = tensor.empty() : tensor<4x3xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %v : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  %0 = tensor.concat dim(0) %a, %sq, %c : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<9x3xf32>
  return %0 : tensor<9x3xf32>
}

func.func @dynamic(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>) -> tensor<?x3xf32> {
  %0 = tensor.concat dim(0) %a, %b : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
