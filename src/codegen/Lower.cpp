#include "codegen/Lower.h"

#include <isl/ast.h>
#include <isl/ast_build.h>

#include <algorithm>
#include <functional>
#include <set>

#include "codegen/Names.h"
#include "codegen/Schedule.h"
#include "fusion/Barriers.h"
#include "polyir/Diagnostic.h"
#include "polyir/IslContext.h"
#include "polyir/Rescale.h"

namespace polyfuse {


// An isl AST expression (integer arithmetic only) as the kernel IR's tree.
static IndexExpr indexExpr(const isl::ast_expr& expr) {
  isl_ast_expr* e = expr.get();
  switch (isl_ast_expr_get_type(e)) {
    case isl_ast_expr_int: return IndexExpr::constant(isl::manage(isl_ast_expr_get_val(e)).get_num_si());
    case isl_ast_expr_id: return IndexExpr::named(isl::manage(isl_ast_expr_get_id(e)).name());
    case isl_ast_expr_op: {
      std::vector<IndexExpr> a;
      for (int i = 0; i < isl_ast_expr_get_op_n_arg(e); ++i) a.push_back(indexExpr(isl::manage(isl_ast_expr_get_op_arg(e, i))));
      auto op = [&]() -> std::optional<IndexOp> {
        switch (isl_ast_expr_op_get_type(e)) {
          case isl_ast_expr_op_and: return IndexOp::And;
          case isl_ast_expr_op_or: return IndexOp::Or;
          case isl_ast_expr_op_max: return IndexOp::Max;
          case isl_ast_expr_op_min: return IndexOp::Min;
          case isl_ast_expr_op_minus: return IndexOp::Neg;
          case isl_ast_expr_op_add: return IndexOp::Add;
          case isl_ast_expr_op_sub: return IndexOp::Sub;
          case isl_ast_expr_op_mul: return IndexOp::Mul;
          case isl_ast_expr_op_div: case isl_ast_expr_op_pdiv_q: return IndexOp::Div;
          case isl_ast_expr_op_fdiv_q: return IndexOp::FloorDiv;
          case isl_ast_expr_op_pdiv_r: case isl_ast_expr_op_zdiv_r: return IndexOp::Rem;
          case isl_ast_expr_op_eq: return IndexOp::Eq;
          case isl_ast_expr_op_le: return IndexOp::Le;
          case isl_ast_expr_op_lt: return IndexOp::Lt;
          case isl_ast_expr_op_ge: return IndexOp::Ge;
          case isl_ast_expr_op_gt: return IndexOp::Gt;
          case isl_ast_expr_op_cond: case isl_ast_expr_op_select: return IndexOp::Select;
          default: return std::nullopt;
        }
      }();
      if (!op) throw InternalError("unsupported isl AST operator");
      return IndexExpr::apply(*op, std::move(a));
    }
    default: throw InternalError("unsupported isl AST expression");
  }
}

namespace {

// Walks isl's AST of one statement in one block, collecting a piece per user node.
// The tree's marks say what each loop is: loops below a "reduction" mark run along
// reduction dimensions; the "kernel", "grid" and "thread" marks only pass through.
struct AstWalker {
  std::vector<PieceIR> pieces;
  std::vector<LoopIR> loops;
  std::vector<IndexExpr> guards;
  bool inReduction = false;

  void walk(const isl::ast_node& node) {
    isl_ast_node* n = node.get();
    switch (isl_ast_node_get_type(n)) {
      case isl_ast_node_block: {
        isl::ast_node_list list = isl::manage(isl_ast_node_block_get_children(n));
        for (int i = 0; i < isl_ast_node_list_n_ast_node(list.get()); ++i)
          walk(isl::manage(isl_ast_node_list_get_ast_node(list.get(), i)));
        return;
      }
      case isl_ast_node_mark: {
        std::string mark = isl::manage(isl_ast_node_mark_get_id(n)).name();
        bool outer = inReduction;
        inReduction |= mark == kReductionMark;
        walk(isl::manage(isl_ast_node_mark_get_node(n)));
        inReduction = outer;
        return;
      }
      case isl_ast_node_for: {
        IndexExpr var = indexExpr(isl::manage(isl_ast_node_for_get_iterator(n)));
        if (indexExpr(isl::manage(isl_ast_node_for_get_inc(n))) != IndexExpr::constant(1))
          throw InternalError("unexpected loop stride in isl AST");
        isl::ast_expr cond = isl::manage(isl_ast_node_for_get_cond(n));
        IndexExpr hi = indexExpr(isl::manage(isl_ast_expr_get_op_arg(cond.get(), 1)));
        if (isl_ast_expr_op_get_type(cond.get()) == isl_ast_expr_op_le)
          hi = IndexExpr::apply(IndexOp::Add, {std::move(hi), IndexExpr::constant(1)});
        loops.push_back({var.name, indexExpr(isl::manage(isl_ast_node_for_get_init(n))), hi, inReduction});
        walk(isl::manage(isl_ast_node_for_get_body(n)));
        loops.pop_back();
        return;
      }
      case isl_ast_node_if: {
        if (!loops.empty()) throw InternalError("isl AST guard inside a loop nest");
        if (isl_ast_node_if_has_else_node(n)) throw InternalError("isl AST else branch");
        guards.push_back(indexExpr(isl::manage(isl_ast_node_if_get_cond(n))));
        walk(isl::manage(isl_ast_node_if_get_then_node(n)));
        guards.pop_back();
        return;
      }
      case isl_ast_node_user: {
        isl::ast_expr call = isl::manage(isl_ast_node_user_get_expr(n));
        PieceIR p;
        p.guards = guards;
        p.loops = loops;
        for (int i = 1; i < isl_ast_expr_get_op_n_arg(call.get()); ++i)
          p.dimValue.push_back(indexExpr(isl::manage(isl_ast_expr_get_op_arg(call.get(), i))));
        pieces.push_back(std::move(p));
        return;
      }
      default: throw InternalError("unsupported isl AST node");
    }
  }
};

}  // namespace

std::vector<int> globalTensors(const Program& prog, const Partition& p) {
  std::vector<int> out;
  for (size_t t = 0; t < prog.tensors.size(); ++t)
    if (std::none_of(p.kernels.begin(), p.kernels.end(), [&](const KernelPlan& k) { return k.keepsOnChip(int(t)); }))
      out.push_back(int(t));
  return out;
}

std::string kernelFunction(const Program& prog, int id) { return cName(prog.name) + "_k" + std::to_string(id); }
std::string combineFunction(const Program& prog, int id) { return kernelFunction(prog, id) + "_combine"; }

// isl's AST of one statement in one block, from the plan's verified tree. Loop
// iterators take the statement's dimension names in C, in band order.
static std::vector<PieceIR> statementAst(const PlanSchedule& sched, const Statement& st, const KernelPlan& k, size_t m) {
  isl::set context;
  isl::schedule block = blockSchedule(sched, k, st.id, context);
  if (block.is_null()) return {};
  isl::ctx ctx = block.ctx();
  isl_id_list* iters = isl_id_list_alloc(ctx.get(), int(st.dims.size()));
  for (int d = 0; d < int(st.dims.size()); ++d)  // in the tree's band order: the dims no block fixes
    if (!k.fixedByBlock(m, d)) iters = isl_id_list_add(iters, isl_id_alloc(ctx.get(), cName(st.dims[d]).c_str(), nullptr));
  isl::ast_build build = isl::manage(isl_ast_build_set_iterators(isl::ast_build::from_context(context).release(), iters));
  isl::ast_node node = build.node_from(block);
  if (node.is_null()) throw InternalError("isl could not build the AST of " + st.label());
  AstWalker w;
  w.walk(node);
  return w.pieces;
}

// The barriers isl's AST needs, against the plan's (fusion/Barriers.h, the same walk): a
// statement that touches what another thread wrote since the last barrier (or overwrites
// what another thread read) must follow one. Throws InternalError where the plan lacks it.
static void checkBarriers(const Program& prog, const KernelPlan& k, const KernelIR& ki) {
  // Statements a and b touch tensor t only at the point each thread owns: the same
  // parallel loops as isl printed them, and every access of t the identity of that point.
  auto sameThread = [&](size_t ma, size_t mb, int t) {
    const StmtIR &a = ki.stmts[ma], &b = ki.stmts[mb];
    if (reducesAcrossThreads(a.mode) || reducesAcrossThreads(b.mode)) return false;
    if (k.tiledWith(a.member) || k.tiledWith(b.member)) return false;
    if (a.vectorWidth != b.vectorWidth) return false;
    if (a.pieces.size() != 1 || b.pieces.size() != 1) return false;
    const PieceIR &pa = a.pieces[0], &pb = b.pieces[0];
    const Statement &sa = prog.statements[a.stmt], &sb = prog.statements[b.stmt];
    if (pa.guards != pb.guards || sa.numParallel != sb.numParallel || sa.numParallel == 0) return false;
    for (int d = 0; d < sa.numParallel; ++d)
      if (sa.dims[d] != sb.dims[d] || pa.dimValue[d] != pb.dimValue[d]) return false;
    auto parLoops = [](const PieceIR& p) {
      std::vector<LoopIR> v;
      for (auto& l : p.loops)
        if (!l.reduction) v.push_back(l);
      return v;
    };
    if (parLoops(pa) != parLoops(pb)) return false;
    return accessesOwnPoint(k, sa, t) && accessesOwnPoint(k, sb, t);
  };
  auto guardedSync = [&](size_t m) {
    const StmtIR& s = ki.stmts[m];
    return (reducesAcrossThreads(s.mode) || k.contractionOf(s.member)) &&
           std::any_of(s.pieces.begin(), s.pieces.end(), [](const PieceIR& p) { return !p.guards.empty(); });
  };
  auto barrierBefore = [&](size_t m, bool needed) {
    const bool placed = ki.stmts[m - 1].barrierAfter;
    if (needed && !placed)
      throw InternalError("kernel " + std::to_string(k.id) + ": " + prog.statements[ki.stmts[m].stmt].label() +
                          " needs a barrier before it that the plan does not place");
    return placed;
  };
  walkBarriers(prog, k, {sameThread, guardedSync, barrierBefore});
}

std::vector<KernelIR> lowerPartition(const PolyProgram& pp, const SizedProgram& at, const Partition& p,
                                     const PlanSchedule& sched) {
  const Program& prog = pp.program();
  std::vector<KernelIR> out;
  for (auto& k : p.kernels) {
    KernelIR ki;
    ki.id = k.id;
    ki.name = kernelFunction(prog, k.id);
    ki.plan = k;
    for (int t = 0; t < k.gridRank(); ++t) ki.numBlocks.push_back((k.gridExtent[t] + k.tile[t] - 1) / k.tile[t]);
    std::set<int> touched, written;
    for (size_t m = 0; m < k.statements.size(); ++m) {
      // A streamed sum reads what its inlined form reads; inlined producers touch nothing.
      const Statement& st = prog.statements[k.statements[m]];
      if (k.inlinedInStream(m)) continue;
      touched.insert(st.write.tensor);
      written.insert(st.write.tensor);
      StreamChain chain;
      if (k.streamedInto(m) >= 0) chain = streamChain(prog, st);
      for (auto& r : (chain.streams() ? chain.inlined : st).reads)
        if (r.tensor != chain.tensor) touched.insert(r.tensor);
    }
    for (int t : touched)
      if (!k.keepsOnChip(t)) {
        ki.params.push_back(t);
        ki.paramWritten.push_back(written.count(t) > 0);
      }
    for (size_t m = 0; m < k.statements.size(); ++m) {
      const Statement& st = prog.statements[k.statements[m]];
      StmtIR s;
      s.stmt = st.id;
      s.mode = k.modes[m];
      s.vectorWidth = m < k.vectorWidth.size() ? k.vectorWidth[m] : 1;
      s.threadDim = k.threadDims[m];
      s.member = m;
      s.pieces = statementAst(sched, st, k, m);
      ki.stmts.push_back(std::move(s));
    }
    // Barriers are the plan's (fusion/Barriers.h): the cost model priced them. Here the
    // AST isl built checks them: before a statement that touches what another thread
    // wrote (or overwrites what another thread read) since the last barrier, the plan must
    // have one, else it promised a kernel that cannot run as priced.
    for (size_t m = 0; m < ki.stmts.size() && m < k.barrierAfter.size(); ++m) ki.stmts[m].barrierAfter = k.barrierAfter[m];
    if (!k.streamedTile()) checkBarriers(prog, k, ki);
    // (A streamed tile's are in its printer: four in a step, one more after tensor cores'
    // scores, one after the steps where the weighted sum's accumulators meet the rows.)
    ki.barriers = k.streamedTile() ? 4 + int(k.streamTile.mmaScores()) + int(k.streamTile.mmaSums())
                                   : int(std::count(k.barrierAfter.begin(), k.barrierAfter.end(), true));
    // Barriers one block executes in CUDA: the plan's, and one per block reduction; a
    // warp-per-row kernel's statements meet at warp barriers and its reductions shuffle.
    ki.barriersPerBlock = k.barriersPerBlock + k.reductionsPerBlock;
    if (k.warpPerRow()) {
      ki.warpBarriers = ki.barriers;
      ki.barriersPerBlock = k.barriersPerBlock - ki.barriers;
    }
    out.push_back(std::move(ki));
  }
  return out;
}

}  // namespace polyfuse
