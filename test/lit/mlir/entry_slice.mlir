// A file that does not read as a whole (one function is in a dialect MLIR 19 lacks, as
// in IREE's and tpp-mlir's test files) still gives the functions that do not reach it:
// the entry is read with only what it calls, and a note says what was left and why.
// RUN: polyfuse check %s --entry scaled --tc 2>&1 | FileCheck %s --check-prefix=SCALED
// SCALED: note: the file does not read as a whole (line [[@LINE+23]]: Dialect `flow' not found for custom op 'flow.unknown_op'): read @scaled and the functions it calls alone, leaving unread the 2 other functions it does not reach
// SCALED: def scaled(float(4) x) -> (float(4) r) {
// The default entry is the first public function, as for a file that reads.
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: read @scaled and the functions it calls alone
// The function that does not read is still refused, at its line.
// RUN: expect-exit 2 polyfuse check %s --entry packed_bits 2>&1 | FileCheck %s --check-prefix=UNREAD
// UNREAD: entry_slice.mlir:[[@LINE+16]]:8: Dialect `flow' not found for custom op 'flow.unknown_op'
// A file that reads keeps every function (no note).
// RUN: polyfuse check %S/../semantics/calls.mlir --entry model 2>&1 | FileCheck %s --check-prefix=WHOLE
// WHOLE-NOT: left unread
func.func @scaled(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// A declaration, then a helper with a CHECK-like comment: func.func @packed_bits() {
func.func private @opaque(tensor<4xf32>) -> tensor<4xf32>
func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> attributes {note = "}"} {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @packed_bits(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = flow.unknown_op %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
