// A matmul of f16 (and of bf16) operands into f32, as torch-mlir and IREE write one for
// mixed precision: MLIR extends each operand to f32, multiplies and adds in f32. The
// products of halves are exact in f32, which the tensor-core plans rely on
// (cuda/half_mma.test); here the reading itself against MLIR's execution, at odd sizes.
// RUN: %oracle %s --entry f16 --backend ref --backend opencl | FileCheck --check-prefix=F16 %s
// F16: ref {{.*}}: 1073 elements match MLIR
// F16: opencl {{.*}}: 1073 elements match MLIR
// RUN: %oracle %s --entry bf16 --backend ref --backend opencl | FileCheck --check-prefix=BF16 %s
// BF16: ref {{.*}}: 1073 elements match MLIR
// BF16: opencl {{.*}}: 1073 elements match MLIR

func.func @f16(%a: tensor<37x45xf16>, %b: tensor<45x29xf16>, %bias: tensor<29xf32>) -> tensor<37x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x29xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
  %m = linalg.matmul ins(%a, %b : tensor<37x45xf16>, tensor<45x29xf16>) outs(%z : tensor<37x29xf32>) -> tensor<37x29xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<37x29xf32>, tensor<29xf32>) outs(%e : tensor<37x29xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    linalg.yield %s : f32
  } -> tensor<37x29xf32>
  return %r : tensor<37x29xf32>
}

func.func @bf16(%a: tensor<37x45xbf16>, %b: tensor<45x29xbf16>, %bias: tensor<29xf32>) -> tensor<37x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x29xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
  %m = linalg.matmul ins(%a, %b : tensor<37x45xbf16>, tensor<45x29xbf16>) outs(%z : tensor<37x29xf32>) -> tensor<37x29xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<37x29xf32>, tensor<29xf32>) outs(%e : tensor<37x29xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    linalg.yield %s : f32
  } -> tensor<37x29xf32>
  return %r : tensor<37x29xf32>
}
