#include "fusion/Recompute.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "polyir/Diagnostic.h"

namespace polyfuse {

std::unique_ptr<RecomputedProgram> makeCopiesExplicit(const CostModel& cm, const Partition& p) {
  const Program& prog = cm.graph().program();
  const int n = int(prog.statements.size());
  // Per statement, the kernels that compute it; the one that stores it keeps the
  // original (the first, when every copy keeps its value to itself).
  std::vector<std::vector<int>> holders(n);
  for (size_t k = 0; k < p.kernels.size(); ++k)
    for (int s : p.kernels[k].statements) holders[s].push_back(int(k));
  bool any = false;
  std::vector<int> original(n, -1);
  for (int s = 0; s < n; ++s) {
    if (holders[s].empty()) throw InternalError("the plan leaves S" + std::to_string(s) + " out");
    any |= holders[s].size() > 1;
    original[s] = holders[s].front();
    for (int k : holders[s]) {
      const auto& r = p.kernels[k].recomputed;
      if (std::find(r.begin(), r.end(), s) == r.end()) original[s] = k;
    }
  }
  if (!any) return nullptr;

  auto out = std::make_unique<RecomputedProgram>();
  out->program = std::make_unique<Program>();
  Program& np = *out->program;
  np.name = prog.name;
  np.sizeParams = prog.sizeParams;
  np.scalars = prog.scalars;
  np.tensors = prog.tensors;
  auto freshName = [&](const std::string& base) {
    for (int i = 0;; ++i) {
      std::string name = base + "_rc" + (i ? std::to_string(i) : "");
      if (np.findTensor(name) < 0) return name;
    }
  };
  // Where each kernel reads tensor t from: the tensor its own copy writes, if any.
  std::vector<std::map<int, int>> redirect(p.kernels.size());
  // (statement, kernel) -> new statement id; every copy right after its original, so it
  // reads what the original reads and precedes every reader.
  std::vector<std::vector<std::pair<int, int>>> newIds(n);  // (kernel, id)
  for (int s = 0; s < n; ++s) {
    std::vector<int> order = {original[s]};
    for (int k : holders[s])
      if (k != original[s]) order.push_back(k);
    for (int k : order) {
      Statement st = cloneStatement(prog.statements[s]);
      st.id = int(np.statements.size());
      st.name = "S" + std::to_string(s);
      if (k != original[s]) {
        Tensor t = prog.tensors[st.write.tensor];
        t.name = freshName(t.name);
        t.role = TensorRole::Temporary;
        np.tensors.push_back(t);
        const int nt = int(np.tensors.size()) - 1;
        redirect[k][st.write.tensor] = nt;
        st.write.tensor = nt;
        st.tensorName = t.name;
        st.name += "_k" + std::to_string(p.kernels[k].id);
      }
      newIds[s].push_back({k, st.id});
      np.statements.push_back(std::move(st));
    }
  }
  // Each kernel's members read their kernel's copies.
  for (int s = 0; s < n; ++s)
    for (auto [k, id] : newIds[s])
      for (auto& r : np.statements[id].reads)
        if (auto it = redirect[k].find(r.tensor); it != redirect[k].end()) r.tensor = it->second;

  out->poly = std::make_unique<PolyProgram>(np, cm.graph().poly().context());
  out->graph = std::make_unique<FusionGraph>(*out->poly);
  out->cm = std::make_unique<CostModel>(*out->graph, cm.sizes(), cm.device());
  out->cm->setStreams(cm.streams());
  out->cm->setNumerics(cm.numerics());
  // The same kernels over the new statements, costed with the plan's own grids, tiles,
  // thread mappings and splits; they must run in the plan's order and cost the same.
  std::vector<StmtSet> groups(p.kernels.size(), StmtSet(int(np.statements.size())));
  Partition mapped = p;
  for (auto& k : mapped.kernels) {
    k.statements.clear();
    k.recomputed.clear();
  }
  for (int s = 0; s < n; ++s)
    for (auto [k, id] : newIds[s]) {
      groups[k].insert(id);
      mapped.kernels[k].statements.push_back(id);
    }
  std::vector<std::set<int>> succ = out->graph->kernelSuccessors(groups);
  for (size_t a = 0; a < groups.size(); ++a)
    for (int b : succ[a])
      if (b <= int(a)) throw InternalError("with its copies made explicit, K" + std::to_string(b) + " must run after K" + std::to_string(a));
  std::vector<std::string> clamps;
  Partition planned = out->cm->replan(mapped, clamps);
  if (!clamps.empty()) throw InternalError("making recomputation explicit clamped the plan: " + clamps.front());
  for (size_t k = 0; k < p.kernels.size(); ++k) {
    const KernelPlan& a = p.kernels[k];
    const KernelPlan& b = planned.kernels[k];
    if (std::abs(a.modeledUs - b.modeledUs) > 1e-9 * std::max(1.0, a.modeledUs) || a.dramBytes != b.dramBytes)
      throw InternalError("K" + std::to_string(k) + " costs " + std::to_string(b.modeledUs) + " us (" +
                          std::to_string(b.dramBytes) + " DRAM, " + std::to_string(b.l2Bytes) + " L2 bytes) with its copies made explicit, " +
                          std::to_string(a.modeledUs) + " us (" + std::to_string(a.dramBytes) + ", " + std::to_string(a.l2Bytes) + ") as planned");
  }
  planned.strategy = p.strategy;
  planned.solver = p.solver;
  planned.alternatives = p.alternatives;
  out->plan = std::move(planned);
  return out;
}

}  // namespace polyfuse
