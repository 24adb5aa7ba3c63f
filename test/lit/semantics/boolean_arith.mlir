// Arithmetic on i1 and the edges of narrow integers, as MLIR computes them: an i1 holds 0
// or 1 here, so a sum of booleans wraps to 0 or 1 and a signed max of them is their `and`
// (true is -1 in the signed order); math.absi of the most negative value is itself.
// Against MLIR's execution.
// RUN: %oracle %s --entry add_i1 --backend ref --backend opencl --value 'a=[1, 1, 0, 0]' --value 'b=[1, 0, 1, 0]' | FileCheck --check-prefix=ADD %s
// ADD: ref r: 4 elements match MLIR
// ADD: opencl r: 4 elements match MLIR
// RUN: %oracle %s --entry maxsi_i1 --backend ref --backend opencl --value 'x=[1, 0, 1, 1, 1, 1, 1, 1, 1, 1]' --value 'i=[1, 1]' | FileCheck --check-prefix=MAXSI %s
// MAXSI: ref r: 2 elements match MLIR
// MAXSI: opencl r: 2 elements match MLIR
// RUN: %oracle %s --entry minsi_i1 --backend ref --value 'a=[1, 1, 0, 0]' --value 'b=[1, 0, 1, 0]' | FileCheck --check-prefix=MINSI %s
// MINSI: ref r: 4 elements match MLIR
// RUN: %oracle %s --entry absi --backend ref --backend opencl --value 'a=[-32768, 5, -3, 0, 7, -1]' | FileCheck --check-prefix=ABSI %s
// ABSI: ref r: 6 elements match MLIR
// ABSI: opencl r: 6 elements match MLIR
func.func @add_i1(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %e = tensor.empty() : tensor<4xi1>
  %r = linalg.add ins(%a, %b : tensor<4xi1>, tensor<4xi1>) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}
func.func @maxsi_i1(%x: tensor<2x5xi1>, %i: tensor<2xi1>) -> tensor<2xi1> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x5xi1>) outs(%i : tensor<2xi1>) {
  ^bb0(%a: i1, %acc: i1):
    %s = arith.maxsi %a, %acc : i1
    linalg.yield %s : i1
  } -> tensor<2xi1>
  return %r : tensor<2xi1>
}
func.func @minsi_i1(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %e = tensor.empty() : tensor<4xi1>
  %r = linalg.map ins(%a, %b : tensor<4xi1>, tensor<4xi1>) outs(%e : tensor<4xi1>)
      (%x: i1, %y: i1) {
        %m = arith.minsi %x, %y : i1
        linalg.yield %m : i1
      }
  return %r : tensor<4xi1>
}
func.func @absi(%a: tensor<6xi16>) -> tensor<6xi16> {
  %e = tensor.empty() : tensor<6xi16>
  %r = linalg.map ins(%a : tensor<6xi16>) outs(%e : tensor<6xi16>)
      (%x: i16) {
        %m = math.absi %x : i16
        linalg.yield %m : i16
      }
  return %r : tensor<6xi16>
}
