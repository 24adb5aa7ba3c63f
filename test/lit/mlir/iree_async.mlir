// IREE's asynchronous ABI (coarse fences), as `iree-compile` prints its input: @f$async
// takes a wait and a signal fence beside its buffer views, joins its results with
// hal.tensor.barrier, and a synchronous stub @f creates a fence, calls @f$async and
// awaits. Fences order device work and compute nothing: the stub is dropped, @f$async is
// read as @f, a barrier is the values it joins (two here, used as %j.0#0 and %j.0#1).
// Dynamic extents of imported buffer views (hal.buffer_view.dim) are the tensors' own.
// RUN: polyfuse check %s --tc 2>&1 | FileCheck %s
// CHECK: note: read the boundary and test-harness ops (IREE's, tpp-mlir's): IREE's asynchronous ABI: fences dropped, the synchronous stub dropped, @f$async read as @f; hal.buffer_view.dim is tensor.dim of the tensor imported; hal.tensor.export is a result; hal.tensor.import is an argument of its tensor type; util.func and util.return are func.func and return
// CHECK: def main(float(4, 8) arg0, float(8) arg1) -> (float(4, 8) v3) {
// CHECK-NEXT: v3(d0, d1) = maximum(arg0(d0, d1) + arg1(d1), 0.0)
// RUN: polyfuse check %s --entry main --tc 2>/dev/null | FileCheck --check-prefix=ENTRY %s
// ENTRY: def main(
// RUN: polyfuse check %s --entry pair --tc 2>/dev/null | FileCheck --check-prefix=PAIR %s
// PAIR: def pair(float(4, 8) arg0) -> (float(4, 8) v1, float(4, 8) v2) {
// RUN: polyfuse check %s --entry dyn --tc 2>/dev/null | FileCheck --check-prefix=DYN %s
// DYN: def dyn(float(arg0_0, 8) arg0, float(8) arg1) -> (float(arg0_0, 8) v4) {
// RUN: polyfuse exec %s --backend opencl 2>/dev/null | FileCheck --check-prefix=OK %s
// RUN: polyfuse exec %s --entry pair --backend opencl 2>/dev/null | FileCheck --check-prefix=OK %s
// RUN: polyfuse exec %s --entry dyn --size arg0_0=5 --backend opencl 2>/dev/null | FileCheck --check-prefix=OK %s
// OK: verified: yes
module {
  util.func public @main$async(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.fence, %arg3: !hal.fence) -> !hal.buffer_view attributes {inlining_policy = #util.inline.never, iree.abi.model = "coarse-fences", iree.abi.stub} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = hal.tensor.import wait(%arg2) => %arg0 "input0" : !hal.buffer_view -> tensor<4x8xf32>
    %1 = hal.tensor.import wait(%arg2) => %arg1 "input1" : !hal.buffer_view -> tensor<8xf32>
    %2 = tensor.empty() : tensor<4x8xf32>
    %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0, %1 : tensor<4x8xf32>, tensor<8xf32>) outs(%2 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %5 = arith.addf %in, %in_0 : f32
      %6 = arith.maximumf %5, %cst : f32
      linalg.yield %6 : f32
    } -> tensor<4x8xf32>
    %4 = hal.tensor.barrier join(%3 : tensor<4x8xf32>) => %arg3 : !hal.fence
    %5 = hal.tensor.export %4 "output0" : tensor<4x8xf32> -> !hal.buffer_view
    util.return %5 : !hal.buffer_view
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
    %0 = util.null : !hal.fence
    %c-1_i32 = arith.constant -1 : i32
    %c0 = arith.constant 0 : index
    %device_0 = hal.devices.get %c0 : !hal.device
    %fence = hal.fence.create device(%device_0 : !hal.device) flags("None") : !hal.fence
    %1 = util.call @main$async(%arg0, %arg1, %0, %fence) : (!hal.buffer_view, !hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view
    %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) : i32
    util.return %1 : !hal.buffer_view
  }
  util.func public @pair$async(%arg0: !hal.buffer_view, %arg1: !hal.fence, %arg2: !hal.fence) -> (!hal.buffer_view, !hal.buffer_view) attributes {iree.abi.model = "coarse-fences", iree.abi.stub} {
    %0 = hal.tensor.import wait(%arg1) => %arg0 "input0" : !hal.buffer_view -> tensor<4x8xf32>
    %e = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %x = math.exp %in : f32
      linalg.yield %x : f32
    } -> tensor<4x8xf32>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %x = arith.mulf %in, %in : f32
      linalg.yield %x : f32
    } -> tensor<4x8xf32>
    %j.0:2 = hal.tensor.barrier join(%1, %2 : tensor<4x8xf32>, tensor<4x8xf32>) => %arg2 : !hal.fence
    %4 = hal.tensor.export %j.0#0 "output0" : tensor<4x8xf32> -> !hal.buffer_view
    %5 = hal.tensor.export %j.0#1 "output1" : tensor<4x8xf32> -> !hal.buffer_view
    util.return %4, %5 : !hal.buffer_view, !hal.buffer_view
  }
  util.func public @pair(%arg0: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view) attributes {iree.abi.stub} {
    %0 = util.null : !hal.fence
    %c-1_i32 = arith.constant -1 : i32
    %c0 = arith.constant 0 : index
    %device_0 = hal.devices.get %c0 : !hal.device
    %fence = hal.fence.create device(%device_0 : !hal.device) flags("None") : !hal.fence
    %1:2 = util.call @pair$async(%arg0, %0, %fence) : (!hal.buffer_view, !hal.fence, !hal.fence) -> (!hal.buffer_view, !hal.buffer_view)
    %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) : i32
    util.return %1#0, %1#1 : !hal.buffer_view, !hal.buffer_view
  }
  util.func public @dyn(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x8xf32>{%0}
    %2 = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<8xf32>
    %3 = tensor.empty(%0) : tensor<?x8xf32>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%1, %2 : tensor<?x8xf32>, tensor<8xf32>) outs(%3 : tensor<?x8xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %5 = arith.mulf %in, %in_0 : f32
      linalg.yield %5 : f32
    } -> tensor<?x8xf32>
    %6 = hal.tensor.export %4 "output0" : tensor<?x8xf32>{%0} -> !hal.buffer_view
    util.return %6 : !hal.buffer_view
  }
}
