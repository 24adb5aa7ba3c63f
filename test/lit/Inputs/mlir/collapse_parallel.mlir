func.func @f(%x: tensor<4x3x2xf32>) -> tensor<4x6xf32> {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x3x2xf32> into tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.exp %a : f32
    linalg.yield %t : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
