// A matmul with a bias-and-GELU epilogue: the named linalg.matmul (generalized on
// import) starts from a fill of zero; the epilogue is two elementwise generics.
#rows = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias_gelu(%A: tensor<?x?xf32>, %W: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %A, %c0 : tensor<?x?xf32>
  %m = tensor.dim %W, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty(%n, %m) : tensor<?x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32>) -> tensor<?x?xf32>
  %C = linalg.matmul ins(%A, %W : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  %Z = linalg.generic {indexing_maps = [#rows, #col, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%C, %b : tensor<?x?xf32>, tensor<?xf32>) outs(%empty : tensor<?x?xf32>) {
  ^bb0(%c: f32, %bias: f32, %o: f32):
    %z = arith.addf %c, %bias : f32
    linalg.yield %z : f32
  } -> tensor<?x?xf32>
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.7071067811865476 : f32
  %Y = linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%Z : tensor<?x?xf32>) outs(%empty : tensor<?x?xf32>) {
  ^bb0(%z: f32, %o: f32):
    %h = arith.mulf %half, %z : f32
    %s = arith.mulf %z, %rsqrt2 : f32
    %e = math.erf %s : f32
    %p = arith.addf %one, %e : f32
    %y = arith.mulf %h, %p : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %Y : tensor<?x?xf32>
}
