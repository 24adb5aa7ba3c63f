// IREE's iree_linalg_ext.attention read as the linalg it means, as IREE defines it (its
// decomposition, and the values its e2e tests expect): Q scaled by scale x log2(e), the
// scores Q.K, the op's region on each score, an i1 mask adding 0 where true and -inf
// elsewhere, a softmax in base 2 over the keys, the weighted sum of V. The values below
// were computed apart from polyfuse (numpy, from that definition) for batch 1, all rows.
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse exec %s --entry plain --backend opencl --dump %t/plain | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/plain/o.npy')[1].round(4).tolist())" | FileCheck --check-prefix=PLAIN %s
// PLAIN: {{\[}}[0.218, -0.2592, 0.2351], [0.2759, -0.3098, 0.2024], [0.235, -0.2738, 0.1987]]
// RUN: polyfuse exec %s --entry masked --backend opencl --dump %t/masked | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/masked/o.npy')[1].round(4).tolist())" | FileCheck --check-prefix=MASKED %s
// MASKED: {{\[}}[0.5743, -0.8205, -0.0481], [0.195, -0.0614, 0.1883], [0.235, -0.2738, 0.1987]]
// RUN: polyfuse exec %s --entry capped --backend opencl --dump %t/capped | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/capped/o.npy')[1].round(4).tolist())" | FileCheck --check-prefix=CAPPED %s
// CAPPED: {{\[}}[0.2181, -0.2588, 0.2356], [0.2754, -0.3094, 0.2032], [0.2357, -0.2743, 0.199]]
// online_attention, one step of the streamed form from an empty state (maximum -inf, sum
// and accumulator 0), then the accumulator divided by the sum: the same values.
// RUN: polyfuse exec %s --entry online --backend opencl --dump %t/online | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy; print(numpy.load('%t/online/o.npy')[1].round(4).tolist())" | FileCheck --check-prefix=PLAIN %s
// On dynamic shapes (the extents `tensor.dim` of the operands), the same values:
// RUN: polyfuse exec %s --entry dynamic --backend opencl --dump %t/dynamic | FileCheck --check-prefix=VERIFIED %s
// RUN: %python -c "import numpy, glob; print(numpy.load(glob.glob('%t/dynamic/*.npy')[0])[1].round(4).tolist())" | FileCheck --check-prefix=PLAIN %s
// VERIFIED: verified: yes
// RUN: polyfuse check %s --entry masked --tc 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: read 5 iree_linalg_ext.attention and online_attention op(s) as the linalg they mean
// The generics keep the op's lines: a message after them names the user's line.
// RUN: not polyfuse check %s --entry after 2>&1 | FileCheck --check-prefix=AFTER %s
// AFTER: iree_attention.mlir:[[@LINE+69]]:8: tensor.pad with computed padding amounts is not supported
func.func @plain() {
  %q = util.unfoldable_constant dense<[[[-0.83, -0.53, 0.6, 0.16], [-0.81, -0.13, -0.04, -0.68], [0.47, -0.77, -0.22, 0.03]], [[-0.14, 0.17, 0.48, 0.91], [-0.43, 0.3, 0.39, -0.41], [-1.0, 0.95, -0.4, -0.37]]]> : tensor<2x3x4xf32>
  %k = util.unfoldable_constant dense<[[[0.78, 0.17, -0.06, 0.55], [-0.94, 0.41, -0.25, -0.82], [0.32, 0.86, -0.59, 0.26], [-0.4, 0.48, 0.44, -0.56], [0.66, 0.32, 0.37, 0.64]], [[-0.14, 0.52, 0.76, -0.8], [0.7, -0.21, -0.04, -0.71], [0.4, -0.42, 0.74, -0.45], [0.12, -0.2, 0.23, -0.61], [-0.64, 0.49, 0.5, 0.13]]]> : tensor<2x5x4xf32>
  %v = util.unfoldable_constant dense<[[[0.84, -0.59, 0.7], [-0.66, 0.93, 0.25], [0.21, 0.94, 0.57], [0.58, -0.89, -0.26], [-0.83, -0.61, -0.57]], [[0.72, -0.75, -0.41], [-0.01, 0.7, 0.93], [0.42, -0.57, 0.09], [0.41, -0.9, 0.36], [-0.26, 0.18, 0.34]]]> : tensor<2x5x3xf32>
  %init = tensor.empty() : tensor<2x3x3xf32>
  %scale = arith.constant 0.5 : f32
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
         ins(%q, %k, %v, %scale : tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x3xf32>, f32)
         outs(%init : tensor<2x3x3xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x3xf32>
  check.expect_almost_eq(%o, %o) : tensor<2x3x3xf32>
  return
}
func.func @masked() {
  %q = util.unfoldable_constant dense<[[[-0.83, -0.53, 0.6, 0.16], [-0.81, -0.13, -0.04, -0.68], [0.47, -0.77, -0.22, 0.03]], [[-0.14, 0.17, 0.48, 0.91], [-0.43, 0.3, 0.39, -0.41], [-1.0, 0.95, -0.4, -0.37]]]> : tensor<2x3x4xf32>
  %k = util.unfoldable_constant dense<[[[0.78, 0.17, -0.06, 0.55], [-0.94, 0.41, -0.25, -0.82], [0.32, 0.86, -0.59, 0.26], [-0.4, 0.48, 0.44, -0.56], [0.66, 0.32, 0.37, 0.64]], [[-0.14, 0.52, 0.76, -0.8], [0.7, -0.21, -0.04, -0.71], [0.4, -0.42, 0.74, -0.45], [0.12, -0.2, 0.23, -0.61], [-0.64, 0.49, 0.5, 0.13]]]> : tensor<2x5x4xf32>
  %v = util.unfoldable_constant dense<[[[0.84, -0.59, 0.7], [-0.66, 0.93, 0.25], [0.21, 0.94, 0.57], [0.58, -0.89, -0.26], [-0.83, -0.61, -0.57]], [[0.72, -0.75, -0.41], [-0.01, 0.7, 0.93], [0.42, -0.57, 0.09], [0.41, -0.9, 0.36], [-0.26, 0.18, 0.34]]]> : tensor<2x5x3xf32>
  %mask = util.unfoldable_constant dense<[[[true, false, false, true, false], [true, true, false, false, true], [true, true, true, true, true]], [[true, false, false, true, false], [true, true, false, false, true], [true, true, true, true, true]]]> : tensor<2x3x5xi1>
  %init = tensor.empty() : tensor<2x3x3xf32>
  %scale = arith.constant 0.5 : f32
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, k2)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
         ins(%q, %k, %v, %scale, %mask : tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x3xf32>, f32, tensor<2x3x5xi1>)
         outs(%init : tensor<2x3x3xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x3xf32>
  check.expect_almost_eq(%o, %o) : tensor<2x3x3xf32>
  return
}
func.func @capped() {
  %q = util.unfoldable_constant dense<[[[-0.83, -0.53, 0.6, 0.16], [-0.81, -0.13, -0.04, -0.68], [0.47, -0.77, -0.22, 0.03]], [[-0.14, 0.17, 0.48, 0.91], [-0.43, 0.3, 0.39, -0.41], [-1.0, 0.95, -0.4, -0.37]]]> : tensor<2x3x4xf32>
  %k = util.unfoldable_constant dense<[[[0.78, 0.17, -0.06, 0.55], [-0.94, 0.41, -0.25, -0.82], [0.32, 0.86, -0.59, 0.26], [-0.4, 0.48, 0.44, -0.56], [0.66, 0.32, 0.37, 0.64]], [[-0.14, 0.52, 0.76, -0.8], [0.7, -0.21, -0.04, -0.71], [0.4, -0.42, 0.74, -0.45], [0.12, -0.2, 0.23, -0.61], [-0.64, 0.49, 0.5, 0.13]]]> : tensor<2x5x4xf32>
  %v = util.unfoldable_constant dense<[[[0.84, -0.59, 0.7], [-0.66, 0.93, 0.25], [0.21, 0.94, 0.57], [0.58, -0.89, -0.26], [-0.83, -0.61, -0.57]], [[0.72, -0.75, -0.41], [-0.01, 0.7, 0.93], [0.42, -0.57, 0.09], [0.41, -0.9, 0.36], [-0.26, 0.18, 0.34]]]> : tensor<2x5x3xf32>
  %init = tensor.empty() : tensor<2x3x3xf32>
  %scale = arith.constant 0.5 : f32
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
         ins(%q, %k, %v, %scale : tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x3xf32>, f32)
         outs(%init : tensor<2x3x3xf32>) {
    ^bb0(%s: f32):
      %third = arith.constant 0.333333343 : f32
      %cap = arith.constant 3.0 : f32
      %d = arith.mulf %s, %third : f32
      %t = math.tanh %d : f32
      %c = arith.mulf %t, %cap : f32
      iree_linalg_ext.yield %c : f32
  } -> tensor<2x3x3xf32>
  check.expect_almost_eq(%o, %o) : tensor<2x3x3xf32>
  return
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
func.func @online() {
  %q = util.unfoldable_constant dense<[[[-0.83, -0.53, 0.6, 0.16], [-0.81, -0.13, -0.04, -0.68], [0.47, -0.77, -0.22, 0.03]], [[-0.14, 0.17, 0.48, 0.91], [-0.43, 0.3, 0.39, -0.41], [-1.0, 0.95, -0.4, -0.37]]]> : tensor<2x3x4xf32>
  %k = util.unfoldable_constant dense<[[[0.78, 0.17, -0.06, 0.55], [-0.94, 0.41, -0.25, -0.82], [0.32, 0.86, -0.59, 0.26], [-0.4, 0.48, 0.44, -0.56], [0.66, 0.32, 0.37, 0.64]], [[-0.14, 0.52, 0.76, -0.8], [0.7, -0.21, -0.04, -0.71], [0.4, -0.42, 0.74, -0.45], [0.12, -0.2, 0.23, -0.61], [-0.64, 0.49, 0.5, 0.13]]]> : tensor<2x5x4xf32>
  %v = util.unfoldable_constant dense<[[[0.84, -0.59, 0.7], [-0.66, 0.93, 0.25], [0.21, 0.94, 0.57], [0.58, -0.89, -0.26], [-0.83, -0.61, -0.57]], [[0.72, -0.75, -0.41], [-0.01, 0.7, 0.93], [0.42, -0.57, 0.09], [0.41, -0.9, 0.36], [-0.26, 0.18, 0.34]]]> : tensor<2x5x3xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32
  %scale = arith.constant 0.5 : f32
  %ea = tensor.empty() : tensor<2x3x3xf32>
  %er = tensor.empty() : tensor<2x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %max = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %r:3 = iree_linalg_ext.online_attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                           affine_map<(b, m, k1, k2, n) -> ()>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, m, n)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, m)>,
                                                           affine_map<(b, m, k1, k2, n) -> (b, m)>]}
         ins(%q, %k, %v, %scale : tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x3xf32>, f32)
         outs(%acc, %max, %sum : tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%r#0, %r#2 : tensor<2x3x3xf32>, tensor<2x3xf32>) outs(%ea : tensor<2x3x3xf32>) {
    ^bb0(%a: f32, %l: f32, %out: f32):
      %d = arith.divf %a, %l : f32
      linalg.yield %d : f32
  } -> tensor<2x3x3xf32>
  check.expect_almost_eq(%o, %o) : tensor<2x3x3xf32>
  return
}
func.func @dynamic() {
  %q = flow.tensor.dynamic_constant dense<[[[-0.83, -0.53, 0.6, 0.16], [-0.81, -0.13, -0.04, -0.68], [0.47, -0.77, -0.22, 0.03]], [[-0.14, 0.17, 0.48, 0.91], [-0.43, 0.3, 0.39, -0.41], [-1.0, 0.95, -0.4, -0.37]]]> : tensor<2x3x4xf32> -> tensor<?x?x?xf32>
  %k = flow.tensor.dynamic_constant dense<[[[0.78, 0.17, -0.06, 0.55], [-0.94, 0.41, -0.25, -0.82], [0.32, 0.86, -0.59, 0.26], [-0.4, 0.48, 0.44, -0.56], [0.66, 0.32, 0.37, 0.64]], [[-0.14, 0.52, 0.76, -0.8], [0.7, -0.21, -0.04, -0.71], [0.4, -0.42, 0.74, -0.45], [0.12, -0.2, 0.23, -0.61], [-0.64, 0.49, 0.5, 0.13]]]> : tensor<2x5x4xf32> -> tensor<?x?x?xf32>
  %v = flow.tensor.dynamic_constant dense<[[[0.84, -0.59, 0.7], [-0.66, 0.93, 0.25], [0.21, 0.94, 0.57], [0.58, -0.89, -0.26], [-0.83, -0.61, -0.57]], [[0.72, -0.75, -0.41], [-0.01, 0.7, 0.93], [0.42, -0.57, 0.09], [0.41, -0.9, 0.36], [-0.26, 0.18, 0.34]]]> : tensor<2x5x3xf32> -> tensor<?x?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x?xf32>
  %m = tensor.dim %q, %c1 : tensor<?x?x?xf32>
  %n = tensor.dim %v, %c2 : tensor<?x?x?xf32>
  %init = tensor.empty(%b, %m, %n) : tensor<?x?x?xf32>
  %scale = arith.constant 0.5 : f32
  %o = iree_linalg_ext.attention {indexing_maps = [affine_map<(b, m, k1, k2, n) -> (b, m, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, k2, n)>,
                                                   affine_map<(b, m, k1, k2, n) -> ()>,
                                                   affine_map<(b, m, k1, k2, n) -> (b, m, n)>]}
         ins(%q, %k, %v, %scale : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, f32)
         outs(%init : tensor<?x?x?xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<?x?x?xf32>
  %r = tensor.cast %o : tensor<?x?x?xf32> to tensor<2x3x3xf32>
  check.expect_almost_eq(%r, %r) : tensor<2x3x3xf32>
  return
}
