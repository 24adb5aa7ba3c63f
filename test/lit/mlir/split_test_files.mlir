// MLIR's own test files hold independent cases between `// -----` markers (mlir-opt
// -split-input-file), and may define one name in several. A function whose name is
// defined once, and that reaches no name defined twice, is read alone; one defined twice
// is MLIR's redefinition error. linalg.matmul_unsigned (before 2024) is matmul's unsigned
// cast, and imports as the same TC program.
// RUN: polyfuse check %s --entry unique --tc 2>/dev/null | FileCheck --check-prefix=UNIQUE %s
// UNIQUE: r(d0) = exp(x(d0))
// RUN: polyfuse check %s --entry unique 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: the file does not read as a whole (line {{[0-9]+}}: redefinition of symbol named 'twice'): read @unique alone, leaving unread the 4 other functions it does not reach
// RUN: not polyfuse check %s --entry twice 2>&1 | FileCheck --check-prefix=TWICE %s
// TWICE: split_test_files.mlir:28:1: redefinition of symbol named 'twice'
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry old_unsigned --tc 2>/dev/null | tail -n +2 > %t/old && polyfuse check %s --entry new_unsigned --tc 2>/dev/null | tail -n +2 > %t/new && diff %t/old %t/new
func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

func.func @unique(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

func.func @old_unsigned(%a: tensor<3x5xi8>, %b: tensor<5x4xi8>, %c: tensor<3x4xi32>) -> tensor<3x4xi32> {
  %r = linalg.matmul_unsigned ins(%a, %b : tensor<3x5xi8>, tensor<5x4xi8>) outs(%c : tensor<3x4xi32>) -> tensor<3x4xi32>
  return %r : tensor<3x4xi32>
}
func.func @new_unsigned(%a: tensor<3x5xi8>, %b: tensor<5x4xi8>, %c: tensor<3x4xi32>) -> tensor<3x4xi32> {
  %r = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : tensor<3x5xi8>, tensor<5x4xi8>) outs(%c : tensor<3x4xi32>) -> tensor<3x4xi32>
  return %r : tensor<3x4xi32>
}
