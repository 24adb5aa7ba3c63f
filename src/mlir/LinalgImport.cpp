// linalg on tensors -> TC syntax tree. Every linalg.generic (named ops are generalized
// first) becomes one TC statement per result: the loops become index variables d0, d1..
// (as in the op's affine maps), the indexing maps become subscripts, the reduction
// iterators become the statement's reduction dimensions with the combiner read off the
// body, and linalg.fill inits become the `!` forms when they hold the combiner's identity.
// Extents are symbols: a dynamic dimension of an argument %x is the size x_<dim>, and two
// extents a generic's loop ranges over together are one size (linalg requires them equal).
//
// This file is the driver: it parses the file (in a child first, since MLIR's parser can
// crash), inlines calls, reads globals, decomposes and generalizes named ops as MLIR
// does, and hands the entry function to the Importer (Importer.h), which reads it op by
// op through the converter table below.
#include "mlir/LinalgImport.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string_view>
#include <tuple>

#include "llvm/Support/SourceMgr.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/Buffers.h"
#include "mlir/Importer.h"
#include "mlir/IndexRanges.h"
#include "mlir/LoopFunction.h"
#include "mlir/LinearizedWrites.h"
#include "mlir/LowerTosa.h"
#include "mlir/ScfLoops.h"
#include "mlir/TensorBuilders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/MlirText.h"
#include "mlir/TosaSpelling.h"
#include "mlir/IreeLinalgExt.h"
#include "mlir/EntrySlice.h"
#include "mlir/IreeBoundary.h"
#include "mlir/Upgrade.h"
#include "polyir/Parser.h"
#include "polyir/Reduction.h"

namespace polyfuse {

namespace linalg_import {

// The one table of what the importer reads, by op name: each op's converter pair, defined
// in its family's file. Scalar arith and math ops outside a body are read where a body or
// an extent uses them; anything else is refused.
const Importer::OpConverter& Importer::converter(Operation* op) {
  static const std::map<std::string, OpConverter, std::less<>> table = {
      {"arith.constant", {&Importer::constantShape, nullptr}},
      {"tensor.dim", {&Importer::dimShape, nullptr}},
      {"tensor.empty", {&Importer::emptyShape, nullptr}},
      {"linalg.fill", {&Importer::fillOpShape, &Importer::fillStatements}},
      {"tensor.splat", {&Importer::splatShape, &Importer::fillStatements}},
      {"tensor.from_elements", {&Importer::fromElementsShape, &Importer::fillStatements}},
      {"tensor.extract", {&Importer::extractShape, nullptr}},
      {"affine.apply", {nullptr, nullptr}},
      {"cf.assert", {&Importer::assertShape, nullptr}},
      {"func.return", {nullptr, &Importer::returnStatements}},
      {"tensor.cast", {&Importer::castShape, nullptr}},
      {"tensor.expand_shape", {&Importer::expand, nullptr}},
      {"tensor.collapse_shape", {&Importer::collapse, nullptr}},
      {"tensor.reshape", {&Importer::reshape, nullptr}},
      {"tensor.extract_slice", {&Importer::slice, nullptr}},
      {"tensor.pack", {&Importer::packShape, &Importer::packStatements}},
      {"tensor.unpack", {&Importer::unpackShape, nullptr}},
      {"tensor.pad", {&Importer::padShape, &Importer::padStatements}},
      {"tensor.insert_slice", {&Importer::insertShape, &Importer::insertStatements}},
      {"tensor.insert", {&Importer::insertElementShape, &Importer::insertElementStatements}},
      {"tensor.concat", {&Importer::concatShape, &Importer::concatStatements}},
      {"linalg.generic", {&Importer::genericShape, &Importer::genericStatements}},
  };
  static const OpConverter readWhereUsed;
  if (auto it = table.find(op->getName().getStringRef()); it != table.end()) return it->second;
  if (op->getDialect() && mlir::isa<mlir::arith::ArithDialect, mlir::math::MathDialect>(op->getDialect()) &&
      op->getNumResults() == 1 && op->getResult(0).getType().isIntOrIndexOrFloat())
      return readWhereUsed;
  SourceLoc loc = locOf(op);
  throw SourceError(loc, "unsupported operation '" + opName(op) +
                             "': polyfuse imports linalg ops, linalg.fill, tensor.empty, tensor.dim, reshapes, slices, "
                             "tensor.pad, tensor.insert_slice, tensor.insert, tensor.concat and constants");
}

}  // namespace linalg_import

namespace {

using namespace linalg_import;

// MLIR's parser recurses once per nested bracket, region or type parameter list and
// overflows the stack on deep nesting (mlir-opt too): the text is measured first.
// Strings and comments are skipped; '<' counts where it opens a type's parameters.
constexpr int kMaxNesting = 256;
void checkNesting(const std::string& text) {
  int depth = 0, line = 1, col = 0;
  std::vector<char> open;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    ++col;
    if (c == '\n') {
      ++line;
      col = 0;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
      continue;
    }
    const bool typeList = c == '<' && i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_');
    if (c == '(' || c == '[' || c == '{' || typeList) {
      open.push_back(c);
      if (++depth > kMaxNesting)
        throw SourceError({line, col}, "nested more than " + std::to_string(kMaxNesting) +
                                           " brackets, regions or type parameter lists deep (MLIR's parser would overflow its stack)");
    } else if ((c == ')' || c == ']' || c == '}' || (c == '>' && text[i - 1] != '-' && !open.empty() && open.back() == '<')) &&
               depth > 0) {
      open.pop_back();
      --depth;
    }
  }
}

// linalg.map as the generic it means (MLIR 19's generalization refuses it): identity
// maps, parallel loops, its body with the init's block argument added.
void generalizeMap(mlir::IRRewriter& rewriter, mlir::linalg::MapOp m) {
  const unsigned rank = unsigned(mlir::cast<mlir::ShapedType>(m.getInit().getType()).getRank());
  mlir::MLIRContext* ctx = m.getContext();
  llvm::SmallVector<mlir::AffineMap> maps(m.getInputs().size() + 1, mlir::AffineMap::getMultiDimIdentityMap(rank, ctx));
  llvm::SmallVector<mlir::utils::IteratorType> iters(rank, mlir::utils::IteratorType::parallel);
  mlir::Block& body = m.getMapper().front();
  auto g = rewriter.create<mlir::linalg::GenericOp>(
      m.getLoc(), m->getResultTypes(), m.getInputs(), mlir::ValueRange{m.getInit()}, maps, iters,
      [&](mlir::OpBuilder& b, mlir::Location loc, mlir::ValueRange args) {
        mlir::IRMapping map;
        for (unsigned i = 0; i < body.getNumArguments(); ++i) map.map(body.getArgument(i), args[i]);
        for (Operation& o : body.without_terminator()) b.clone(o, map);
        llvm::SmallVector<Value> yielded;
        for (Value v : body.getTerminator()->getOperands()) yielded.push_back(map.lookupOrDefault(v));
        b.create<mlir::linalg::YieldOp>(loc, yielded);
      });
  rewriter.replaceOp(m, g->getResults());
}

// ml_program: torch-mlir writes an unused `ml_program.global @global_seed` beside every
// function; cf: its bounds checks (cf.assert). Both must parse for the module to load.
void dialects(mlir::DialectRegistry& registry) {
  registry.insert<mlir::func::FuncDialect, mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect, mlir::ml_program::MLProgramDialect,
                  mlir::cf::ControlFlowDialect, mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::bufferization::BufferizationDialect>();
  mlir::func::registerInlinerExtension(registry);  // func.call and func.return, for inlineCalls
  registerTosa(registry);
}

// bufferization's tensor ops, as tpp-mlir's tests write them around calls: a
// dealloc_tensor frees nothing a value reads (gone), an alloc_tensor is a tensor.empty of
// its type, or its `copy` operand.
void tensorAllocations(mlir::ModuleOp module) {
  std::vector<mlir::Operation*> ops;
  module.walk([&](mlir::Operation* op) {
    if (mlir::isa<mlir::bufferization::DeallocTensorOp, mlir::bufferization::AllocTensorOp>(op)) ops.push_back(op);
  });
  mlir::IRRewriter rewriter(module.getContext());
  for (mlir::Operation* op : ops) {
    if (auto a = mlir::dyn_cast<mlir::bufferization::AllocTensorOp>(op)) {
      rewriter.setInsertionPoint(a);
      if (a.getCopy()) rewriter.replaceOp(a, a.getCopy());
      else rewriter.replaceOpWithNewOp<mlir::tensor::EmptyOp>(a, a.getType(), a.getDynamicSizes());
      continue;
    }
    rewriter.eraseOp(op);
  }
}

// ub.poison, a value left undefined (newer MLIR's padding where any value will do): zero,
// one of the values it may take, so that results are the same on every run. A poison
// tensor of a dynamic shape has no constant; it stays, and is refused at the op.
void poisonValues(mlir::func::FuncOp entry, std::vector<std::string>& notes) {
  std::vector<mlir::Operation*> ops;
  entry.walk([&](mlir::Operation* op) {
    if (op->getName().getStringRef() == "ub.poison" && op->getNumResults() == 1) ops.push_back(op);
  });
  mlir::IRRewriter rewriter(entry.getContext());
  size_t read = 0;
  for (mlir::Operation* op : ops) {
    const mlir::Type t = op->getResult(0).getType();
    auto shaped = mlir::dyn_cast<mlir::ShapedType>(t);
    if (shaped && !shaped.hasStaticShape()) continue;
    const mlir::Type e = mlir::getElementTypeOrSelf(t);
    if (!mlir::isa<mlir::FloatType, mlir::IntegerType, mlir::IndexType>(e)) continue;
    rewriter.setInsertionPoint(op);
    rewriter.replaceOpWithNewOp<mlir::arith::ConstantOp>(op, mlir::cast<mlir::TypedAttr>(rewriter.getZeroAttr(t)));
    ++read;
  }
  if (read) notes.push_back(std::to_string(read) + " ub.poison value(s) (left undefined) read as zero, a value each may take");
}

// Whether line `n` (from 1) reads the same in both texts: a line the entry slice kept.
bool sameLine(const std::string& a, const std::string& b, int n) {
  auto line = [n](const std::string& t) -> std::string_view {
    size_t at = 0;
    for (int k = 1; k < n; ++k) {
      at = t.find('\n', at);
      if (at == std::string::npos) return {};
      ++at;
    }
    return std::string_view(t).substr(at, t.find('\n', at) - at);
  };
  return n > 0 && !line(a).empty() && line(a) == line(b);
}

// v as a result of the entry: its position among the results, appended after them
// (the function's type with it) unless the entry returns it already; and whether appended.
std::pair<size_t, bool> returned(mlir::func::FuncOp entry, Value v) {
  Operation* ret = entry.getBody().back().getTerminator();
  for (size_t k = 0; k < ret->getNumOperands(); ++k)
    if (ret->getOperand(unsigned(k)) == v) return {k, false};
  ret->insertOperands(ret->getNumOperands(), v);
  entry.setType(mlir::FunctionType::get(entry.getContext(), entry.getFunctionType().getInputs(), ret->getOperandTypes()));
  return {ret->getNumOperands() - 1, true};
}

// The entry's loads and stores of ml_program globals, in the order the entry runs them.
void readGlobals(mlir::func::FuncOp entry, mlir::ModuleOp top, std::vector<std::string>& notes) {
  std::set<std::string> storedElsewhere;
  top.walk([&](mlir::ml_program::GlobalStoreOp st) {
    if (st->getParentOfType<mlir::func::FuncOp>() != entry) storedElsewhere.insert(st.getGlobal().getLeafReference().str());
  });
  std::vector<Operation*> ops;
  entry.walk([&](Operation* op) {
    if (mlir::isa<mlir::ml_program::GlobalLoadConstOp, mlir::ml_program::GlobalLoadOp, mlir::ml_program::GlobalStoreOp>(op))
      ops.push_back(op);
  });
  mlir::IRRewriter rewriter(entry.getContext());
  std::map<std::string, Value> current;                  // a global's value once the entry stored it
  std::vector<std::pair<std::string, Operation*>> last;  // per global stored, its last store
  std::vector<Operation*> stores;                        // erased last (the loads go as they are read)
  std::map<std::string, Value> parameters;               // a parameter's one input, however often loaded
  for (Operation* op : ops) {
    auto ref = op->getAttrOfType<mlir::SymbolRefAttr>("global");
    const std::string name = ref ? ref.getLeafReference().str() : "";
    if (auto st = mlir::dyn_cast<mlir::ml_program::GlobalStoreOp>(op)) {
      if (op->getParentOp() != entry.getOperation())
        throw SourceError(locOf(op), "ml_program.global_store of '@" + name + "' inside a region: only the function's own stores are read");
      current[name] = st.getValue();
      stores.push_back(op);
      if (op->hasAttr("polyfuse.initializer")) continue;  // a value the module starts from, not a result
      auto at = std::find_if(last.begin(), last.end(), [&](const auto& p) { return p.first == name; });
      if (at == last.end()) last.emplace_back(name, op);
      else at->second = op;
      continue;
    }
    if (auto it = current.find(name); it != current.end()) {
      rewriter.replaceOp(op, it->second);
      continue;
    }
    if (storedElsewhere.count(name))
      notes.push_back("'@" + name + "' (line " + std::to_string(locOf(op).line) +
                      ") is read as its initial value: the value before any call, though other functions store to it");
    auto global = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::ml_program::GlobalOp>(op, ref);
    std::optional<mlir::Attribute> value = global ? global.getValue() : std::nullopt;
    auto elements = value ? mlir::dyn_cast<mlir::ElementsAttr>(*value) : nullptr;
    auto loaded = mlir::dyn_cast<mlir::RankedTensorType>(op->getResult(0).getType());
    // A global whose value is a reference rather than elements (a parameter IREE loads
    // from an archive at run time, `#flow.parameter.named`) holds what the caller
    // provides: an input, its elements drawn by exec as an argument's are. One declared
    // bare has no value to read (MLIR leaves it undefined until stored).
    const bool external = global && global.getValue() && !elements && loaded && loaded.hasStaticShape() && global.getType() == loaded &&
                          (mlir::isa<mlir::FloatType>(loaded.getElementType()) || mlir::isa<mlir::IntegerType>(loaded.getElementType()));
    if (!external && (!elements || elements.getType() != op->getResult(0).getType()))
      throw SourceError(locOf(op), "'" + opName(op) + "' of '@" + name + "', which has no initial value of the loaded type");
    if (auto it = parameters.find(name); it != parameters.end()) {
      rewriter.replaceOp(op, it->second);
      continue;
    }
    rewriter.setInsertionPoint(op);
    mlir::arith::ConstantOp c;
    if (external) {
      // At the entry's start, so that every load of it, in any region, reads the one input.
      rewriter.setInsertionPointToStart(&entry.getBody().front());
      const mlir::Type elem = loaded.getElementType();
      const mlir::TypedAttr zero = mlir::isa<mlir::FloatType>(elem) ? mlir::TypedAttr(rewriter.getFloatAttr(elem, 0.0))
                                                                     : mlir::TypedAttr(rewriter.getIntegerAttr(elem, 0));
      c = rewriter.create<mlir::arith::ConstantOp>(op->getLoc(), mlir::DenseElementsAttr::get(loaded, zero));
      c->setAttr("polyfuse.unfoldable", rewriter.getUnitAttr());
      c->setAttr("polyfuse.external", rewriter.getStringAttr(name));  // the input's name
      parameters[name] = c.getResult();
      notes.push_back("'@" + name + "' (line " + std::to_string(locOf(op).line) +
                      ") has no elements in the file (a parameter supplied at run time): its load is an input of the program");
    } else {
      c = rewriter.create<mlir::arith::ConstantOp>(op->getLoc(), mlir::cast<mlir::TypedAttr>(elements));
    }
    rewriter.replaceOp(op, c.getResult());
  }
  if (last.empty()) {  // only an initializer's stores, or none
    for (Operation* op : stores) rewriter.eraseOp(op);
    return;
  }
  // What the entry leaves in its globals is what it computes: returned after its own results.
  for (const auto& [name, store] : last) {
    Value v = mlir::cast<mlir::ml_program::GlobalStoreOp>(store).getValue();
    if (!mlir::isa<mlir::RankedTensorType>(v.getType()))
      throw SourceError(locOf(store), "ml_program.global_store of '@" + name + "' stores a value that is not a tensor");
    const size_t k = returned(entry, v).first;
    notes.push_back("the function stores to '@" + name + "' (line " + std::to_string(locOf(store).line) +
                    "): the value it stores last is result " + std::to_string(k) + " of the program");
  }
  for (Operation* op : stores) rewriter.eraseOp(op);
}

// A call to a function without a body that computes nothing the entry keeps (a benchmark's
// clock, `%t = call @rtclock() : () -> f64`, read only by the arithmetic that times the
// kernel; a print of a tensor): erased with the pure scalar ops only its results feed.
// Not where it takes a buffer (it may write it), a print's aside, or its results reach
// anything else.
bool dropUnusedCall(mlir::func::CallOp call, std::vector<Value>& printed) {
  const bool print = llvm::StringRef(call.getCallee()).starts_with("print");
  for (Value o : call.getOperands()) {
    while (auto c = o.getDefiningOp<mlir::memref::CastOp>()) o = c.getSource();
    if (mlir::isa<mlir::BaseMemRefType>(o.getType()) && !(print && mlir::isa<mlir::MemRefType>(o.getType()))) return false;
  }
  // A print of a tensor (buddy-mlir's `call @printMemrefF32(%unranked)`) shows what the
  // kernel computes: that tensor is a result of the program. A print of a buffer (MLIR's
  // integration tests) shows what it holds there: a tensor of that, read where the call
  // was (the buffers' reading, Buffers.h, gives it the value the buffer holds then).
  std::vector<Value> shown;
  if (print)
    for (Value o : call.getOperands()) {
      while (auto c = o.getDefiningOp<mlir::tensor::CastOp>()) o = c.getSource();
      while (auto c = o.getDefiningOp<mlir::memref::CastOp>()) o = c.getSource();
      if (mlir::isa<mlir::RankedTensorType>(o.getType())) shown.push_back(o);
      if (mlir::isa<mlir::MemRefType>(o.getType())) {
        mlir::OpBuilder b(call);
        shown.push_back(b.create<mlir::bufferization::ToTensorOp>(call.getLoc(), o).getResult());
      }
    }
  std::vector<Operation*> slice;  // the call's users, users first when erased backwards
  std::set<Operation*> seen;
  std::vector<Value> work(call.getResults().begin(), call.getResults().end());
  while (!work.empty()) {
    Value v = work.back();
    work.pop_back();
    for (Operation* u : v.getUsers()) {
      if (!seen.insert(u).second) continue;
      const bool scalars = u->getNumResults() > 0 && std::all_of(u->result_type_begin(), u->result_type_end(), [](mlir::Type t) {
                             return t.isIntOrIndexOrFloat();
                           });
      // Beside the call (not in a body it would feed), pure, giving scalars: no return
      // or yield (a trait query across the plugin's boundary would not say so).
      if (u->getBlock() != call->getBlock() || !mlir::isMemoryEffectFree(u) || !scalars || u->getNumRegions() != 0)
        return false;
      slice.push_back(u);
      for (Value r : u->getResults()) work.push_back(r);
    }
  }
  // Erased once no op uses them: users of users last found, first gone.
  for (bool progress = true; progress && !slice.empty();) {
    progress = false;
    for (auto it = slice.begin(); it != slice.end();)
      if ((*it)->use_empty()) {
        (*it)->erase();
        it = slice.erase(it);
        progress = true;
      } else {
        ++it;
      }
  }
  if (!slice.empty() || !call->use_empty()) return false;
  printed.insert(printed.end(), shown.begin(), shown.end());
  // What only the call read, a cast of its tensor to an unranked type, goes with it (the
  // tensor stays: a result now, or unread and dropped as any other).
  std::vector<Operation*> feeders;
  for (Value o : call.getOperands())
    if (Operation* d = o.getDefiningOp(); d && std::find(feeders.begin(), feeders.end(), d) == feeders.end())
      feeders.push_back(d);
  call.erase();
  while (!feeders.empty()) {
    Operation* d = feeders.back();
    feeders.pop_back();
    // An op is erased once: it has no use left after, so it is not pushed again.
    if (!d->use_empty() || !mlir::isa<mlir::tensor::CastOp, mlir::memref::CastOp>(d)) continue;
    std::set<Operation*> inputs;
    for (Value o : d->getOperands())
      if (Operation* f = o.getDefiningOp()) inputs.insert(f);
    d->erase();
    for (Operation* f : inputs)
      if (std::find(feeders.begin(), feeders.end(), f) == feeders.end()) feeders.push_back(f);
  }
  return true;
}

// Calls from the entry function (a file's helpers, a model's layers written once)
// inlined, callees' calls in turn, with MLIR's own inliner utility: one function on
// tensors is what the importer reads. The callees stay in the module, unread.
constexpr int kMaxInlinedCalls = 10000;
void inlineCalls(mlir::func::FuncOp entry, std::vector<std::string>& notes) {
  // A cycle of calls (a function reaching itself through others) would unfold forever:
  // found first, by a walk of the call graph from the entry, and refused at the call
  // that closes it.
  std::map<Operation*, int> state;  // 1 on the walk's path, 2 done
  std::function<void(mlir::func::FuncOp)> walk = [&](mlir::func::FuncOp f) {
    state[f] = 1;
    f.walk([&](mlir::func::CallOp call) {
      auto callee = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::func::FuncOp>(call, call.getCalleeAttr());
      if (!callee || callee.isExternal()) return;  // said at the call below
      if (state[callee] == 1)
        throw SourceError(locOf(call), "'@" + call.getCallee().str() + "' calls itself" +
                                           (callee == f ? "" : " through '@" + f.getSymName().str() + "'") +
                                           ": recursion cannot be inlined");
      if (state[callee] == 0) walk(callee);
    });
    state[f] = 2;
  };
  walk(entry);
  mlir::InlinerInterface inliner(entry.getContext());
  int inlined = 0;
  std::set<std::string> dropped;
  std::vector<Value> printed;
  while (true) {
    std::vector<mlir::func::CallOp> calls;
    entry.walk([&](mlir::func::CallOp c) { calls.push_back(c); });
    if (calls.empty()) break;
    for (mlir::func::CallOp call : calls) {
      const std::string name = call.getCallee().str();
      if (auto callee = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::func::FuncOp>(call, call.getCalleeAttr());
          callee && callee.isExternal() && dropUnusedCall(call, printed)) {
        dropped.insert("@" + name);
        continue;
      }
      if (++inlined > kMaxInlinedCalls)
        throw SourceError(locOf(call), "more than " + std::to_string(kMaxInlinedCalls) +
                                           " calls to inline: the entry's calls and theirs unfold into more (reached at a call to '@" + name + "')");
      auto callee = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::func::FuncOp>(call, call.getCalleeAttr());
      if (!callee || callee.isExternal())
        throw SourceError(locOf(call), "call to '@" + name + "', which has no body in this file");
      if (mlir::failed(mlir::inlineCall(inliner, call, callee, &callee.getBody())))
        throw InternalError("MLIR cannot inline the call to '@" + name + "'");
      call.erase();
    }
  }
  if (inlined)
    notes.push_back(std::to_string(inlined) + " call(s) inlined into '@" + entry.getSymName().str() + "'");
  if (!dropped.empty()) {
    std::string names;
    for (const std::string& n : dropped) names += (names.empty() ? "" : ", ") + n;
    notes.push_back("calls to " + names + " (no body in this file) dropped: they compute nothing the function returns "
                    "(a benchmark's clock, a print)");
  }
  // The tensors printed, after the function's own results (once each).
  int added = 0;
  for (Value v : printed) added += returned(entry, v).second;
  if (added) notes.push_back(std::to_string(added) + " printed tensor(s) made results of the program, after its own");
}

// MLIR 19's own parser crashes on some malformed input (linalg.transpose's custom
// parser on a bad `permutation`, found by polyfuse-fuzz; mlir-opt-19 crashes too). The
// file is parsed first in a child process, so that such a crash is the file's error,
// not polyfuse's. A child that cannot be made leaves the parse to the process itself.
void parseInChild(const std::string& text, const std::string& path) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return;
  if (pid == 0) {
    // Silent: a crash is reported by the parent (a sanitizer's report would be noise).
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, 2);
    mlir::DialectRegistry registry;
    dialects(registry);
    mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
    ctx.loadAllAvailableDialects();
    ctx.allowUnregisteredDialects(true);
    mlir::ScopedDiagnosticHandler quiet(&ctx, [](mlir::Diagnostic&) { return mlir::success(); });
    mlir::ParserConfig config(&ctx);
    (void)mlir::parseSourceString<mlir::ModuleOp>(text, config, path);
    _exit(0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // A signal, or under a sanitizer its report's exit status.
  if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0))
    throw SourceError({1, 1}, "MLIR's parser crashes on this file (" +
                                  (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                                       : "exit status " + std::to_string(WEXITSTATUS(status))) +
                                  "), as mlir-opt-19 does: malformed syntax of some op that MLIR 19 does not catch");
}

struct Diagnostics {
  SourceLoc loc;
  std::string message;
  bool any = false;
};

}  // namespace

// The importer follows a body's use-def chains recursively, up to kMaxExprHeight ops
// deep; a sanitizer's frames are several times larger, so the whole import runs on a
// thread with a stack of its own, large enough for that depth in any build.
template <class F>
static void onLargeStack(F& f) {
  struct Job {
    F* f;
    std::exception_ptr error;
  } job{&f, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(512) << 20);
  pthread_t thread;
  auto run = [](void* p) -> void* {
    Job* j = static_cast<Job*>(p);
    try {
      (*j->f)();
    } catch (...) {
      j->error = std::current_exception();
    }
    return nullptr;
  };
  const bool started = pthread_create(&thread, &attr, run, &job) == 0;
  pthread_attr_destroy(&attr);
  if (!started) {  // no thread to be had: the import runs here
    f();
    return;
  }
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

static LinalgImport importHere(const SourceFile& src, const std::string& entry);

LinalgImport importLinalg(const SourceFile& src, const std::string& entry) {
  LinalgImport out;
  auto work = [&] { out = importHere(src, entry); };
  onLargeStack(work);
  return out;
}

static LinalgImport importHere(const SourceFile& src, const std::string& entry) {
  if (src.text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw SourceError({1, 1}, "file is empty: expected a func.func on tensors");
  LinalgImport out;
  mlir::DialectRegistry registry;
  dialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  ctx.allowUnregisteredDialects(true);  // wrappers such as IREE's hal.executable
  ctx.printOpOnDiagnostic(false);
  Diagnostics diag;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic& d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error && !diag.any) {
      diag.any = true;
      diag.loc = locOf(d.getLocation());
      diag.message = d.str();
    }
    return mlir::success();
  });
  mlir::ParserConfig config(&ctx);
  // One reading of a file's text: the text rewrites, then MLIR's parser.
  std::string text;
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<mlir::AsmParserState> asmState;
  std::unique_ptr<mlir::Block> parsed;
  auto read = [&](const std::string& input, std::vector<std::string>& notes) {
    text = readIreeLinalgExt(readTosa10(readIreeBoundary(upgradeMlir(input, notes), notes), notes), notes);
    checkNesting(text);
    parseInChild(text, src.path);
    diag = Diagnostics{};
    sourceMgr = std::make_unique<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, src.path), llvm::SMLoc());
    asmState = std::make_unique<mlir::AsmParserState>();
    parsed = std::make_unique<mlir::Block>();
    if (mlir::succeeded(mlir::parseAsmSourceFile(*sourceMgr, parsed.get(), config, asmState.get()))) return;
    if (!diag.any) throw InternalError("MLIR's parser failed without a diagnostic");
    static const std::regex unread(R"(^Dialect `iree_linalg_ext' not found for custom op 'iree_linalg_ext\.([\w.]+)')");
    std::smatch m;
    if (std::regex_search(diag.message, m, unread)) throw SourceError(diag.loc, whyLinalgExtUnread(m[1].str()));
    throw SourceError(diag.loc, diag.message);
  };
  // A file that does not read as a whole may still hold a readable entry: test files keep
  // many independent functions, and one in ops MLIR 19 lacks stops them all. The entry is
  // then read with only what it reaches (a failure there is its own, and reported).
  try {
    read(src.text, out.notes);
  } catch (const SourceError& whole) {
    std::vector<std::string> notes;
    const std::string sliced = readEntryOnly(readEntrySection(src.text, entry, notes), entry, notes);
    // A failing line the slice keeps is the entry's own failure, unless it redefines a name
    // or an alias that the slice left out (a split file's other cases define it first).
    const bool redefinition = std::string(whole.what()).find("redefinition of") != std::string::npos;
    if (sliced == src.text || (!redefinition && sameLine(sliced, src.text, whole.loc().line))) throw;
    read(sliced, notes);
    std::string first = whole.what();
    first = first.substr(0, first.find('\n'));
    notes.front() = "the file does not read as a whole (line " + std::to_string(whole.loc().line) + ": " +
                    mlir_text::trimmed(first) + "): " + notes.front();
    out.notes = std::move(notes);
  }
  const SsaNames names(*asmState, *sourceMgr);
  // Several top-level functions (without a module) are one implicit module, as mlir-opt reads them.
  mlir::OwningOpRef<mlir::ModuleOp> top = mlir::detail::constructContainerOpForParserIfNecessary<mlir::ModuleOp>(
      parsed.get(), &ctx, mlir::FileLineColLoc::get(&ctx, src.path, 0, 0));
  if (!top) throw InternalError("the parsed operations could not be put in a module");

  std::vector<mlir::func::FuncOp> fns;
  top->walk([&](mlir::func::FuncOp f) {
    if (!f.isExternal()) fns.push_back(f);
  });
  if (fns.empty()) throw SourceError({1, 1}, "no func.func with a body in this file");
  // The default entry is the first public function (a private one is a helper).
  mlir::func::FuncOp chosen;
  for (auto f : fns)
    if (entry.empty() ? !f.isPrivate() : f.getSymName() == entry) {
      chosen = f;
      break;
    }
  if (!chosen && entry.empty()) chosen = fns.front();
  if (!chosen) {
    std::string names;
    for (auto f : fns) names += (names.empty() ? "" : ", ") + f.getSymName().str();
    throw UsageError("no function named '" + entry + "' in " + src.path + " (it has: " + names + ")");
  }

  tensorAllocations(*top);
  inlineCalls(chosen, out.notes);
  poisonValues(chosen, out.notes);
  unrollLoops(chosen, out.notes);
  readBuffers(chosen, out.notes);
  if (mlir::failed(lowerTosa(chosen, out.notes)))
    throw SourceError(diag.any ? diag.loc : locOf(chosen), diag.any ? diag.message : "MLIR's TOSA lowering failed");
  if (mlir::failed(lowerTensorElementwise(chosen, out.notes)))
    throw SourceError(diag.any ? diag.loc : locOf(chosen), diag.any ? diag.message : "MLIR's elementwise lowering failed");
  // ml_program globals, read as one call of the entry sees them: a global holds its
  // initial value when the call begins (a load before any store reads that constant,
  // read as any constant is: a splat a fill, else an input); a load after a store in the
  // entry reads the stored value; the last value the entry stores is one more result.
  readGlobals(chosen, *top, out.notes);
  tensorBuilders(chosen, out.notes);
  // Aggregated ops (linalg.softmax) become the ops MLIR itself decomposes them into.
  {
    std::vector<mlir::linalg::AggregatedOpInterface> aggregated;
    chosen.walk([&](mlir::linalg::AggregatedOpInterface op) { aggregated.push_back(op); });
    mlir::IRRewriter rewriter(&ctx);
    for (auto op : aggregated) {
      rewriter.setInsertionPoint(op);
      mlir::FailureOr<llvm::SmallVector<Value>> parts = op.decomposeOperation(rewriter);
      if (mlir::failed(parts)) throw InternalError("MLIR cannot decompose '" + opName(op.getOperation()) + "'");
      rewriter.replaceOp(op, *parts);
    }
  }
  // Named ops (matmul, reduce, transpose, conv..) become generics; fills stay, to be
  // read as reduction inits.
  std::vector<mlir::linalg::LinalgOp> linalgOps;
  chosen.walk([&](mlir::linalg::LinalgOp op) { linalgOps.push_back(op); });
  mlir::IRRewriter rewriter(&ctx);
  for (auto op : linalgOps) {
    SourceLoc loc = locOf(op.getOperation());
    std::string what = opName(op.getOperation());
    if (!op.hasPureTensorSemantics()) throw SourceError(loc, "'" + what + "' works on memrefs; polyfuse imports tensors");
    if (mlir::isa<mlir::linalg::GenericOp, mlir::linalg::FillOp>(op.getOperation())) continue;
    rewriter.setInsertionPoint(op);
    if (auto m = mlir::dyn_cast<mlir::linalg::MapOp>(op.getOperation())) {
      generalizeMap(rewriter, m);
      continue;
    }
    if (mlir::failed(mlir::linalg::generalizeNamedOp(rewriter, op)))
      throw InternalError("MLIR cannot generalize '" + what + "'");
  }
  expandLinearizedWrites(chosen, out.notes);
  expandStridedInserts(chosen, out.notes);
  // Loops of extent 1 (a batch of one) dropped, as IREE does before forming dispatches:
  // the generics run on views (collapse_shape, expand_shape) of the same tensors.
  // Only the ops as written are rewritten (the greedy driver would also fold and reorder
  // the arithmetic in bodies, which must reach the TC program as written).
  {
    std::vector<Operation*> ops;
    chosen.walk([&](Operation* op) {
      if (mlir::isa<mlir::linalg::GenericOp, mlir::tensor::PadOp>(op)) ops.push_back(op);
    });
    mlir::RewritePatternSet patterns(&ctx);
    mlir::linalg::ControlDropUnitDims options;
    // An op whose result the function returns keeps its loops: the result has the
    // function's shape, and its name stays the output's.
    options.controlFn = [dropAll = options.controlFn](Operation* op) -> llvm::SmallVector<unsigned> {
      for (Value r : op->getResults())
        for (mlir::OpOperand& u : r.getUses())
          if (mlir::isa<mlir::func::ReturnOp>(u.getOwner())) return {};
      return dropAll(op);
    };
    mlir::linalg::populateFoldUnitExtentDimsPatterns(patterns, options);
    mlir::GreedyRewriteConfig config;
    config.strictMode = mlir::GreedyRewriteStrictness::ExistingOps;
    config.enableRegionSimplification = mlir::GreedySimplifyRegionLevel::Disabled;
    (void)mlir::applyOpPatternsAndFold(ops, mlir::FrozenRewritePatternSet(std::move(patterns)), config);
  }
  extractsThroughViews(chosen, out.notes);

  Importer(names, out).run(chosen);
  return out;
}

}  // namespace polyfuse
