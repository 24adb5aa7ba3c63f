func.func @f(%ids: tensor<4xi64>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %v = tensor.expand_shape %w [[0], [1, 2]] output_shape [8, 2, 3] : tensor<8x6xf32> into tensor<8x2x3xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %x = tensor.extract %v[%i, %c1, %c2] : tensor<8x2x3xf32>
    linalg.yield %x : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
