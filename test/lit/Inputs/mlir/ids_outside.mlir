func.func @f(%wpe: tensor<16x8xf32>) -> tensor<20x8xf32> {
  %pe = tensor.empty() : tensor<20xi64>
  %pos = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%pe : tensor<20xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<20xi64>
  %e = tensor.empty() : tensor<20x8xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%pos : tensor<20xi64>) outs(%e : tensor<20x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %x = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %r = tensor.extract %wpe[%x, %j] : tensor<16x8xf32>
    linalg.yield %r : f32
  } -> tensor<20x8xf32>
  return %v : tensor<20x8xf32>
}
