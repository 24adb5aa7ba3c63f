// torch-mlir's tm_tensor.attention (torch's scaled_dot_product_attention) read as IREE's
// attention with the maps its shapes mean: softmax(Q.K^T x scale + mask).V, the scale
// 1/sqrt(head dim) where none is given, an i1 mask adding 0 where true and -inf elsewhere.
// The dialect is not MLIR 19's to run: numpy computes the expected values
// (Inputs/sdpa_check.py).
// RUN: rm -rf %t && mkdir -p %t/in %t/plain %t/masked
// RUN: %python %S/Inputs/sdpa_check.py inputs %t/in
// RUN: polyfuse check %s --entry sdpa --tc 2>&1 | FileCheck %s --check-prefix=TC
// TC: note: read 2 tm_tensor.attention op(s)
// TC: pf_att0_qs(d0, d1, d2) = q(d0, d1, d2) * 0.35355338 * 1.442695
// TC: r(d0, d1, d2) +=! pf_att0_p(d0, d1, d3) * v(d0, d3, d2)
// RUN: polyfuse exec %s --entry sdpa --backend opencl --input=q=%t/in/q.npy --input=k=%t/in/k.npy --input=v=%t/in/v.npy --dump %t/plain | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/Inputs/sdpa_check.py plain %t/plain | FileCheck %s --check-prefix=AGREES
// RUN: polyfuse exec %s --entry sdpa_masked --backend opencl --input=q=%t/in/q.npy --input=k=%t/in/k.npy --input=v=%t/in/v.npy --input=m=%t/in/m.npy --dump %t/masked | FileCheck %s --check-prefix=EXEC
// RUN: %python %S/Inputs/sdpa_check.py masked %t/masked | FileCheck %s --check-prefix=AGREES
// EXEC: verified: yes
// AGREES: agrees
func.func @sdpa(%q: tensor<2x5x8xf32>, %k: tensor<2x7x8xf32>, %v: tensor<2x7x3xf32>) -> tensor<2x5x3xf32> {
  %e = tensor.empty() : tensor<2x5x3xf32>
  %r = tm_tensor.attention ins(%q, %k, %v : tensor<2x5x8xf32>, tensor<2x7x8xf32>, tensor<2x7x3xf32>) outs(%e : tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %r : tensor<2x5x3xf32>
}
func.func @sdpa_masked(%q: tensor<2x5x8xf32>, %k: tensor<2x7x8xf32>, %v: tensor<2x7x3xf32>, %m: tensor<2x5x7xi1>) -> tensor<2x5x3xf32> {
  %e = tensor.empty() : tensor<2x5x3xf32>
  %r = tm_tensor.attention {scale = 2.500000e-01 : f64} ins(%q, %k, %v, %m : tensor<2x5x8xf32>, tensor<2x7x8xf32>, tensor<2x7x3xf32>, tensor<2x5x7xi1>) outs(%e : tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %r : tensor<2x5x3xf32>
}
