func.func @tb(%x: tensor<3x5xf32>) -> tensor<5x3xf32> {
  %e = tensor.empty() : tensor<5x3xf32>
  %t = linalg.transpose ins(%x : tensor<3x5xf32>) outs(%e : tensor<5x3xf32>) permutation =r(d0)
  return %t : tensor<5x3xf32>
}
