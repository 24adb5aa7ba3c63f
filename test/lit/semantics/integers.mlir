// Integer and i1 tensors as values, as torch-mlir writes attention masks, position
// arithmetic and embedding bags; tensor.cast; an unused argmax. Each function runs
// under MLIR (mlir-opt-19 + mlir-cpu-runner-19) and under polyfuse's interpreter and
// generated OpenCL, element by element, on random inputs (i1: 0 or 1; integers below
// --int-high).
// An i1 mask argument selects the lowest float (torch's masked_fill).
// RUN: %oracle %s --entry masked_fill --backend ref --backend opencl | FileCheck --check-prefix=FILL %s
// FILL: ref y: 15 elements match MLIR
// FILL: opencl y: 15 elements match MLIR
// RUN: polyfuse check %s --entry masked_fill --tc | FileCheck --check-prefix=FILL-TC %s
// FILL-TC: def masked_fill(float(3, 5) x, bool(1, 5) mask) -> (float(3, 5) y) {
// FILL-TC-NEXT: y(d0, d1) = mask(0, d1) != 0 ? -3.4028235e+38 : x(d0, d1)
// A mask computed by cmpi into an i1 tensor, then -inf where it holds: the i1 tensor is
// a temporary of the computing type; -inf is the literal `inf` negated.
// RUN: %oracle %s --entry computed_mask --backend ref --backend opencl --int-high 3 | FileCheck --check-prefix=CMASK %s
// CMASK: ref y: 15 elements match MLIR
// CMASK: opencl y: 15 elements match MLIR
// RUN: polyfuse check %s --entry computed_mask --tc | FileCheck --check-prefix=CMASK-TC %s
// CMASK-TC: y(d0, d1) = isPad(d0, d1) != 0 ? -inf : x(d0, d1)
// An i32 mask read as a value (BERT's extended attention mask: (1 - m) * -10000).
// RUN: %oracle %s --entry additive_mask --backend ref --backend opencl | FileCheck --check-prefix=ADD %s
// ADD: ref y: 15 elements match MLIR
// ADD: opencl y: 15 elements match MLIR
// An embedding bag: select(m, acc + w[id], acc) sums the rows its mask keeps.
// RUN: %oracle %s --entry bag --backend ref --backend opencl --int-high 10 | FileCheck --check-prefix=BAG %s
// BAG: ref y: 12 elements match MLIR
// BAG: opencl y: 12 elements match MLIR
// RUN: polyfuse check %s --entry bag --tc 2>/dev/null | FileCheck --check-prefix=BAG-TC %s
// BAG-TC: y(d0, d2) +=! m(d0, d1) != 0 ? w(ids(d0, d1), d2) : 0.0 where d2 in 0:4
// torch-mlir's max.dim: the argmax result nobody reads is not computed.
// RUN: %oracle %s --entry max_dim --backend ref --backend opencl | FileCheck --check-prefix=MAX %s
// MAX: ref m_0: 3 elements match MLIR
// MAX: opencl m_0: 3 elements match MLIR
// RUN: polyfuse check %s --entry max_dim --tc 2>&1 | FileCheck --check-prefix=MAX-TC %s
// MAX-TC: note: result 1 of the op at line {{[0-9]+}} is never used: not computed
// MAX-TC: m_0(d0) max=! x(d0, d1)
// Integer arithmetic returned: stored in the computing type, with a note.
// RUN: %oracle %s --entry positions --backend ref --backend opencl --int-high 100 | FileCheck --check-prefix=POS %s
// POS: ref r: 6 elements match MLIR
// POS: opencl r: 6 elements match MLIR
// RUN: polyfuse check %s --entry positions --tc 2>&1 | FileCheck --check-prefix=POS-TC %s
// POS-TC: note: output 'r' (line {{[0-9]+}}) holds integers; it is stored as f32, exact up to 2^24
// tensor.cast restates a type: read through, and a returned cast returns its source.
// RUN: %oracle %s --entry casts --backend ref --backend opencl | FileCheck --check-prefix=CAST %s
// CAST: ref y: 15 elements match MLIR
// CAST: opencl y: 15 elements match MLIR
// An i1 constant defined outside the body holds 1, so sitofp gives -1 and uitofp 1 (it
// was read as -1, so sitofp gave 1).
// RUN: %oracle %s --entry true_constant --backend ref --backend opencl | FileCheck --check-prefix=TRUE %s
// TRUE: ref r: 4 elements match MLIR
// TRUE: opencl r: 4 elements match MLIR
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @masked_fill(%x: tensor<3x5xf32>, %mask: tensor<1x5xi1>) -> tensor<3x5xf32> {
  %lowest = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %y = linalg.generic {indexing_maps = [#row, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%mask, %x : tensor<1x5xi1>, tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {
  ^bb0(%m: i1, %v: f32, %o: f32):
    %s = arith.select %m, %lowest, %v : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
func.func @computed_mask(%x: tensor<3x5xf32>, %ids: tensor<3x5xi64>) -> tensor<3x5xf32> {
  %pad = arith.constant 1 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<3x5xi1>
  %isPad = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<3x5xi64>) outs(%e1 : tensor<3x5xi1>) {
  ^bb0(%i: i64, %o: i1):
    %c = arith.cmpi eq, %i, %pad : i64
    linalg.yield %c : i1
  } -> tensor<3x5xi1>
  %e = tensor.empty() : tensor<3x5xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%isPad, %x : tensor<3x5xi1>, tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {
  ^bb0(%m: i1, %v: f32, %o: f32):
    %s = arith.select %m, %ninf, %v : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
func.func @additive_mask(%x: tensor<3x5xf32>, %mask: tensor<5xi32>) -> tensor<3x5xf32> {
  %one = arith.constant 1.0 : f32
  %big = arith.constant -10000.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %y = linalg.generic {indexing_maps = [#col, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%mask, %x : tensor<5xi32>, tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {
  ^bb0(%m: i32, %v: f32, %o: f32):
    %f = arith.sitofp %m : i32 to f32
    %k = arith.subf %one, %f : f32
    %a = arith.mulf %k, %big : f32
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
func.func @bag(%w: tensor<10x4xf32>, %ids: tensor<3x5xi64>, %m: tensor<3x5xi1>) -> tensor<3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%ids, %m : tensor<3x5xi64>, tensor<3x5xi1>) outs(%z : tensor<3x4xf32>) {
  ^bb0(%id: i64, %keep: i1, %acc: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 2 : index
    %row = tensor.extract %w[%i, %j] : tensor<10x4xf32>
    %s = arith.addf %acc, %row : f32
    %r = arith.select %keep, %s, %acc : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
func.func @max_dim(%x: tensor<3x5xf32>) -> tensor<3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<3xi64>
  %zi = linalg.fill ins(%zero : i64) outs(%ei : tensor<3xi64>) -> tensor<3xi64>
  %ef = tensor.empty() : tensor<3xf32>
  %zf = linalg.fill ins(%ninf : f32) outs(%ef : tensor<3xf32>) -> tensor<3xf32>
  %m:2 = linalg.generic {indexing_maps = [#id2, #red, #red], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x5xf32>) outs(%zf, %zi : tensor<3xf32>, tensor<3xi64>) {
  ^bb0(%v: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %mx = arith.maximumf %v, %acc : f32
    %gt = arith.cmpf ogt, %v, %acc : f32
    %ix = arith.select %gt, %jj, %idx : i64
    linalg.yield %mx, %ix : f32, i64
  } -> (tensor<3xf32>, tensor<3xi64>)
  return %m#0 : tensor<3xf32>
}
func.func @positions(%ids: tensor<6xi64>) -> tensor<6xi64> {
  %e = tensor.empty() : tensor<6xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ids : tensor<6xi64>) outs(%e : tensor<6xi64>) {
  ^bb0(%i: i64, %o: i64):
    %j = linalg.index 0 : index
    %jj = arith.index_cast %j : index to i64
    %s = arith.addi %i, %jj : i64
    %t = arith.muli %s, %s : i64
    linalg.yield %t : i64
  } -> tensor<6xi64>
  return %r : tensor<6xi64>
}
func.func @casts(%x: tensor<3x5xf32>) -> tensor<?x5xf32> {
  %c = tensor.cast %x : tensor<3x5xf32> to tensor<?x5xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %c, %c0 : tensor<?x5xf32>
  %e = tensor.empty(%n) : tensor<?x5xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x5xf32>) outs(%e : tensor<?x5xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<?x5xf32>
  %back = tensor.cast %y : tensor<?x5xf32> to tensor<3x5xf32>
  %r = tensor.cast %back : tensor<3x5xf32> to tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}
func.func @true_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %true = arith.constant true
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.sitofp %true : i1 to f32
    %u = arith.uitofp %true : i1 to f32
    %a = arith.addf %in, %s : f32
    %b = arith.mulf %a, %u : f32
    linalg.yield %b : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
