func.func @f(%ids: tensor<4xi64>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %v = tensor.collapse_shape %w [[0, 1]] : tensor<8x6xf32> into tensor<48xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %x = tensor.extract %v[%i] : tensor<48xf32>
    linalg.yield %x : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
