// IREE's mixed-precision attention: Q, K, V, the scale and a float mask in f16, the
// running state (accumulator, maximum, sum) in f32, as one step of online_attention
// followed by the normalization. Each f16 operand is extended where it is read and the
// state stays f32: the same program on f32 inputs of the same values gives the same
// result to f32 rounding. (Computed f32 tensors were stored as half where an f16 input
// came first: 2e-4 off.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse exec %s --entry mixed --backend opencl --dump %t/mixed | FileCheck --check-prefix=VERIFIED %s
// RUN: polyfuse exec %s --entry wide --backend opencl --dump %t/wide | FileCheck --check-prefix=VERIFIED %s
// VERIFIED: verified: yes
// RUN: %python -c "import numpy as n; a=n.load('%t/mixed/r.npy'); b=n.load('%t/wide/r.npy'); print('max difference', float(abs(a-b).max()) < 1e-6)" | FileCheck --check-prefix=SAME %s
// SAME: max difference True
// RUN: polyfuse check %s --entry mixed 2>/dev/null | FileCheck --check-prefix=TYPES %s
// TYPES: pf_att0_acc temporary  float(2, 4)
#q = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#k = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#v = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#s = affine_map<(b, m, k1, k2, n) -> ()>
#mk = affine_map<(b, m, k1, k2, n) -> (b, m, k2)>
#o = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#r = affine_map<(b, m, k1, k2, n) -> (b, m)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @mixed() -> tensor<1x2x4xf32> {
  %q = util.unfoldable_constant dense<[[[0.5, -1.0, 0.25, 2.0], [1.5, 0.125, -0.75, 1.0]]]> : tensor<1x2x4xf16>
  %k = util.unfoldable_constant dense<[[[1.0, 0.5, -0.5, 0.25], [-1.0, 2.0, 0.75, 0.5], [0.25, -0.25, 1.0, -1.5]]]> : tensor<1x3x4xf16>
  %v = util.unfoldable_constant dense<[[[0.1, 0.2, 0.3, 0.4], [1.0, -1.0, 0.5, -0.5], [2.0, 0.0, -2.0, 1.0]]]> : tensor<1x3x4xf16>
  %mask = util.unfoldable_constant dense<[[[0.0, -1.0, 0.5], [0.25, 0.0, -2.0]]]> : tensor<1x2x3xf16>
  %scale = arith.constant 0.5 : f16
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ea = tensor.empty() : tensor<1x2x4xf32>
  %er = tensor.empty() : tensor<1x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.fill ins(%lowest : f32) outs(%er : tensor<1x2xf32>) -> tensor<1x2xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2xf32>) -> tensor<1x2xf32>
  %a:3 = iree_linalg_ext.online_attention {indexing_maps = [#q, #k, #v, #s, #mk, #o, #r, #r]} ins(%q, %k, %v, %scale, %mask : tensor<1x2x4xf16>, tensor<1x3x4xf16>, tensor<1x3x4xf16>, f16, tensor<1x2x3xf16>) outs(%acc, %max, %sum : tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xf32>
  %one = arith.constant 1.0 : f32
  %r = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a#0, %a#2 : tensor<1x2x4xf32>, tensor<1x2xf32>) outs(%ea : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %inv = arith.divf %one, %s : f32
    %y = arith.mulf %x, %inv : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  return %r : tensor<1x2x4xf32>
}
func.func @wide() -> tensor<1x2x4xf32> {
  %q = util.unfoldable_constant dense<[[[0.5, -1.0, 0.25, 2.0], [1.5, 0.125, -0.75, 1.0]]]> : tensor<1x2x4xf32>
  %k = util.unfoldable_constant dense<[[[1.0, 0.5, -0.5, 0.25], [-1.0, 2.0, 0.75, 0.5], [0.25, -0.25, 1.0, -1.5]]]> : tensor<1x3x4xf32>
  %v = util.unfoldable_constant dense<[[[0.0999755859375, 0.199951171875, 0.300048828125, 0.39990234375], [1.0, -1.0, 0.5, -0.5], [2.0, 0.0, -2.0, 1.0]]]> : tensor<1x3x4xf32>
  %mask = util.unfoldable_constant dense<[[[0.0, -1.0, 0.5], [0.25, 0.0, -2.0]]]> : tensor<1x2x3xf32>
  %scale = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ea = tensor.empty() : tensor<1x2x4xf32>
  %er = tensor.empty() : tensor<1x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %max = linalg.fill ins(%lowest : f32) outs(%er : tensor<1x2xf32>) -> tensor<1x2xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2xf32>) -> tensor<1x2xf32>
  %a:3 = iree_linalg_ext.online_attention {indexing_maps = [#q, #k, #v, #s, #mk, #o, #r, #r]} ins(%q, %k, %v, %scale, %mask : tensor<1x2x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>, f32, tensor<1x2x3xf32>) outs(%acc, %max, %sum : tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xf32>) {
  ^bb0(%x: f32):
    iree_linalg_ext.yield %x : f32
  } -> tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xf32>
  %one = arith.constant 1.0 : f32
  %r = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a#0, %a#2 : tensor<1x2x4xf32>, tensor<1x2xf32>) outs(%ea : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %inv = arith.divf %one, %s : f32
    %y = arith.mulf %x, %inv : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  return %r : tensor<1x2x4xf32>
}
