// MLIR's own test files hold independent cases between `// -----` markers (mlir-opt
// -split-input-file reads each as a module of its own), and may define one name or alias
// in several. A file that does not read as a whole has the entry's section read alone (the
// first that defines it). linalg.matmul_unsigned (before 2024) is matmul's unsigned
// cast, and imports as the same TC program.
// RUN: polyfuse check %s --entry unique --tc 2>/dev/null | FileCheck --check-prefix=UNIQUE %s
// UNIQUE: r(d0) = exp(x(d0))
// RUN: polyfuse check %s --entry unique 2>&1 >/dev/null | FileCheck --check-prefix=NOTE %s
// NOTE: note: the file does not read as a whole (line 49: redefinition of attribute alias id 'map'): read the split section of lines 22 to 29 alone (`// -----` between the file's cases, as mlir-opt -split-input-file reads it)
// Each section may name its maps alike (and a body may open right after the result type):
// RUN: polyfuse check %s --entry aliased --tc 2>/dev/null | FileCheck --check-prefix=ALIASED %s
// ALIASED: r(d0, d1) = x(d1, d0)
// RUN: polyfuse check %s --entry twice 2>&1 | FileCheck --check-prefix=TWICE %s
// TWICE: read the split section of lines 1 to 20 alone
// RUN: rm -rf %t && mkdir -p %t
// RUN: polyfuse check %s --entry old_unsigned --tc 2>/dev/null | tail -n +2 > %t/old && polyfuse check %s --entry new_unsigned --tc 2>/dev/null | tail -n +2 > %t/new && diff %t/old %t/new
func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

#map = affine_map<(i, j) -> (i, j)>
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

// -----

#map = affine_map<(i, j) -> (j, i)>
#id = affine_map<(i, j) -> (i, j)>
func.func @aliased(%x: tensor<3x2xf32>) -> tensor<2x3xf32>{
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#map, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x2xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
