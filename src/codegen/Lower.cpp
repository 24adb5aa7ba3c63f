#include "codegen/Lower.h"

#include <isl/ast.h>
#include <isl/ast_build.h>

#include <algorithm>
#include <functional>
#include <set>

#include "codegen/Names.h"
#include "polyir/Diagnostic.h"
#include "polyir/IslContext.h"

namespace polyfuse {

static std::string originName(int t) { return "pf_b" + std::to_string(t); }

// C spelling of an isl AST expression (integer arithmetic only).
static std::string exprC(isl_ast_expr* e) {
  switch (isl_ast_expr_get_type(e)) {
    case isl_ast_expr_int: {
      isl_val* v = isl_ast_expr_get_val(e);
      long x = isl_val_get_num_si(v);
      isl_val_free(v);
      return x < 0 ? "(" + std::to_string(x) + ")" : std::to_string(x);
    }
    case isl_ast_expr_id: {
      isl_id* id = isl_ast_expr_get_id(e);
      std::string n = isl_id_get_name(id);
      isl_id_free(id);
      return n;
    }
    case isl_ast_expr_op: {
      int n = isl_ast_expr_get_op_n_arg(e);
      std::vector<std::string> a;
      for (int i = 0; i < n; ++i) {
        isl_ast_expr* c = isl_ast_expr_get_op_arg(e, i);
        a.push_back(exprC(c));
        isl_ast_expr_free(c);
      }
      switch (isl_ast_expr_op_get_type(e)) {
        case isl_ast_expr_op_and: return "(" + a[0] + " && " + a[1] + ")";
        case isl_ast_expr_op_or: return "(" + a[0] + " || " + a[1] + ")";
        case isl_ast_expr_op_max: {
          std::string r = a[0];
          for (int i = 1; i < n; ++i) r = "max(" + r + ", " + a[i] + ")";
          return r;
        }
        case isl_ast_expr_op_min: {
          std::string r = a[0];
          for (int i = 1; i < n; ++i) r = "min(" + r + ", " + a[i] + ")";
          return r;
        }
        case isl_ast_expr_op_minus: return "(-" + a[0] + ")";
        case isl_ast_expr_op_add: return "(" + a[0] + " + " + a[1] + ")";
        case isl_ast_expr_op_sub: return "(" + a[0] + " - " + a[1] + ")";
        case isl_ast_expr_op_mul: return "(" + a[0] + " * " + a[1] + ")";
        case isl_ast_expr_op_div: case isl_ast_expr_op_pdiv_q: return "(" + a[0] + " / " + a[1] + ")";
        case isl_ast_expr_op_fdiv_q: return "pf_floord(" + a[0] + ", " + a[1] + ")";
        case isl_ast_expr_op_pdiv_r: case isl_ast_expr_op_zdiv_r: return "(" + a[0] + " % " + a[1] + ")";
        case isl_ast_expr_op_eq: return "(" + a[0] + " == " + a[1] + ")";
        case isl_ast_expr_op_le: return "(" + a[0] + " <= " + a[1] + ")";
        case isl_ast_expr_op_lt: return "(" + a[0] + " < " + a[1] + ")";
        case isl_ast_expr_op_ge: return "(" + a[0] + " >= " + a[1] + ")";
        case isl_ast_expr_op_gt: return "(" + a[0] + " > " + a[1] + ")";
        case isl_ast_expr_op_cond: case isl_ast_expr_op_select:
          return "(" + a[0] + " ? " + a[1] + " : " + a[2] + ")";
        default: break;
      }
      throw InternalError("unsupported isl AST operator");
    }
    default: throw InternalError("unsupported isl AST expression");
  }
}

namespace {

// Walks isl's AST of one statement, collecting a piece per user node.
struct AstWalker {
  const Statement& st;
  std::vector<PieceIR> pieces;
  std::vector<LoopIR> loops;
  std::vector<std::string> guards;

  void walk(isl_ast_node* node) {
    switch (isl_ast_node_get_type(node)) {
      case isl_ast_node_block: {
        isl_ast_node_list* list = isl_ast_node_block_get_children(node);
        for (int i = 0; i < isl_ast_node_list_n_ast_node(list); ++i) {
          isl_ast_node* c = isl_ast_node_list_get_ast_node(list, i);
          walk(c);
          isl_ast_node_free(c);
        }
        isl_ast_node_list_free(list);
        return;
      }
      case isl_ast_node_for: {
        isl_ast_expr* it = isl_ast_node_for_get_iterator(node);
        isl_ast_expr* init = isl_ast_node_for_get_init(node);
        isl_ast_expr* cond = isl_ast_node_for_get_cond(node);
        isl_ast_expr* inc = isl_ast_node_for_get_inc(node);
        std::string var = exprC(it), incText = exprC(inc);
        if (incText != "1") throw InternalError("unexpected loop stride in isl AST");
        isl_ast_expr* bound = isl_ast_expr_get_op_arg(cond, 1);
        std::string hi = exprC(bound);
        if (isl_ast_expr_op_get_type(cond) == isl_ast_expr_op_le) hi = "(" + hi + " + 1)";
        isl_ast_expr_free(bound);
        bool red = std::any_of(st.dims.begin() + st.numParallel, st.dims.end(),
                               [&](const std::string& d) { return cName(d) == var; });
        loops.push_back({var, exprC(init), hi, red});
        isl_ast_node* body = isl_ast_node_for_get_body(node);
        walk(body);
        isl_ast_node_free(body);
        loops.pop_back();
        isl_ast_expr_free(it);
        isl_ast_expr_free(init);
        isl_ast_expr_free(cond);
        isl_ast_expr_free(inc);
        return;
      }
      case isl_ast_node_if: {
        if (!loops.empty()) throw InternalError("isl AST guard inside a loop nest");
        isl_ast_expr* cond = isl_ast_node_if_get_cond(node);
        guards.push_back(exprC(cond));
        isl_ast_expr_free(cond);
        isl_ast_node* t = isl_ast_node_if_get_then_node(node);
        walk(t);
        isl_ast_node_free(t);
        guards.pop_back();
        if (isl_ast_node_if_has_else_node(node)) throw InternalError("isl AST else branch");
        return;
      }
      case isl_ast_node_user: {
        isl_ast_expr* call = isl_ast_node_user_get_expr(node);
        PieceIR p;
        for (auto& g : guards) p.guard += (p.guard.empty() ? "" : " && ") + g;
        p.loops = loops;
        for (int i = 1; i < isl_ast_expr_get_op_n_arg(call); ++i) {
          isl_ast_expr* a = isl_ast_expr_get_op_arg(call, i);
          p.dimValue.push_back(exprC(a));
          isl_ast_expr_free(a);
        }
        isl_ast_expr_free(call);
        pieces.push_back(std::move(p));
        return;
      }
      default: throw InternalError("unsupported isl AST node");
    }
  }
};

}  // namespace

std::vector<int> globalTensors(const CostModel& cm, const Partition& p) {
  const Program& prog = cm.graph().program();
  std::set<int> onchip;
  for (auto& k : p.kernels) onchip.insert(k.onChip.begin(), k.onChip.end());
  std::vector<int> out;
  for (size_t t = 0; t < prog.tensors.size(); ++t)
    if (!onchip.count(int(t))) out.push_back(int(t));
  return out;
}

static std::vector<PieceIR> statementAst(const CostModel& cm, const KernelPlan& k, size_t m) {
  const Program& prog = cm.graph().program();
  const Statement& st = prog.statements[k.statements[m]];
  const SizedStatement& ss = cm.sized(st.id);
  isl::ctx ctx = cm.graph().poly().ctx();
  const int g = k.gridRank();
  const bool split = k.splitChunks > 1;
  std::string params = "[";
  for (int t = 0; t < g; ++t) params += (t ? ", " : "") + originName(t);
  if (split) params += std::string(g ? ", " : "") + "pf_c";
  params += "] -> ";
  // Dimensions are spelled for isl here; the AST's iterators get their C names below.
  std::vector<std::string> dim;
  for (auto& d : st.dims) dim.push_back(islName(d));
  std::string tuple = st.label() + "[";
  for (size_t d = 0; d < dim.size(); ++d) tuple += (d ? ", " : "") + dim[d];
  tuple += "]";
  std::string cons;
  for (size_t d = 0; d < dim.size(); ++d)
    cons += (d ? " and " : "") + std::to_string(ss.lo[d]) + " <= " + dim[d] + " < " + std::to_string(ss.hi[d]);
  if (split) {  // the block's chunk of the last (reduction) dimension
    const std::string& r = dim.back();
    std::string start = std::to_string(ss.lo.back()) + " + " + std::to_string(k.splitChunk) + "pf_c";
    cons += " and " + start + " <= " + r + " < " + start + " + " + std::to_string(k.splitChunk);
  }
  std::vector<int> inBlock;  // scheduled dims: in-block parallel dims, then reduction dims
  for (int d = 0; d < int(st.dims.size()); ++d) {
    auto it = std::find(k.gridDims[m].begin(), k.gridDims[m].end(), d);
    if (it != k.gridDims[m].end()) {
      int t = int(it - k.gridDims[m].begin());
      cons += " and " + originName(t) + " <= " + dim[d] + " < " + originName(t) + " + " + std::to_string(k.tile[t]);
      if (k.tile[t] == 1) continue;
    }
    inBlock.push_back(d);
  }
  std::string out = "[";
  for (size_t q = 0; q < inBlock.size(); ++q) out += (q ? ", " : "") + dim[inBlock[q]];
  out += "]";
  isl::set domain(ctx, params + "{ " + tuple + " : " + cons + " }");
  isl::map sched = isl::map(ctx, params + "{ " + tuple + " -> " + out + " }").intersect_domain(domain);
  std::string ctxText;
  for (int t = 0; t < g; ++t) {
    int64_t lo = k.gridLo[t], hi = k.gridLo[t] + k.gridExtent[t];
    ctxText += (t ? " and " : "") + std::string("exists (e") + std::to_string(t) + ": " + originName(t) + " = " +
               std::to_string(lo) + " + " + std::to_string(k.tile[t]) + "e" + std::to_string(t) + ") and " +
               std::to_string(lo) + " <= " + originName(t) + " < " + std::to_string(hi);
  }
  if (split) ctxText += (ctxText.empty() ? "" : " and ") + std::string("0 <= pf_c < ") + std::to_string(k.splitChunks);
  isl::set context(ctx, params + "{ : " + (ctxText.empty() ? "true" : ctxText) + " }");
  isl_ast_build* build = isl_ast_build_from_context(context.release());
  isl_id_list* iters = isl_id_list_alloc(ctx.get(), int(inBlock.size()));
  for (int d : inBlock) iters = isl_id_list_add(iters, isl_id_alloc(ctx.get(), cName(st.dims[d]).c_str(), nullptr));
  build = isl_ast_build_set_iterators(build, iters);
  isl_ast_node* node = isl_ast_build_node_from_schedule_map(build, isl_union_map_from_map(sched.release()));
  isl_ast_build_free(build);
  if (!node) throw InternalError("isl could not build the AST of " + st.label());
  AstWalker w{st, {}, {}, {}};
  w.walk(node);
  isl_ast_node_free(node);
  return w.pieces;
}

std::vector<KernelIR> lowerPartition(const CostModel& cm, const Partition& p) {
  const Program& prog = cm.graph().program();
  std::vector<KernelIR> out;
  for (auto& k : p.kernels) {
    KernelIR ki;
    ki.id = k.id;
    ki.name = cName(prog.name) + "_k" + std::to_string(k.id);
    ki.plan = k;
    for (int t = 0; t < k.gridRank(); ++t) ki.numBlocks.push_back((k.gridExtent[t] + k.tile[t] - 1) / k.tile[t]);
    std::set<int> touched, written;
    for (int s : k.statements) {
      touched.insert(prog.statements[s].write.tensor);
      written.insert(prog.statements[s].write.tensor);
      for (auto& r : prog.statements[s].reads) touched.insert(r.tensor);
    }
    for (int t : touched) {
      if (std::count(k.onChip.begin(), k.onChip.end(), t)) {
        // On chip: the block's slice of the producer's lhs box.
        size_t m = 0;
        while (prog.statements[k.statements[m]].write.tensor != t) ++m;
        const Statement& st = prog.statements[k.statements[m]];
        const SizedStatement& ss = cm.sized(st.id);
        LocalArray la;
        la.tensor = t;
        for (int d = 0; d < st.numParallel; ++d) {
          auto it = std::find(k.gridDims[m].begin(), k.gridDims[m].end(), d);
          if (it != k.gridDims[m].end()) {
            int g = int(it - k.gridDims[m].begin());
            la.base.push_back(originName(g));
            la.extent.push_back(k.tile[g]);
          } else {
            la.base.push_back(std::to_string(ss.lo[d]));
            la.extent.push_back(ss.hi[d] - ss.lo[d]);
          }
        }
        ki.locals.push_back(la);
      } else {
        ki.params.push_back(t);
        ki.paramWritten.push_back(written.count(t) > 0);
      }
    }
    for (size_t m = 0; m < k.statements.size(); ++m) {
      const Statement& st = prog.statements[k.statements[m]];
      StmtIR s;
      s.stmt = st.id;
      int x = k.threadDims[m];
      s.mode = st.numReduction() == 0 ? StmtMode::Pointwise
               : x >= st.numParallel ? StmtMode::BlockReduce
                                     : StmtMode::SerialReduce;
      ki.usesBlockReduce |= s.mode == StmtMode::BlockReduce;
      s.pieces = statementAst(cm, k, m);
      ki.stmts.push_back(std::move(s));
    }
    // Barriers: before a statement that touches what another thread wrote (or
    // overwrites what another thread read) since the last barrier. A pointwise chain
    // over the same points in the same thread needs none.
    struct Pending { int stmt; int tensor; bool write; };
    std::vector<Pending> pending;
    // Statements a and b touch tensor t only at the point each thread owns: same
    // parallel loops, and every access of t is the identity of that point.
    auto sameThread = [&](const StmtIR& a, const StmtIR& b, int t) {
      if (a.mode == StmtMode::BlockReduce || b.mode == StmtMode::BlockReduce) return false;
      if (a.pieces.size() != 1 || b.pieces.size() != 1) return false;
      const PieceIR &pa = a.pieces[0], &pb = b.pieces[0];
      const Statement &sa = prog.statements[a.stmt], &sb = prog.statements[b.stmt];
      if (pa.guard != pb.guard || sa.numParallel != sb.numParallel || sa.numParallel == 0) return false;
      for (int d = 0; d < sa.numParallel; ++d)
        if (sa.dims[d] != sb.dims[d] || pa.dimValue[d] != pb.dimValue[d]) return false;
      auto parLoops = [](const PieceIR& p) {
        std::vector<std::string> v;
        for (auto& l : p.loops)
          if (!l.reduction) v.push_back(l.var + ":" + l.lo + ":" + l.hi);
        return v;
      };
      if (parLoops(pa) != parLoops(pb)) return false;
      auto ownPoint = [&](const Statement& s) {
        std::vector<Affine> point;
        for (int d = 0; d < s.numParallel; ++d) point.push_back(Affine::var(s.dims[d]));
        if (s.write.tensor == t && s.write.subscripts != point) return false;
        for (auto& r : s.reads)
          if (r.tensor == t && r.subscripts != point) return false;
        return true;
      };
      return ownPoint(sa) && ownPoint(sb);
    };
    for (size_t m = 0; m < ki.stmts.size(); ++m) {
      const Statement& st = prog.statements[ki.stmts[m].stmt];
      bool conflict = false;
      for (auto& pd : pending) {
        bool reads = std::any_of(st.reads.begin(), st.reads.end(), [&](const Access& a) { return a.tensor == pd.tensor; });
        bool writes = st.write.tensor == pd.tensor;
        if (!(writes || (reads && pd.write))) continue;
        const StmtIR& prev = *std::find_if(ki.stmts.begin(), ki.stmts.end(), [&](const StmtIR& s) { return s.stmt == pd.stmt; });
        if (!sameThread(prev, ki.stmts[m], pd.tensor)) conflict = true;
      }
      // A block reduction under a guard holds barriers inside a branch that only some
      // blocks take. That is legal (the guard is uniform over the block), but PoCL
      // miscompiles the code after such a branch unless a barrier closes it (bicg at
      // N > M summed garbage); one barrier per block is cheap on every device.
      auto guardedBarriers = [](const StmtIR& s) {
        return s.mode == StmtMode::BlockReduce &&
               std::any_of(s.pieces.begin(), s.pieces.end(), [](const PieceIR& p) { return !p.guard.empty(); });
      };
      if (m > 0 && guardedBarriers(ki.stmts[m - 1])) conflict = true;
      if (conflict) {
        ki.stmts[m - 1].barrierAfter = true;
        ++ki.barriers;
        pending.clear();
      }
      pending.push_back({st.id, st.write.tensor, true});
      for (auto& r : st.reads) pending.push_back({st.id, r.tensor, false});
    }
    out.push_back(std::move(ki));
  }
  return out;
}

}  // namespace polyfuse
