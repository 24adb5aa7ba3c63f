// MLIR 19's linalg.reduce, transpose, broadcast and map (map has no generalization of
// its own in MLIR: polyfuse writes its generic), the elementwise named ops (linalg.add,
// linalg.exp, .., elemwise_binary), and linalg.softmax through MLIR's own decomposition
// (the oracle decomposes it the same way, with MLIR's transform interpreter). Each is
// compared with MLIR's execution.
// RUN: %oracle %s --entry red --backend ref --backend opencl | FileCheck --check-prefix=RED %s
// RED: opencl r: 3 elements match MLIR
// RUN: %oracle %s --entry tb --backend ref --backend opencl | FileCheck --check-prefix=TB %s
// TB: opencl b: 30 elements match MLIR
// RUN: %oracle %s --entry mapmax --backend ref --backend opencl --value 'y=[1, nan, -0.0, 0, 3, -2]' | FileCheck --check-prefix=MAP %s
// MAP: opencl r: 6 elements match MLIR
// RUN: polyfuse check %s --entry soft --tc | FileCheck --check-prefix=SOFT %s
// SOFT: r(d0) fmax= x(d0, d1)
// SOFT: r_3(d0, d1) = r_1(d0, d1) / r_2(d0)
// RUN: polyfuse exec %s --entry soft --backend opencl | FileCheck --check-prefix=EXEC %s
// EXEC: verified: yes
// RUN: %oracle %s --entry soft --backend ref --backend opencl | FileCheck --check-prefix=SOFTX %s
// SOFTX: ref r_3: 15 elements match MLIR
// SOFTX: opencl r_3: 15 elements match MLIR
// RUN: %oracle %s --entry ew --backend ref --backend opencl | FileCheck --check-prefix=EW %s
// EW: ref r: 21 elements match MLIR
// EW: opencl r: 21 elements match MLIR
// RUN: polyfuse fuse %s --entry ew 2>/dev/null | FileCheck --check-prefix=EWF %s
// EWF: total: 1 kernel(s)
func.func @red(%x: tensor<3x5xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.reduce ins(%x : tensor<3x5xf32>) outs(%f : tensor<3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<3xf32>
}
func.func @tb(%x: tensor<3x5xf32>) -> tensor<5x3x2xf32> {
  %e = tensor.empty() : tensor<5x3xf32>
  %t = linalg.transpose ins(%x : tensor<3x5xf32>) outs(%e : tensor<5x3xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<5x3x2xf32>
  %b = linalg.broadcast ins(%t : tensor<5x3xf32>) outs(%e2 : tensor<5x3x2xf32>) dimensions = [2]
  return %b : tensor<5x3x2xf32>
}
func.func @mapmax(%x: tensor<6xf32>, %y: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.map { arith.maximumf } ins(%x, %y : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>)
  return %r : tensor<6xf32>
}
func.func @soft(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @ew(%x: tensor<3x7xf32>, %y: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %e = tensor.empty() : tensor<3x7xf32>
  %a = linalg.add ins(%x, %y : tensor<3x7xf32>, tensor<3x7xf32>) outs(%e : tensor<3x7xf32>) -> tensor<3x7xf32>
  %b = linalg.exp ins(%a : tensor<3x7xf32>) outs(%e : tensor<3x7xf32>) -> tensor<3x7xf32>
  %c = linalg.max ins(%b, %x : tensor<3x7xf32>, tensor<3x7xf32>) outs(%e : tensor<3x7xf32>) -> tensor<3x7xf32>
  %d = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%c, %y : tensor<3x7xf32>, tensor<3x7xf32>) outs(%e : tensor<3x7xf32>) -> tensor<3x7xf32>
  %r = linalg.elemwise_unary {fun = #linalg.unary_fn<abs>} ins(%d : tensor<3x7xf32>) outs(%e : tensor<3x7xf32>) -> tensor<3x7xf32>
  return %r : tensor<3x7xf32>
}
