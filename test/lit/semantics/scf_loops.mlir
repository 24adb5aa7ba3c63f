// scf.for and scf.forall of constant bounds (tpp-mlir's tiled tests) read as one copy of
// the body per iteration, the copies' slice offsets constants: a matmul tiled into row
// blocks and accumulated over k blocks through iter_args; a forall whose tiles are
// inserted in parallel; a loop nest of tensor.insert filling a tensor from its indices; a
// loop that only prints (its read is the result) is dropped. Compared with MLIR's own
// execution of the loops.
// RUN: %oracle %s --entry tiled_matmul --backend ref --backend opencl | FileCheck --check-prefix=TILED %s
// TILED: ref {{.*}}: 30 elements match MLIR
// TILED: opencl {{.*}}: 30 elements match MLIR
// RUN: polyfuse check %s --entry tiled_matmul 2>&1 | FileCheck --check-prefix=NOTE %s
// NOTE: note: read 2 scf loop(s) of constant bounds as one copy of the body per iteration
// RUN: %oracle %s --entry forall_tiles --backend ref --backend opencl | FileCheck --check-prefix=FORALL %s
// FORALL: ref {{.*}}: 24 elements match MLIR
// FORALL: opencl {{.*}}: 24 elements match MLIR
// RUN: %oracle %s --entry filled --backend ref --backend opencl | FileCheck --check-prefix=FILLED %s
// FILLED: ref {{.*}}: 12 elements match MLIR
// FILLED: opencl {{.*}}: 12 elements match MLIR
// RUN: polyfuse check %s --entry printed 2>&1 | FileCheck --check-prefix=PRINTED %s
// PRINTED: note: 1 scf loop(s) compute nothing (no result, no effect): dropped
// A loop of a bound the function computes, or one past the bound on copies, is refused at
// the loop.
// RUN: not polyfuse check %s --entry too_many 2>&1 | FileCheck --check-prefix=MANY %s
// MANY: scf_loops.mlir:[[@LINE+89]]:{{[0-9]+}}: 'scf.for' runs its body 2048 times in its nest, 2048 bodies in all so far; polyfuse reads a loop as one copy of its body per iteration, up to 1024 in a function
// RUN: not polyfuse check %s --entry dynamic_bound 2>&1 | FileCheck --check-prefix=DYN %s
// DYN: scf_loops.mlir:[[@LINE+101]]:{{[0-9]+}}: 'scf.for' with bounds or steps that are not constants is not read

func.func @tiled_matmul(%a: tensor<6x8xf32>, %b: tensor<8x5xf32>) -> tensor<6x5xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<6x5xf32>) -> tensor<6x5xf32>
  %r = scf.for %i = %c0 to %c6 step %c2 iter_args(%acc = %init) -> (tensor<6x5xf32>) {
    %rows = scf.for %k = %c0 to %c8 step %c4 iter_args(%part = %acc) -> (tensor<6x5xf32>) {
      %at = tensor.extract_slice %a[%i, %k] [2, 4] [1, 1] : tensor<6x8xf32> to tensor<2x4xf32>
      %bt = tensor.extract_slice %b[%k, 0] [4, 5] [1, 1] : tensor<8x5xf32> to tensor<4x5xf32>
      %ct = tensor.extract_slice %part[%i, 0] [2, 5] [1, 1] : tensor<6x5xf32> to tensor<2x5xf32>
      %m = linalg.matmul ins(%at, %bt : tensor<2x4xf32>, tensor<4x5xf32>) outs(%ct : tensor<2x5xf32>) -> tensor<2x5xf32>
      %u = tensor.insert_slice %m into %part[%i, 0] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<6x5xf32>
      scf.yield %u : tensor<6x5xf32>
    }
    scf.yield %rows : tensor<6x5xf32>
  }
  return %r : tensor<6x5xf32>
}

func.func @forall_tiles(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %r = scf.forall (%i, %j) = (0, 0) to (4, 6) step (2, 3) shared_outs(%o = %e) -> (tensor<4x6xf32>) {
    %t = tensor.extract_slice %x[%i, %j] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
    %ot = tensor.extract_slice %o[%i, %j] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]} ins(%t : tensor<2x3xf32>) outs(%ot : tensor<2x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = math.tanh %in : f32
      linalg.yield %s : f32
    } -> tensor<2x3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %y into %o[%i, %j] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
    }
  }
  return %r : tensor<4x6xf32>
}

func.func @filled() -> tensor<3x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<3x4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %e) -> (tensor<3x4xf32>) {
    %row = scf.for %j = %c0 to %c4 step %c1 iter_args(%u = %t) -> (tensor<3x4xf32>) {
      %a = arith.muli %i, %c4 : index
      %b = arith.addi %a, %j : index
      %v = arith.index_cast %b : index to i32
      %f = arith.sitofp %v : i32 to f32
      %w = tensor.insert %f into %u[%i, %j] : tensor<3x4xf32>
      scf.yield %w : tensor<3x4xf32>
    }
    scf.yield %row : tensor<3x4xf32>
  }
  return %r : tensor<3x4xf32>
}

func.func @printed(%x: tensor<2x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant -1.0 : f32
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%x : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c1 step %c1 {
      %v = vector.transfer_read %y[%i, %c0], %pad : tensor<2x3xf32>, vector<3xf32>
      vector.print %v : vector<3xf32>
    }
  }
  return
}

func.func @too_many(%x: tensor<2048xf32>) -> tensor<2048xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  %r = scf.for %i = %c0 to %c2048 step %c1 iter_args(%t = %x) -> (tensor<2048xf32>) {
    %v = tensor.extract %t[%i] : tensor<2048xf32>
    %w = arith.addf %v, %v : f32
    %u = tensor.insert %w into %t[%i] : tensor<2048xf32>
    scf.yield %u : tensor<2048xf32>
  }
  return %r : tensor<2048xf32>
}

func.func @dynamic_bound(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<8xf32>
  %h = arith.divui %n, %c1 : index
  %r = scf.for %i = %c0 to %h step %c1 iter_args(%t = %x) -> (tensor<8xf32>) {
    %v = tensor.extract %t[%i] : tensor<8xf32>
    %w = arith.addf %v, %v : f32
    %u = tensor.insert %w into %t[%i] : tensor<8xf32>
    scf.yield %u : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
