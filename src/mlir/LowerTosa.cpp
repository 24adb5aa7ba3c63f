#include "mlir/LowerTosa.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace polyfuse::linalg_import {

void registerTosa(mlir::DialectRegistry& registry) { registry.insert<mlir::tosa::TosaDialect>(); }

mlir::LogicalResult lowerTosa(mlir::func::FuncOp f, std::vector<std::string>& notes) {
  int count = 0;
  f.walk([&](mlir::Operation* op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == mlir::tosa::TosaDialect::getDialectNamespace()) ++count;
  });
  if (!count) return mlir::success();
  mlir::PassManager pm(f->getContext(), mlir::func::FuncOp::getOperationName());
  // Decompositions into ops the named conversion takes (a transposed convolution into a
  // convolution), ranks made equal for broadcasting, then named ops (matmul, conv,
  // pooling), elementwise and reduction generics, constants and apply_scale, and the
  // tensor ops (reshape, slice, pad, concat).
  pm.addPass(mlir::tosa::createTosaOptionalDecompositions());
  pm.addPass(mlir::tosa::createTosaMakeBroadcastablePass());
  pm.addPass(mlir::tosa::createTosaToLinalgNamed());
  pm.addPass(mlir::tosa::createTosaToLinalg());
  pm.addPass(mlir::tosa::createTosaToArith(/*includeApplyRescale=*/true));
  pm.addPass(mlir::tosa::createTosaToTensor());
  if (mlir::failed(pm.run(f))) return mlir::failure();
  // What the conversions left unused (a transpose's permutation, a mul's shift) would
  // otherwise be read as constants the program takes.
  // Users come after their operands' definitions: walked backwards, a chain goes at once.
  std::vector<mlir::Operation*> ops;
  f.getBody().walk([&](mlir::Operation* op) { ops.push_back(op); });
  for (auto it = ops.rbegin(); it != ops.rend(); ++it)
    if (mlir::isOpTriviallyDead(*it)) (*it)->erase();
  notes.push_back(std::to_string(count) + " TOSA op(s) lowered to linalg, tensor and arith by MLIR's own conversions (tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, tosa-to-tensor)");
  return mlir::success();
}

mlir::LogicalResult lowerTensorElementwise(mlir::func::FuncOp f, std::vector<std::string>& notes) {
  int count = 0;
  f.walk([&](mlir::Operation* op) {
    // Asked of MLIR's library: a trait's TypeID instantiated in this module is not the
    // library's (templates across shared objects), so hasTrait<> here would say no.
    if (!mlir::OpTrait::hasElementwiseMappableTraits(op) || op->getNumResults() == 0) return;
    for (mlir::Value r : op->getResults())
      if (mlir::isa<mlir::RankedTensorType>(r.getType())) {
        ++count;
        return;
      }
  });
  if (!count) return mlir::success();
  mlir::PassManager pm(f->getContext(), mlir::func::FuncOp::getOperationName());
  pm.addPass(mlir::createConvertElementwiseToLinalgPass());
  if (mlir::failed(pm.run(f))) return mlir::failure();
  notes.push_back(std::to_string(count) + " elementwise op(s) on whole tensors read as the linalg.generic each means "
                  "(MLIR's convert-elementwise-to-linalg)");
  return mlir::success();
}

}  // namespace polyfuse::linalg_import
