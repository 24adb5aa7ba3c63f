func.func @f(%x: tensor<4x3x2xf32>, %y: tensor<4x2x3xf32>) -> tensor<4x6xf32> {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x3x2xf32> into tensor<4x6xf32>
  %d = tensor.collapse_shape %y [[0], [1, 2]] : tensor<4x2x3xf32> into tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %d : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
