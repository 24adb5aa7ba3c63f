// Each of these got a wrong or misleading message, or none; now a located error (or a
// note) that says what is wrong. One function each, chosen with --entry.
// RUN: expect-exit 2 polyfuse check %s --entry noreturn 2>&1 | FileCheck --check-prefix=NORET %s
// NORET: polyfuse: error: {{.*}}mlir_messages.mlir:[[@LINE+16]]:{{[0-9]+}}: function 'noreturn' returns no tensor
// RUN: expect-exit 2 polyfuse check %s --entry divmap 2>&1 | FileCheck --check-prefix=DIV %s
// DIV: mlir_messages.mlir:[[@LINE+19]]:8: loop d0 is taken apart by floordiv or mod (of a collapse_shape or the op's own subscripts) at 3, which does not divide 200, its extent: polyfuse splits a loop into parts that nest, or runs a parallel loop in at most 64 aligned pieces (here 67)
// RUN: expect-exit 2 polyfuse check %s --entry oob 2>&1 | FileCheck --check-prefix=OOB %s
// OOB: mlir_messages.mlir:[[@LINE+28]]:{{[0-9]+}}: tensor.extract reads 't' at 7 in dimension 0, outside 0:4
// RUN: expect-exit 2 polyfuse check %s --entry ooloop 2>&1 | FileCheck --check-prefix=OOL %s
// OOL: tensor.extract reads 't' at indices up to 7 in dimension 0, outside 0:4
// RUN: expect-exit 2 polyfuse check %s --entry huge 2>&1 | FileCheck --check-prefix=HUGE %s
// HUGE: polyfuse: error: {{.*}}mlir_messages.mlir:{{[0-9]+}}:{{[0-9]+}}: tensor 'x' has more than 2^40 elements, more than polyfuse models
// RUN: polyfuse check %s --entry renamed --tc 2>&1 | FileCheck --check-prefix=NAME %s
// NAME: note: 'min' is named 'min_1' in the TC program ('min' is a TC keyword or function)
// Several top-level functions without a module are read as mlir-opt reads them.
// RUN: polyfuse check %s --entry renamed --tc 2>/dev/null | FileCheck --check-prefix=TC %s
// TC: def renamed(float(4) min_1) -> (float(4) r) {
#id = affine_map<(d0) -> (d0)>
#div = affine_map<(d0) -> (d0 floordiv 3)>
func.func @noreturn(%x: tensor<4xf32>) {
  return
}
func.func @divmap(%x: tensor<67xf32>) -> tensor<200xf32> {
  %e = tensor.empty() : tensor<200xf32>
  %r = linalg.generic {indexing_maps = [#div, #id], iterator_types = ["parallel"]} ins(%x : tensor<67xf32>) outs(%e : tensor<200xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<200xf32>
  return %r : tensor<200xf32>
}
func.func @oob(%x: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c7 = arith.constant 7 : index
    %v = tensor.extract %t[%c7] : tensor<4xf32>
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @ooloop(%x: tensor<8xf32>, %t: tensor<4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %v = tensor.extract %t[%i] : tensor<4xf32>
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @huge(%x: tensor<1099511627777xf32>) -> tensor<1099511627777xf32> {
  %e = tensor.empty() : tensor<1099511627777xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<1099511627777xf32>) outs(%e : tensor<1099511627777xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1099511627777xf32>
  return %r : tensor<1099511627777xf32>
}
func.func @renamed(%min: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%min : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
