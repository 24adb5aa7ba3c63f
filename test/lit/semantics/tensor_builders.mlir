// The ops that build a tensor element by element, and the control a body may hold:
// torch-mlir's view lowering passes a reshape its sizes as tensor.from_elements (no
// data); a from_elements of computed scalars is a generic selecting each element by its
// position; tensor.generate is the generic over its result; an scf.if in a body is the
// select of what its branches yield; affine.apply, min and max on a body's indices are
// their integer arithmetic; math.ipowi by a constant is a product. Compared with MLIR's
// execution.
// RUN: %oracle %s --entry f --backend ref --backend opencl | FileCheck %s
// CHECK: ref {{.*}}: 35 elements match MLIR
// CHECK: ref {{.*}}: 35 elements match MLIR
// CHECK: ref {{.*}}: 6 elements match MLIR
// CHECK: opencl {{.*}}: 35 elements match MLIR
// CHECK: opencl {{.*}}: 35 elements match MLIR
// CHECK: opencl {{.*}}: 6 elements match MLIR
// RUN: polyfuse check %s 2>&1 >/dev/null | FileCheck %s --check-prefix=NOTE
// NOTE: note: 1 tensor.from_elements as a generic selecting each element by its position; 1 tensor.generate as the linalg.generic it means

func.func @f(%x: tensor<5x7xf32>, %s: tensor<2xf32>) -> (tensor<5x7xf32>, tensor<7x5xf32>, tensor<2x3xf32>) {
  // The view: sizes built from i64 constants, as torch-mlir's strict view lowering writes.
  %c7 = arith.constant 7 : i64
  %c5 = arith.constant 5 : i64
  %shape = tensor.from_elements %c7, %c5 : tensor<2xi64>
  %v = tensor.reshape %x(%shape) : (tensor<5x7xf32>, tensor<2xi64>) -> tensor<7x5xf32>
  %e7 = tensor.empty() : tensor<7x5xf32>
  %vv = linalg.add ins(%v, %v : tensor<7x5xf32>, tensor<7x5xf32>) outs(%e7 : tensor<7x5xf32>) -> tensor<7x5xf32>
  // x[i][j] against x's element of the row reversed (affine.apply), where an scf.if
  // picks the larger (negated) and columns clipped by affine.min and max scale it.
  %e = tensor.empty() : tensor<5x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<5x7xf32>) outs(%e : tensor<5x7xf32>) {
  ^bb0(%in: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ri = affine.apply affine_map<(a) -> (4 - a)>(%i)
    %w = tensor.extract %x[%ri, %j] : tensor<5x7xf32>
    %gt = arith.cmpf ogt, %in, %w : f32
    %pick = scf.if %gt -> f32 {
      scf.yield %in : f32
    } else {
      %n = arith.negf %w : f32
      scf.yield %n : f32
    }
    %clip = affine.min affine_map<(b) -> (b, 4)>(%j)
    %lo = affine.max affine_map<(a)[s] -> (a - 2, s)>(%i)[%j]
    %k = arith.addi %clip, %lo : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    %m = arith.mulf %pick, %kf : f32
    %ji = arith.index_cast %j : index to i32
    %three = arith.constant 3 : i32
    %cube = math.ipowi %ji, %three : i32
    %cf = arith.sitofp %cube : i32 to f32
    %mc = arith.addf %m, %cf : f32
    linalg.yield %mc : f32
  } -> tensor<5x7xf32>
  // Two computed scalars and a constant made a tensor, then added to a generated one.
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %s[%c0] : tensor<2xf32>
  %b = tensor.extract %s[%c1] : tensor<2xf32>
  %ab = arith.mulf %a, %b : f32
  %half = arith.constant 0.5 : f32
  %t = tensor.from_elements %a, %ab, %half, %b, %half, %a : tensor<2x3xf32>
  %g = tensor.generate {
  ^bb0(%p: index, %q: index):
    %pq = arith.muli %p, %q : index
    %pqi = arith.index_cast %pq : index to i32
    %pqf = arith.sitofp %pqi : i32 to f32
    tensor.yield %pqf : f32
  } : tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %u = linalg.add ins(%t, %g : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r, %vv, %u : tensor<5x7xf32>, tensor<7x5xf32>, tensor<2x3xf32>
}
