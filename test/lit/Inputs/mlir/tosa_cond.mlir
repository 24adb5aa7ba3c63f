func.func @cond(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %r = tosa.cond_if %c -> (tensor<4xf32>) {
    %n = tosa.negate %x : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %n : tensor<4xf32>
  } else {
    tosa.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
