func.func @r(%flat: tensor<12xf32>) -> tensor<3x4xf32> {
  %x = flow.tensor.reshape %flat : tensor<99999999999999999999999x12xf32> -> tensor<3x4xf32>
  return %x : tensor<3x4xf32>
}
