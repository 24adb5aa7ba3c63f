// tensor.extract in a body from a view reads the tensor the view shows, at the subscripts
// the view maps its own to: through a collapse of unit extents, a strided slice, an
// expand (a group's subscripts linearized), a cast, and a collapse to rank 0. Compared
// with MLIR's execution.
// RUN: %oracle %s --entry views --backend ref --backend opencl | FileCheck --check-prefix=VIEWS %s
// VIEWS: ref {{.*}}: 12 elements match MLIR
// VIEWS: opencl {{.*}}: 12 elements match MLIR
// RUN: %oracle %s --entry rank0 --backend ref | FileCheck --check-prefix=RANK0 %s
// RANK0: ref {{.*}}: 3 elements match MLIR
// A result over fewer loops than its op (its value reads none of the others) beside a
// reduction whose extract splits a loop the first leaves out.
// RUN: %oracle %s --entry own_loops --backend ref | FileCheck --check-prefix=OWN %s
// OWN: ref r_0: 2 elements match MLIR
// OWN: ref r_1: 2 elements match MLIR
// A result that reads another's running value (its accumulator) has no statement's form.
// RUN: not polyfuse check %s --entry running_value 2>&1 | FileCheck --check-prefix=RUNNING %s
// RUNNING: error: {{.*}}extract_views.mlir:[[@LINE+63]]:{{[0-9]+}}: result 0 reads the running value of result 1 (its accumulator) inside the loops

func.func @views(%x: tensor<1x4x1x3xf32>, %y: tensor<9x5xf32>, %z: tensor<12xf32>) -> tensor<4x3xf32> {
  %flat = tensor.collapse_shape %x [[0, 1], [2, 3]] : tensor<1x4x1x3xf32> into tensor<4x3xf32>
  %part = tensor.extract_slice %y[1, 0] [4, 3] [2, 2] : tensor<9x5xf32> to tensor<4x3xf32>
  %grid = tensor.expand_shape %z [[0, 1]] output_shape [4, 3] : tensor<12xf32> into tensor<4x3xf32>
  %any = tensor.cast %grid : tensor<4x3xf32> to tensor<?x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x3xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %a = tensor.extract %flat[%i, %j] : tensor<4x3xf32>
    %b = tensor.extract %part[%i, %j] : tensor<4x3xf32>
    %c = tensor.extract %any[%i, %j] : tensor<?x3xf32>
    %s = arith.addf %a, %b : f32
    %t = arith.mulf %s, %c : f32
    linalg.yield %t : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @rank0(%x: tensor<1x1xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %s = tensor.collapse_shape %x [] : tensor<1x1xf32> into tensor<f32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%y : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = tensor.extract %s[] : tensor<f32>
    %a = arith.addf %in, %v : f32
    linalg.yield %a : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @own_loops(%x: tensor<2x2xf32>, %w: tensor<2xf32>, %k: tensor<2x4xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<2xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%k, %w : tensor<2x4xf32>, tensor<2xf32>) outs(%z, %e : tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%kin: f32, %win: f32, %o: f32, %o1: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %jh = arith.divui %j, %c2 : index
    %v = tensor.extract %x[%i, %jh] : tensor<2x2xf32>
    %m = arith.mulf %v, %kin : f32
    %a = arith.addf %m, %o : f32
    %b = arith.mulf %win, %win : f32
    linalg.yield %a, %b : f32, f32
  } -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

func.func @running_value(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %c0 = arith.constant 0.0 : f32
  %c5 = arith.constant 5.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %f = linalg.fill ins(%c5 : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x3xf32>) outs(%z, %f : tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%in: f32, %o: f32, %o1: f32):
    %m = arith.mulf %in, %o1 : f32
    %a = arith.addf %m, %o : f32
    %mx = arith.maximumf %in, %o1 : f32
    linalg.yield %a, %mx : f32, f32
  } -> (tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}
