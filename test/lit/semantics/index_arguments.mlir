// Sizes passed as `index` arguments (MLIR's own tests and hand-written kernels size
// their tensors so): each is a size of the program, the same size as an input's
// dimension where an op unites them, declared by name (`size N`) where no input's shape
// has it, and read as its value where a body uses it. Compared with MLIR's execution,
// the index arguments passed to both.
// RUN: polyfuse check %s --entry masked --tc | FileCheck %s --check-prefix=MASKED-TC
// MASKED-TC: def masked(float(x_0) x) -> (float(x_0) r)
// RUN: %oracle %s --entry masked --shape x=7 --value n=[7] --backend ref --backend opencl | FileCheck %s --check-prefix=MASKED
// MASKED: ref r: 7 elements match MLIR
// MASKED: opencl r: 7 elements match MLIR
// RUN: polyfuse check %s --entry filled --tc | FileCheck %s --check-prefix=FILLED-TC
// FILLED-TC: def filled(size n, float(m) row) -> (float(n, m) r)
// RUN: %oracle %s --entry filled --value n=[5] --value m=[3] --shape row=3 --backend ref --backend opencl | FileCheck %s --check-prefix=FILLED
// FILLED: ref r: 15 elements match MLIR
// FILLED: opencl r: 15 elements match MLIR
// RUN: %oracle %s --entry mean --value n=[6] --shape x=6x9 --backend ref --backend opencl | FileCheck %s --check-prefix=MEAN
// MEAN: ref r: 6 elements match MLIR
// MEAN: opencl r: 6 elements match MLIR
// From a review: an index argument named as a tensor's size would be (`a_0` before `a`)
// keeps its name, and the tensor's size takes another.
// RUN: polyfuse check %s --entry named_like_a_size --tc 2>/dev/null | FileCheck %s --check-prefix=NAMED
// NAMED: def named_like_a_size(size a_0, float(a_0_1) a) -> (float(a_0) f, float(a_0_1) s)
// The TC text reads back as the same program, its declared sizes given with --size.
// RUN: polyfuse check %s --entry filled --tc > %t.tc && polyfuse exec %t.tc --size n=4,m=3 | FileCheck %s --check-prefix=READBACK
// READBACK: r: shape (4, 3)
// RUN: expect-exit 2 polyfuse exec %t.tc --size m=3 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: missing size 'n' (use --size n=VALUE)
func.func @masked(%x: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %i = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %h = arith.subi %n, %c3 : index
    %c = arith.cmpi ult, %i, %h : index
    %z = arith.constant 0.0 : f32
    %s = arith.select %c, %a, %z : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @filled(%n: index, %m: index, %row: tensor<?xf32>) -> tensor<?x?xf32> {
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%row : tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %s = arith.addf %a, %f : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @mean(%x: tensor<?x9xf32>, %n: index) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x9xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %ni = arith.index_cast %n : index to i64
    %nf = arith.sitofp %ni : i64 to f32
    %q = arith.divf %a, %nf : f32
    linalg.yield %q : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @named_like_a_size(%a_0: index, %a: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c = arith.constant 1.0 : f32
  %e = tensor.empty(%a_0) : tensor<?xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e2 = tensor.empty(%n) : tensor<?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<?xf32>) outs(%e2 : tensor<?xf32>) {
  ^bb0(%p: f32, %r: f32):
    %t = arith.addf %p, %p : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %f, %s : tensor<?xf32>, tensor<?xf32>
}
