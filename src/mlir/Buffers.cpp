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
    throw SourceError(locOf(at), "an argument buffer with a layout (a strided view of a buffer the caller holds) is not read");
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
  // The tensor a buffer holds now: a root's value, or a view's reading of its parent's.
  Value held(Value buffer, Operation* at) {
    if (auto it = holds_.find(buffer); it != holds_.end()) return it->second;
    auto v = views_.find(buffer);
    if (v == views_.end()) throw SourceError(locOf(at), "'" + opName(at) + "' uses a buffer that is not read here");
    Operation* view = v->second;
    const Value parent = held(view->getOperand(0), at);
    const mlir::RankedTensorType type = typeHeld(buffer);
    const mlir::Location loc = view->getLoc();
    if (auto e = mlir::dyn_cast<mlir::memref::ExpandShapeOp>(view))
      return b_.create<mlir::tensor::ExpandShapeOp>(loc, type, parent, e.getReassociationIndices());
    if (auto c = mlir::dyn_cast<mlir::memref::CollapseShapeOp>(view))
      return b_.create<mlir::tensor::CollapseShapeOp>(loc, type, parent, c.getReassociationIndices());
    if (auto sv = mlir::dyn_cast<mlir::memref::SubViewOp>(view))
      return b_.create<mlir::tensor::ExtractSliceOp>(loc, type, parent, sv.getMixedOffsets(), sv.getMixedSizes(),
                                                     sv.getMixedStrides());
    return b_.create<mlir::tensor::CastOp>(loc, type, parent);  // memref.cast
  }

  // The buffer holds `value` from here on; through a view, its parent holds the value
  // with the view's elements replaced (the whole of it for a reshape).
  void write(Value buffer, Value value, Operation* at) {
    written_.insert(buffer.getAsOpaquePointer());
    auto v = views_.find(buffer);
    if (v == views_.end()) {
      holds_[buffer] = value;
      return;
    }
    Operation* view = v->second;
    const Value parentBuffer = view->getOperand(0);
    const Value parent = held(parentBuffer, at);
    const mlir::Location loc = view->getLoc();
    Value whole;
    if (auto e = mlir::dyn_cast<mlir::memref::ExpandShapeOp>(view))
      whole = b_.create<mlir::tensor::CollapseShapeOp>(loc, parent.getType(), value, e.getReassociationIndices());
    else if (auto c = mlir::dyn_cast<mlir::memref::CollapseShapeOp>(view))
      whole = b_.create<mlir::tensor::ExpandShapeOp>(loc, parent.getType(), value, c.getReassociationIndices());
    else if (auto sv = mlir::dyn_cast<mlir::memref::SubViewOp>(view))
      whole = b_.create<mlir::tensor::InsertSliceOp>(loc, value, parent, sv.getMixedOffsets(), sv.getMixedSizes(),
                                                     sv.getMixedStrides());
    else
      whole = b_.create<mlir::tensor::CastOp>(loc, parent.getType(), value);
    write(parentBuffer, whole, at);
  }

  bool known(Value v) const { return holds_.count(v) || views_.count(v); }

  // The type of the tensor a buffer holds, without reading it (a view's read is an op).
  static mlir::RankedTensorType typeHeld(Value buffer) {
    auto m = mlir::dyn_cast<mlir::MemRefType>(buffer.getType());
    return m ? mlir::RankedTensorType::get(m.getShape(), m.getElementType())
             : mlir::cast<mlir::RankedTensorType>(buffer.getType());  // an argument, already read as its tensor
  }

  bool usesBuffers(Operation* op) const {
    for (Value v : op->getOperands())
      if (isBuffer(v.getType()) || known(v)) return true;
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
      for (Value v : op->getOperands()) operands.push_back(known(v) || isBuffer(v.getType()) ? held(v, op) : v);
      llvm::SmallVector<mlir::Type> results;
      for (mlir::OpOperand& init : l.getDpsInitsMutable()) results.push_back(operands[init.getOperandNumber()].getType());
      Operation* t = mlir::clone(b_, op, results, operands);
      unsigned k = 0;
      for (mlir::OpOperand& init : l.getDpsInitsMutable()) write(init.get(), t->getResult(k++), op);
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
      if (!known(c.getTarget())) held(c.getTarget(), op);  // says which buffer is not read
      const mlir::Type to = typeHeld(c.getTarget());
      if (from.getType() != to) from = b_.create<mlir::tensor::CastOp>(loc, to, from);
      write(c.getTarget(), from, op);
      erased_.push_back(op);
      return;
    }
    // Views: a reshape, a slice or a cast of a buffer reads and writes its parent's elements.
    if (mlir::isa<mlir::memref::ExpandShapeOp, mlir::memref::CollapseShapeOp, mlir::memref::SubViewOp, mlir::memref::CastOp>(op)) {
      if (!known(op->getOperand(0))) held(op->getOperand(0), op);  // says which buffer is not read
      if (mlir::isa<mlir::memref::ExpandShapeOp, mlir::memref::CollapseShapeOp>(op) &&
          !mlir::cast<mlir::MemRefType>(op->getResult(0).getType()).hasStaticShape())
        throw SourceError(locOf(op), "'" + opName(op) + "' of a buffer of dynamic shape is not read (of a static one it is)");
      views_[op->getResult(0)] = op;
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
      write(st.getMemRef(), x.getResult(), op);
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
    if (mlir::isa<mlir::memref::ReinterpretCastOp, mlir::memref::ViewOp, mlir::memref::TransposeOp>(op))
      throw SourceError(locOf(op), "'" + name + "' reinterprets a buffer's memory: such views are not read "
                                   "(reshapes, subviews and casts of buffers are)");
    throw SourceError(locOf(op), "'" + name + "' on a buffer is not read (linalg ops, copies, loads, stores, allocations, "
                                 "constant globals, reshapes, subviews and casts of buffers are)");
  }

  // The buffers returned are the tensors they hold; the argument buffers the function
  // writes and does not return follow, in argument order.
  void readReturn(mlir::func::ReturnOp ret) {
    std::set<const void*> returned;
    for (mlir::OpOperand& o : ret->getOpOperands())
      if (known(o.get()) || isBuffer(o.get().getType())) {
        returned.insert(o.get().getAsOpaquePointer());
        o.set(held(o.get(), ret));
      }
    for (mlir::BlockArgument a : argBuffers_) {
      if (!written_.count(a.getAsOpaquePointer()) || returned.count(a.getAsOpaquePointer())) continue;
      ret->insertOperands(ret->getNumOperands(), held(a, ret));
      notes_.push_back("argument " + std::to_string(a.getArgNumber()) + " of '@" + f_.getSymName().str() +
                       "' is a buffer the function writes: what it holds at the return is result " +
                       std::to_string(ret->getNumOperands() - 1) + " of the program");
    }
  }

  mlir::func::FuncOp f_;
  std::vector<std::string>& notes_;
  mlir::OpBuilder b_;
  llvm::DenseMap<Value, Value> holds_;         // a buffer -> the tensor it holds now
  llvm::DenseMap<Value, Operation*> views_;    // a view -> the op that made it of its parent
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
