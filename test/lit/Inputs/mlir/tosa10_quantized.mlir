func.func @q(%x: tensor<1x5x7xi8>, %w: tensor<1x7x3xi8>) -> tensor<1x5x3xi32> {
  %zp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mm = tosa.matmul %x, %w, %zp, %zp : (tensor<1x5x7xi8>, tensor<1x7x3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x3xi32>
  return %mm : tensor<1x5x3xi32>
}
