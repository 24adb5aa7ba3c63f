#include "fusion/PlanInput.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <regex>

#include "polyir/Diagnostic.h"

namespace polyfuse {

namespace {

using json = nlohmann::json;

// Errors name the file and where in it: "plan.json: kernels[1].tile: ...".
struct Reader {
  const std::string& path;
  [[noreturn]] void fail(const std::string& where, const std::string& msg) const {
    throw UsageError(path + ": " + (where.empty() ? "" : where + ": ") + msg);
  }
  const json& at(const json& j, const char* key, const std::string& where) const {
    if (!j.is_object() || !j.contains(key)) fail(where, std::string("missing '") + key + "'");
    return j.at(key);
  }
  std::string str(const json& j, const std::string& where) const {
    if (!j.is_string()) fail(where, "expected a string");
    return j.get<std::string>();
  }
  int64_t integer(const json& j, const std::string& where) const {
    if (!j.is_number_integer()) fail(where, "expected an integer");
    return j.get<int64_t>();
  }
  const json& array(const json& j, const std::string& where) const {
    if (!j.is_array()) fail(where, "expected an array");
    return j;
  }
};

// A statement's id from its label (S3), as the plan names statements.
int statementId(const Reader& r, const Program& prog, const json& j, const std::string& where) {
  const std::string label = r.str(j, where);
  for (const Statement& st : prog.statements)
    if (st.label() == label) return st.id;
  r.fail(where, "no statement '" + label + "' in program '" + prog.name + "' (S0..S" +
                    std::to_string(prog.statements.size() - 1) + ")");
}

// The index of dimension `name` of statement st.
int dimIndex(const Reader& r, const Statement& st, const json& j, const std::string& where) {
  const std::string name = r.str(j, where);
  for (size_t d = 0; d < st.dims.size(); ++d)
    if (st.dims[d] == name) return int(d);
  std::string dims;
  for (auto& d : st.dims) dims += (dims.empty() ? "" : ", ") + d;
  r.fail(where, st.label() + " has no dimension '" + name + "' (" + dims + ")");
}

}  // namespace

PlanHeader readPlanHeader(const Program& prog, const json& plan, const std::string& path) {
  const Reader r{path};
  if (!plan.is_object()) r.fail("", "expected a JSON object, as fuse --json writes");
  PlanHeader h;
  if (const std::string name = r.str(r.at(plan, "program", ""), "program"); name != prog.name)
    r.fail("program", "the plan is for program '" + name + "', not '" + prog.name + "'");
  if (auto s = parseIn(kStrategyNames, r.str(r.at(plan, "strategy", ""), "strategy"))) h.strategy = *s;
  else r.fail("strategy", "unknown strategy (" + namesIn(kStrategyNames) + ")");
  if (plan.contains("numerics")) {
    auto n = parseIn(kNumericsNames, r.str(plan["numerics"], "numerics"));
    if (!n) r.fail("numerics", std::string("expected ") + namesIn(kNumericsNames, " or "));
    h.numerics = *n;
  }
  h.device = r.str(r.at(plan, "device", ""), "device");
  const json& sizes = r.at(plan, "sizes", "");
  if (!sizes.is_object()) r.fail("sizes", "expected an object of sizes");
  for (auto& [name, v] : sizes.items()) h.sizes[name] = r.integer(v, "sizes." + name);
  prog.checkSizes(h.sizes);
  bool sawStages = false;
  for (const json& k : r.array(r.at(plan, "kernels", ""), "kernels")) {
    if (k.is_object() && k.contains("streams") && k["streams"].is_array() && !k["streams"].empty()) h.streams = true;
    // The model gives each tile the most stages it allows that fit (every tile fits two):
    // the plan's most is the limit it was made with.
    if (k.is_object() && k.contains("contraction_tiles") && k["contraction_tiles"].is_array())
      for (const json& c : k["contraction_tiles"]) {
        // A tile on the FMA units of 8 x 8 a thread: the plan was made with them allowed.
        if (c.is_object() && c.value("engine", json()) == json("fma") && c.value("micro_tile", json()) == json(CostModel::kWideMicroTile))
          h.wideFmaTiles = true;
        if (c.is_object() && c.contains("stages") && c["stages"].is_number_integer()) {
          if (!sawStages) h.maxStages = 1;
          sawStages = true;
          h.maxStages = std::max(h.maxStages, std::clamp(c["stages"].get<int>(), 1, CostModel::kMaxContractionStages));
        }
      }
  }
  return h;
}

Partition readPlan(const CostModel& cm, const json& plan, const PlanHeader& header, const std::string& path) {
  const Reader r{path};
  const FusionGraph& fg = cm.graph();
  const Program& prog = fg.program();
  const int n = fg.size();
  Partition skeleton;
  skeleton.strategy = header.strategy;
  skeleton.numerics = cm.numerics();
  std::vector<StmtSet> groups, kept;
  std::vector<int> home(size_t(n), -1);  // the kernel that computes each statement for the others
  std::vector<bool> copied(size_t(n), false);  // some kernel recomputes it (it may have no home then)
  std::vector<bool> labelled(size_t(n), false);  // as a copy label, S2_k1 (codegen's plan.json)
  const json& kernels = plan["kernels"];
  for (size_t i = 0; i < kernels.size(); ++i) {
    const std::string where = "kernels[" + std::to_string(i) + "]";
    const json& kj = kernels[i];
    KernelPlan k;
    k.id = int(i);
    // `codegen` writes its plan over the program with every copy explicit: a copy of S2
    // in kernel 1 is a statement "S2_k1" there, which reads back as S2 recomputed here.
    std::vector<std::pair<int, std::string>> copies;
    static const std::regex copyLabel("(S[0-9]+)_k[0-9]+");
    for (size_t m = 0; m < r.array(r.at(kj, "statements", where), where + ".statements").size(); ++m) {
      const std::string w = where + ".statements[" + std::to_string(m) + "]";
      std::smatch cm;
      const json& label = kj["statements"][m];
      if (label.is_string() && std::regex_match(label.get_ref<const std::string&>(), cm, copyLabel)) {
        const int s = statementId(r, prog, json(cm[1].str()), w);
        k.statements.push_back(s);
        copies.push_back({s, w});
        labelled[size_t(s)] = true;
        continue;
      }
      k.statements.push_back(statementId(r, prog, label, w));
    }
    if (k.statements.empty()) r.fail(where + ".statements", "a kernel runs at least one statement");
    if (!std::is_sorted(k.statements.begin(), k.statements.end()) ||
        std::adjacent_find(k.statements.begin(), k.statements.end()) != k.statements.end())
      r.fail(where + ".statements", "statements are listed once each, in program order");
    StmtSet group = StmtSet::of(n, k.statements), recomputed(n);
    if (kj.contains("recomputed"))
      for (size_t m = 0; m < r.array(kj["recomputed"], where + ".recomputed").size(); ++m)
        copies.push_back({statementId(r, prog, kj["recomputed"][m], where + ".recomputed[" + std::to_string(m) + "]"),
                          where + ".recomputed[" + std::to_string(m) + "]"});
    for (const auto& [s, w] : copies) {
      if (!group.contains(s)) r.fail(w, prog.statements[s].label() + " is not a statement of this kernel");
      if (!fg.recomputable(s))
        r.fail(w, prog.statements[s].label() + " cannot be recomputed (not an elementwise statement that alone writes a temporary)");
      recomputed.insert(s);
      k.recomputed.push_back(s);
      copied[size_t(s)] = true;
    }
    for (int s : k.statements) {
      if (recomputed.contains(s)) continue;
      if (home[s] >= 0)
        r.fail(where, prog.statements[s].label() + " is computed by kernels[" + std::to_string(home[s]) +
                          "] already (a second kernel may only recompute it)");
      home[s] = int(i);
    }
    if (!fg.isConnected(group)) r.fail(where, "its statements are not connected by dependences or shared inputs");
    if (!fg.isConvex(group, recomputed))
      r.fail(where, "not convex: a path of dependences leaves the kernel and comes back");
    // Each member's grid dimensions and thread dimension.
    const json& gd = r.array(r.at(kj, "grid_dims", where), where + ".grid_dims");
    const json& td = r.array(r.at(kj, "thread_dims", where), where + ".thread_dims");
    if (gd.size() != k.statements.size() || td.size() != k.statements.size())
      r.fail(where, "grid_dims and thread_dims need one entry per statement");
    GridCandidate c;
    for (size_t m = 0; m < k.statements.size(); ++m) {
      const Statement& st = prog.statements[size_t(k.statements[m])];
      const std::string w = where + ".grid_dims[" + std::to_string(m) + "]";
      std::vector<int> dims;
      for (size_t t = 0; t < r.array(gd[m], w).size(); ++t) dims.push_back(dimIndex(r, st, gd[m][t], w + "[" + std::to_string(t) + "]"));
      if (!c.dims.empty() && dims.size() != c.dims.front().size())
        r.fail(w, "every statement of a kernel has as many grid dimensions as the grid");
      c.dims.push_back(dims);
      const std::string wt = where + ".thread_dims[" + std::to_string(m) + "]";
      k.threadDims.push_back(td[m].is_null() ? -1 : dimIndex(r, st, td[m], wt));
    }
    // A tile's points are counted in 32-bit arithmetic on the device; bounded here, before
    // pricing, whose block counts would overflow on a tile near 2^63 (the check against
    // the grid's extents needs the priced kernel).
    int64_t tilePoints = 1;
    for (size_t t = 0; t < r.array(r.at(kj, "tile", where), where + ".tile").size(); ++t) {
      const std::string wt = where + ".tile[" + std::to_string(t) + "]";
      const int64_t v = r.integer(kj["tile"][t], wt);
      if (v < 1) r.fail(wt, "a tile is at least 1");
      if (v > INT32_MAX / tilePoints) r.fail(wt, "the tiles multiply to more than 2^31 - 1 points");
      tilePoints *= v;
      c.tile.push_back(v);
    }
    if (c.tile.size() != (c.dims.empty() ? 0 : c.dims.front().size()))
      r.fail(where + ".tile", "one tile size per grid dimension");
    c.chunks = kj.contains("split_chunks") ? r.integer(kj["split_chunks"], where + ".split_chunks") : 1;
    if (c.chunks < 1) r.fail(where + ".split_chunks", "at least 1");
    // Of the row mappings, only a column tile and a streamed tile are decisions of their
    // own: the others follow from the thread dimensions (a plan without the entry has none).
    RowMapping mapping = RowMapping::Threads;
    if (kj.contains("row_mapping")) {
      const auto m = parseIn(kRowMappingNames, r.str(kj["row_mapping"], where + ".row_mapping"));
      if (!m) r.fail(where + ".row_mapping", std::string("expected ") + namesIn(kRowMappingNames, " or "));
      if (*m == RowMapping::ColumnTile || *m == RowMapping::StreamedTile) mapping = *m;
    }
    // The assignment must be one the dependences keep, and a split one of the chunk
    // counts the model tries on it (CostModel::kMinSplitChunk points a chunk at least).
    // A streamed tile splits its maximum's reduction by chunk counts of its own
    // (CostModel::streamedTile checks them).
    bool assignment = false, split = c.chunks == 1 || mapping == RowMapping::StreamedTile;
    std::string chunkCounts;
    for (const GridCandidate& g : cm.gridCandidates(group, false, recomputed)) {
      if (g.dims != c.dims) continue;
      assignment = true;
      if (g.chunks == c.chunks) split = true;
      if (g.chunks > 1 && chunkCounts.find(" " + std::to_string(g.chunks) + ",") == std::string::npos)
        chunkCounts += " " + std::to_string(g.chunks) + ",";
    }
    if (!assignment)
      r.fail(where + ".grid_dims", "this grid assignment breaks a dependence inside the kernel (or is no grid of its statements)");
    if (!split)
      r.fail(where + ".split_chunks", chunkCounts.empty() ? "no split reduction on this grid assignment"
                                                          : "the splits tried here have" + chunkCounts.substr(0, chunkCounts.size() - 1) + " chunks");
    const bool streams = kj.contains("streams") && kj["streams"].is_array() && !kj["streams"].empty();
    const bool columns = mapping == RowMapping::ColumnTile;
    if (mapping == RowMapping::StreamedTile && !streams)
      r.fail(where + ".streams", "a streamed tile streams its sums: the plan names none");
    const std::optional<KernelPlan> planned =
        cm.evaluate(k.statements, c, &k.threadDims, k.recomputed, streams, mapping);
    if (!planned)
      r.fail(where, "no plan with these decisions: the thread dimensions split a reduction its threads do not share, or "
                    "the streams, split or column tile are not possible here" +
                        std::string(cm.strict() ? " (numerics strict: every reduction serial, no split, no stream)" : ""));
    if (streams && planned->streams.empty())
      r.fail(where + ".streams", std::string("no sum streams beside its maximum in this kernel") +
                                     (cm.strict() ? " (numerics strict: no stream)" : ""));
    for (size_t t = 0; t < c.tile.size(); ++t)
      if (t < planned->gridExtent.size() && c.tile[t] > planned->gridExtent[t])
        r.fail(where + ".tile[" + std::to_string(t) + "]", "tile " + std::to_string(c.tile[t]) +
                                                               " is larger than the grid's extent " +
                                                               std::to_string(planned->gridExtent[t]) + " there");
    k.gridDims = c.dims;
    k.tile = c.tile;
    k.splitChunks = c.chunks;
    if (streams) k.streams.push_back({});  // replan streams where the kernel did
    if (columns || mapping == RowMapping::StreamedTile) k.rowMapping = mapping;  // and the tile it ran
    skeleton.kernels.push_back(std::move(k));
    groups.push_back(group);
    kept.push_back(recomputed);
  }
  // A stored value some kernel reads from memory, as the search's plans store only those
  // (generated code stores exactly what other kernels read).
  for (int s = 0; s < n; ++s) {
    const int h = home[size_t(s)];
    if (h < 0 || !copied[size_t(s)] || !fg.storesValue(groups[size_t(h)], kept[size_t(h)], s)) continue;
    bool read = false;
    for (int t : fg.flowConsumers(s))
      for (size_t g = 0; g < groups.size() && !read; ++g)
        read = groups[g].contains(t) && !groups[g].contains(s);
    // Codegen's explicit form names the first holder's copy by the original's label:
    // stored for no one, it is that kernel's copy too.
    if (!read && labelled[size_t(s)]) {
      kept[size_t(h)].insert(s);
      std::vector<int>& rc = skeleton.kernels[size_t(h)].recomputed;
      rc.insert(std::upper_bound(rc.begin(), rc.end(), s), s);
      continue;
    }
    if (!read)
      r.fail("kernels[" + std::to_string(h) + "]", prog.statements[s].label() +
                                                      " is stored for no kernel: each that uses it recomputes it; list it "
                                                      "under recomputed here too");
  }
  std::vector<int> holders(size_t(n), 0);
  for (const StmtSet& g : groups)
    for (int s : g.members()) ++holders[size_t(s)];
  for (int s = 0; s < n; ++s) {
    if (home[s] < 0 && !copied[size_t(s)]) r.fail("kernels", prog.statements[s].label() + " is computed by no kernel");
    if (copied[size_t(s)] && holders[size_t(s)] < 2)
      r.fail("kernels", prog.statements[s].label() + " is recomputed, but by one kernel alone: list it as that kernel's own");
  }
  // Kernels run in the plan's order: none may use what a later one leaves in memory.
  std::vector<std::set<int>> succ;
  try {
    succ = fg.kernelSuccessors(groups, kept);
  } catch (const InternalError& e) {  // a value some kernel reads that no kernel stores
    r.fail("kernels", e.what());
  }
  for (size_t a = 0; a < succ.size(); ++a)
    for (int b : succ[a])
      if (b < int(a))
        r.fail("kernels", "kernels[" + std::to_string(b) + "] runs before kernels[" + std::to_string(a) +
                              "], whose results it reads");
  std::vector<std::string> clamps;
  Partition p = cm.replan(skeleton, clamps);
  if (!clamps.empty()) r.fail("kernels", clamps.front());
  // What the search said, kept as the plan states it, so that a plan read back is the
  // plan written.
  if (plan.contains("solver") && plan["solver"].is_object()) {
    const json& s = plan["solver"];
    if (s.contains("name") && s["name"].is_string()) p.solver.name = s["name"];
    if (s.contains("status") && s["status"].is_string())
      if (auto st = parseIn(kSolverStatusNames, s["status"].get<std::string>())) p.solver.status = *st;
    if (s.contains("seconds") && s["seconds"].is_number()) p.solver.seconds = s["seconds"];
    if (s.contains("note") && s["note"].is_string()) p.solver.note = s["note"];
    if (s.contains("priced_groups") && s["priced_groups"].is_number_unsigned()) p.solver.pricedGroups = s["priced_groups"];
    if (s.contains("shared_groups") && s["shared_groups"].is_number_unsigned()) p.solver.sharedGroups = s["shared_groups"];
    if (s.contains("best_bound_us") && s["best_bound_us"].is_number() && s.contains("gap") && s["gap"].is_number()) {
      p.solver.hasBound = true;
      p.solver.bestBoundUs = s["best_bound_us"];
      p.solver.gap = s["gap"];
    }
  }
  return p;
}

}  // namespace polyfuse
