// NaN and signed zeros as MLIR defines them: maximumf propagates NaN and orders -0 below
// +0 (relu of NaN is NaN, of -0 is +0); maxnumf ignores NaN; a max reduction with maximumf
// returns NaN for a row holding one, with maxnumf the other values' max. Unordered float
// compares are true on NaN. Each compared with MLIR's own execution.
// RUN: %oracle %s --entry relu --backend ref --backend opencl --value 'x=[nan, -0.0, 0.0, -1, 2, -inf]' | FileCheck --check-prefix=RELU %s
// RELU: ref r: 6 elements match MLIR
// RELU: opencl r: 6 elements match MLIR
// RUN: %oracle %s --entry rowmax --backend ref --backend opencl --value 'x=[0, 1, nan, 3, 5, 4, 2, 1, -1, nan, -2, -3]' | FileCheck --check-prefix=MAX %s
// MAX: ref r_0: 3 elements match MLIR
// MAX: ref r_1: 3 elements match MLIR
// MAX: opencl r_0: 3 elements match MLIR
// MAX: opencl r_1: 3 elements match MLIR
// RUN: %oracle %s --entry compares --backend ref --backend opencl --value 'x=[nan, 1, 2, nan, 0.5, -1]' --value 'y=[1, nan, 2, nan, 0.5, 3]' | FileCheck --check-prefix=CMP %s
// CMP: ref r: 6 elements match MLIR
// CMP: opencl r: 6 elements match MLIR
// The select combiners: an ordered compare is fmax= (a NaN never enters); an unordered
// one depends on the elements' order, and is refused.
// RUN: polyfuse check %s --entry ordered --tc | FileCheck --check-prefix=ORD %s
// ORD: r(d0) fmax=! x(d0, d1)
// RUN: not polyfuse check %s --entry unordered 2>&1 | FileCheck --check-prefix=UNORD %s
// UNORD: nan.mlir:[[@LINE+68]]:{{[0-9]+}}: this reduction selects with an unordered compare
#id = affine_map<(d0) -> (d0)>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @relu(%x: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %z = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @rowmax(%x: tensor<3x4xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%f, %f : tensor<3xf32>, tensor<3xf32>) {
  ^bb0(%a: f32, %m: f32, %n: f32):
    %p = arith.maximumf %a, %m : f32
    %q = arith.maxnumf %a, %n : f32
    linalg.yield %p, %q : f32, f32
  } -> (tensor<3xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}
func.func @compares(%x: tensor<6xf32>, %y: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %four = arith.constant 4.0 : f32
    %c1 = arith.cmpf ugt, %a, %b : f32
    %c2 = arith.cmpf one, %a, %b : f32
    %c3 = arith.cmpf uno, %a, %b : f32
    %c4 = arith.cmpf ueq, %a, %b : f32
    %v1 = arith.uitofp %c1 : i1 to f32
    %v2 = arith.select %c2, %two, %one : f32
    %v3 = arith.select %c3, %four, %one : f32
    %both = arith.andi %c1, %c4 : i1
    %v4 = arith.uitofp %both : i1 to f32
    %s1 = arith.addf %v1, %v2 : f32
    %s2 = arith.addf %s1, %v3 : f32
    %s3 = arith.addf %s2, %v4 : f32
    linalg.yield %s3 : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @ordered(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%a: f32, %m: f32):
    %c = arith.cmpf ogt, %a, %m : f32
    %s = arith.select %c, %a, %m : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @unordered(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%a: f32, %m: f32):
    %c = arith.cmpf ugt, %a, %m : f32
    %s = arith.select %c, %a, %m : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
