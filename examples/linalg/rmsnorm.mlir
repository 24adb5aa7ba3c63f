// RMSNorm as linalg on tensors: the mean square is a reduction started from a fill of
// zero, then each row is scaled by the reciprocal root of it and by %w.
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rmsnorm(%X: tensor<?x?xf32>, %w: tensor<?xf32>, %eps: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %X, %c0 : tensor<?x?xf32>
  %m = tensor.dim %X, %c1 : tensor<?x?xf32>
  %mi = arith.index_cast %m : index to i64
  %mf = arith.sitofp %mi : i64 to f32
  %zero = arith.constant 0.0 : f32
  %rowsEmpty = tensor.empty(%n) : tensor<?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%rowsEmpty : tensor<?xf32>) -> tensor<?xf32>
  %ms = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : tensor<?x?xf32>) outs(%acc : tensor<?xf32>) {
  ^bb0(%x: f32, %a: f32):
    %sq = arith.mulf %x, %x : f32
    %q = arith.divf %sq, %mf : f32
    %r = arith.addf %q, %a : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %full = tensor.empty(%n, %m) : tensor<?x?xf32>
  %Y = linalg.generic {indexing_maps = [#rows, #row, #col, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%X, %ms, %w : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%full : tensor<?x?xf32>) {
  ^bb0(%x: f32, %s: f32, %g: f32, %o: f32):
    %se = arith.addf %s, %eps : f32
    %rs = math.rsqrt %se : f32
    %t = arith.mulf %x, %rs : f32
    %y = arith.mulf %t, %g : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %Y : tensor<?x?xf32>
}
