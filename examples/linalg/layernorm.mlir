// LayerNorm over the rows of %X with a learned scale and shift, as linalg on tensors:
// the mean and the variance are reductions whose inits are fills of zero, and the row
// length is read from the tensor (%X's dimension 1 becomes the size X_1).
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @layernorm(%X: tensor<?x?xf32>, %gamma: tensor<?xf32>, %beta: tensor<?xf32>, %eps: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %X, %c0 : tensor<?x?xf32>
  %m = tensor.dim %X, %c1 : tensor<?x?xf32>
  %mi = arith.index_cast %m : index to i64
  %mf = arith.sitofp %mi : i64 to f32
  %zero = arith.constant 0.0 : f32
  %rowsEmpty = tensor.empty(%n) : tensor<?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%rowsEmpty : tensor<?xf32>) -> tensor<?xf32>
  %mean = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : tensor<?x?xf32>) outs(%acc : tensor<?xf32>) {
  ^bb0(%x: f32, %a: f32):
    %q = arith.divf %x, %mf : f32
    %r = arith.addf %q, %a : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %full = tensor.empty(%n, %m) : tensor<?x?xf32>
  %d = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%X, %mean : tensor<?x?xf32>, tensor<?xf32>) outs(%full : tensor<?x?xf32>) {
  ^bb0(%x: f32, %mu: f32, %o: f32):
    %v = arith.subf %x, %mu : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %var = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%d : tensor<?x?xf32>) outs(%acc : tensor<?xf32>) {
  ^bb0(%x: f32, %a: f32):
    %sq = arith.mulf %x, %x : f32
    %q = arith.divf %sq, %mf : f32
    %r = arith.addf %a, %q : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %Y = linalg.generic {indexing_maps = [#rows, #row, #col, #col, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%d, %var, %gamma, %beta : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      outs(%full : tensor<?x?xf32>) {
  ^bb0(%x: f32, %v: f32, %g: f32, %b: f32, %o: f32):
    %ve = arith.addf %v, %eps : f32
    %rs = math.rsqrt %ve : f32
    %t = arith.mulf %x, %rs : f32
    %s = arith.mulf %t, %g : f32
    %y = arith.addf %s, %b : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %Y : tensor<?x?xf32>
}
