#include "mlir/Buffers.h"

#include <set>

#include "llvm/ADT/DenseMap.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Importer.h"

namespace polyfuse::linalg_import {

namespace {

bool isBuffer(mlir::Type t) { return mlir::isa<mlir::BaseMemRefType>(t); }

bool worksOnBuffers(mlir::func::FuncOp f) {
  for (mlir::Type t : f.getFunctionType().getInputs())
    if (isBuffer(t)) return true;
  for (mlir::Type t : f.getFunctionType().getResults())
    if (isBuffer(t)) return true;
  bool any = false;
  f.walk([&](Operation* op) {
    for (mlir::Type t : op->getOperandTypes()) any = any || isBuffer(t);
    for (mlir::Type t : op->getResultTypes()) any = any || isBuffer(t);
  });
  return any;
}

// The tensor a buffer of this type holds. A buffer with a layout (strides, an offset) is
// a view into another one: refused, as aliasing is.
mlir::RankedTensorType heldType(mlir::Type t, Operation* at) {
  auto m = mlir::dyn_cast<mlir::MemRefType>(t);
  if (!m) throw SourceError(locOf(at), "a buffer of unranked type is not read (ranked memrefs are)");
  if (!m.getLayout().isIdentity())
    throw SourceError(locOf(at), "a buffer with a layout (a strided view of another buffer) is not read: views of buffers alias");
  return mlir::RankedTensorType::get(m.getShape(), m.getElementType());
}

class BufferReader {
 public:
  BufferReader(mlir::func::FuncOp f, std::vector<std::string>& notes) : f_(f), notes_(notes), b_(f.getContext()) {}

  void run() {
    notes_.push_back("the function works on buffers (memref): read as the tensor program it computes, each buffer "
                     "holding a tensor value that the ops writing it replace");
    mlir::Block& body = f_.getBody().front();
    for (mlir::BlockArgument a : body.getArguments())
      if (isBuffer(a.getType())) {
        a.setType(heldType(a.getType(), f_));
        holds_[a] = a;
        argBuffers_.push_back(a);
      }
    std::vector<Operation*> ops;
    for (Operation& op : body) ops.push_back(&op);
    for (Operation* op : ops) read(op);
    // Users before what they use: the old ops go last to first.
    for (auto it = erased_.rbegin(); it != erased_.rend(); ++it) (*it)->erase();
    llvm::SmallVector<mlir::Type> inputs;
    for (mlir::BlockArgument a : body.getArguments()) inputs.push_back(a.getType());
    f_.setType(mlir::FunctionType::get(f_.getContext(), inputs, body.getTerminator()->getOperandTypes()));
  }

 private:
  Value held(Value buffer, Operation* at) {
    auto it = holds_.find(buffer);
    if (it == holds_.end()) throw SourceError(locOf(at), "'" + opName(at) + "' uses a buffer that is not read here");
    return it->second;
  }

  void write(Value buffer, Value value) {
    holds_[buffer] = value;
    written_.insert(buffer.getAsOpaquePointer());
  }

  bool usesBuffers(Operation* op) const {
    for (Value v : op->getOperands())
      if (isBuffer(v.getType()) || holds_.count(v)) return true;
    for (mlir::Type t : op->getResultTypes())
      if (isBuffer(t)) return true;
    return false;
  }

  void read(Operation* op) {
    if (auto ret = mlir::dyn_cast<mlir::func::ReturnOp>(op)) return readReturn(ret);
    if (!usesBuffers(op)) return;
    b_.setInsertionPoint(op);
    const mlir::Location loc = op->getLoc();
    if (auto l = mlir::dyn_cast<mlir::linalg::LinalgOp>(op)) {
      // The op on the tensors its buffers hold; each init's buffer then holds a result.
      llvm::SmallVector<Value> operands;
      for (Value v : op->getOperands()) operands.push_back(holds_.count(v) || isBuffer(v.getType()) ? held(v, op) : v);
      llvm::SmallVector<mlir::Type> results;
      for (mlir::OpOperand& init : l.getDpsInitsMutable()) results.push_back(held(init.get(), op).getType());
      Operation* t = mlir::clone(b_, op, results, operands);
      unsigned k = 0;
      for (mlir::OpOperand& init : l.getDpsInitsMutable()) write(init.get(), t->getResult(k++));
      erased_.push_back(op);
      return;
    }
    if (mlir::isa<mlir::memref::AllocOp, mlir::memref::AllocaOp>(op)) {
      auto type = heldType(op->getResult(0).getType(), op);
      holds_[op->getResult(0)] = b_.create<mlir::tensor::EmptyOp>(loc, type, op->getOperands()).getResult();
      erased_.push_back(op);
      return;
    }
    if (auto g = mlir::dyn_cast<mlir::memref::GetGlobalOp>(op)) {
      auto global = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::memref::GlobalOp>(op, g.getNameAttr());
      auto type = heldType(g.getType(), op);
      auto value = global ? mlir::dyn_cast_or_null<mlir::ElementsAttr>(global.getInitialValue().value_or(nullptr)) : nullptr;
      if (!value || value.getType() != type)
        throw SourceError(locOf(op), "memref.get_global of '@" + g.getName().str() + "', which has no initial value of its type");
      holds_[g.getResult()] = b_.create<mlir::arith::ConstantOp>(loc, mlir::cast<mlir::TypedAttr>(value)).getResult();
      erased_.push_back(op);
      return;
    }
    if (auto c = mlir::dyn_cast<mlir::memref::CopyOp>(op)) {
      Value from = held(c.getSource(), op);
      if (from.getType() != held(c.getTarget(), op).getType()) from = b_.create<mlir::tensor::CastOp>(loc, held(c.getTarget(), op).getType(), from);
      write(c.getTarget(), from);
      erased_.push_back(op);
      return;
    }
    if (auto c = mlir::dyn_cast<mlir::memref::CastOp>(op)) {
      auto type = heldType(c.getType(), op);
      holds_[c.getResult()] = b_.create<mlir::tensor::CastOp>(loc, type, held(c.getSource(), op)).getResult();
      erased_.push_back(op);
      return;
    }
    if (mlir::isa<mlir::memref::DeallocOp>(op)) {
      erased_.push_back(op);
      return;
    }
    if (auto ld = mlir::dyn_cast<mlir::memref::LoadOp>(op)) {
      auto x = b_.create<mlir::tensor::ExtractOp>(loc, held(ld.getMemRef(), op), ld.getIndices());
      ld.getResult().replaceAllUsesWith(x.getResult());
      erased_.push_back(op);
      return;
    }
    if (auto st = mlir::dyn_cast<mlir::memref::StoreOp>(op)) {
      auto x = b_.create<mlir::tensor::InsertOp>(loc, st.getValue(), held(st.getMemRef(), op), st.getIndices());
      write(st.getMemRef(), x.getResult());
      erased_.push_back(op);
      return;
    }
    const std::string name = opName(op);
    if (name == "bufferization.to_tensor") {
      op->getResult(0).replaceAllUsesWith(held(op->getOperand(0), op));
      erased_.push_back(op);
      return;
    }
    if (name == "bufferization.to_memref") {
      heldType(op->getResult(0).getType(), op);
      holds_[op->getResult(0)] = op->getOperand(0);
      erased_.push_back(op);
      return;
    }
    if (mlir::isa<mlir::memref::SubViewOp, mlir::memref::ReinterpretCastOp, mlir::memref::ExpandShapeOp,
                  mlir::memref::CollapseShapeOp, mlir::memref::ViewOp, mlir::memref::TransposeOp>(op))
      throw SourceError(locOf(op), "'" + name + "' makes a view that aliases its buffer: views of buffers are not read "
                                   "(linalg on tensors, or on whole buffers, is)");
    throw SourceError(locOf(op), "'" + name + "' on a buffer is not read (linalg ops, copies, loads, stores, allocations "
                                 "and constant globals of whole buffers are)");
  }

  // The buffers returned are the tensors they hold; the argument buffers the function
  // writes and does not return follow, in argument order.
  void readReturn(mlir::func::ReturnOp ret) {
    std::set<const void*> returned;
    for (mlir::OpOperand& o : ret->getOpOperands())
      if (holds_.count(o.get()) || isBuffer(o.get().getType())) {
        returned.insert(o.get().getAsOpaquePointer());
        o.set(held(o.get(), ret));
      }
    for (mlir::BlockArgument a : argBuffers_) {
      if (!written_.count(a.getAsOpaquePointer()) || returned.count(a.getAsOpaquePointer())) continue;
      ret->insertOperands(ret->getNumOperands(), holds_[a]);
      notes_.push_back("argument " + std::to_string(a.getArgNumber()) + " of '@" + f_.getSymName().str() +
                       "' is a buffer the function writes: what it holds at the return is result " +
                       std::to_string(ret->getNumOperands() - 1) + " of the program");
    }
  }

  mlir::func::FuncOp f_;
  std::vector<std::string>& notes_;
  mlir::OpBuilder b_;
  llvm::DenseMap<Value, Value> holds_;  // a buffer -> the tensor it holds now
  std::vector<mlir::BlockArgument> argBuffers_;
  std::set<const void*> written_;
  std::vector<Operation*> erased_;
};

}  // namespace

void readBuffers(mlir::func::FuncOp f, std::vector<std::string>& notes) {
  if (f.getBody().getBlocks().size() != 1 || !worksOnBuffers(f)) return;
  BufferReader(f, notes).run();
}

}  // namespace polyfuse::linalg_import
