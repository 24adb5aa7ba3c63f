// Softmax over the rows of %X in the four-op form IREE sees (max, exp of the
// difference, sum, divide), as linalg on tensors with dynamic sizes.
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%X: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %X, %c0 : tensor<?x?xf32>
  %m = tensor.dim %X, %c1 : tensor<?x?xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty(%n) : tensor<?xf32>
  %mxinit = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
  %mx = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : tensor<?x?xf32>) outs(%mxinit : tensor<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e1 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %e = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%X, %mx : tensor<?x?xf32>, tensor<?xf32>) outs(%e1 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %m0: f32, %o: f32):
    %d = arith.subf %x, %m0 : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<?x?xf32>) outs(%sinit : tensor<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %Y = linalg.generic {indexing_maps = [#rows, #row, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%e, %s : tensor<?x?xf32>, tensor<?xf32>) outs(%e1 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %v = arith.divf %x, %t : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %Y : tensor<?x?xf32>
}
