#include "fusion/PlanOutput.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "polyir/Printer.h"

namespace polyfuse {

std::string gridText(const Program& prog, const KernelPlan& k) {
  if (k.gridRank() == 0) return "[]";
  const Statement& st = prog.statements[k.statements.front()];
  std::string s = "[";
  for (int t = 0; t < k.gridRank(); ++t) s += (t ? ", " : "") + st.dims[k.gridDims.front()[t]];
  return s + "]";
}

std::string tileText(const KernelPlan& k) {
  std::string s;
  for (size_t t = 0; t < k.tile.size(); ++t) s += (t ? "x" : "") + std::to_string(k.tile[t]);
  return s.empty() ? "-" : s;
}

static nlohmann::ordered_json tensorNames(const Program& prog, const std::vector<int>& ts) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (int t : ts) a.push_back(prog.tensors[t].name);
  return a;
}

nlohmann::ordered_json partitionJson(const CostModel& cm, const Partition& p) {
  const Program& prog = cm.graph().program();
  nlohmann::ordered_json j;
  j["program"] = prog.name;
  j["strategy"] = strategyName(p.strategy);
  j["numerics"] = numericsName(p.numerics);
  j["device"] = cm.device().name;
  j["sizes"] = nlohmann::ordered_json::object();
  for (auto& n : prog.sizeParams) j["sizes"][n] = cm.sizes().at(n);
  j["statements"] = nlohmann::ordered_json::array();
  for (auto& st : prog.statements)
    j["statements"].push_back({{"id", st.label()}, {"tensor", st.tensorName}, {"line", st.loc.line},
                               {"text", statementText(prog, st)}});
  j["kernels"] = nlohmann::ordered_json::array();
  for (auto& k : p.kernels) {
    nlohmann::ordered_json kj;
    kj["id"] = "K" + std::to_string(k.id);
    kj["statements"] = nlohmann::ordered_json::array();
    for (int s : k.statements) kj["statements"].push_back(prog.statements[s].label());
    kj["recomputed"] = nlohmann::ordered_json::array();
    for (int s : k.recomputed) kj["recomputed"].push_back(prog.statements[s].label());
    kj["grid"] = gridText(prog, k);
    // The decisions `codegen --plan` reads back (fusion/PlanInput.h): each member's
    // dimensions on the grid coordinates and the dimension its threads run along.
    kj["grid_dims"] = nlohmann::ordered_json::array();
    kj["thread_dims"] = nlohmann::ordered_json::array();
    for (size_t m = 0; m < k.statements.size(); ++m) {
      const Statement& st = prog.statements[size_t(k.statements[m])];
      nlohmann::ordered_json dims = nlohmann::ordered_json::array();
      for (int d : k.gridDims[m]) dims.push_back(st.dims[size_t(d)]);
      kj["grid_dims"].push_back(dims);
      const int x = m < k.threadDims.size() ? k.threadDims[m] : -1;
      kj["thread_dims"].push_back(x < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(st.dims[size_t(x)]));
    }
    kj["grid_extent"] = k.gridExtent;
    kj["tile"] = k.tile;
    kj["split_chunks"] = k.splitChunks;
    kj["blocks"] = k.blocks;
    kj["threads_per_block"] = k.threadsPerBlock;
    kj["row_mapping"] = rowMappingName(k.rowMapping);
    if (k.columnTile()) {
      kj["group_columns"] = k.groupColumns;
      kj["column_lanes"] = k.columnLanes;
    }
    if (k.streamedTile()) {
      const StreamTile& st = k.streamTile;
      nlohmann::ordered_json roles = nlohmann::ordered_json::object();
      for (size_t m = 0; m < st.roles.size(); ++m)
        roles[prog.statements[size_t(k.statements[m])].label()] = streamRoleName(st.roles[m]);
      kj["stream_tile"] = {{"rows", st.rows(k.tile)}, {"rows_a_thread", st.rowsAThread},
                           {"threads_a_row", st.rowThreads}, {"step", st.step}, {"lanes", st.lanes},
                           {"tiled", tensorNames(prog, st.tiled)}, {"staged", st.staged.size()},
                           {"staged_vectors", std::count_if(st.staged.begin(), st.staged.end(), [](const StagedRead& r) { return r.width > 1; })},
                           {"roles", roles}};
      if (st.mmaScores())
        kj["stream_tile"]["score_engine"] = {
            {"statement", prog.statements[size_t(k.statements[size_t(st.mmaScore)])].label()},
            {"engine", contractionEngineName(st.scoreEngine)}};
      if (st.mmaSums())
        kj["stream_tile"]["sum_engine"] = {
            {"statement", prog.statements[size_t(k.statements[size_t(st.mmaSum)])].label()},
            {"engine", contractionEngineName(st.sumEngine)}};
    }
    kj["streams"] = nlohmann::ordered_json::array();
    for (const StreamPair& sp : k.streams)
      kj["streams"].push_back({{"sum", prog.statements[size_t(k.statements[size_t(sp.sum)])].label()},
                               {"max", prog.statements[size_t(k.statements[size_t(sp.max)])].label()}});
    kj["contraction_tiles"] = nlohmann::ordered_json::array();
    for (const ContractionTile& c : k.contractions) {
      const Statement& st = prog.statements[size_t(k.statements[size_t(c.member)])];
      std::vector<int> staged;
      for (auto& r : st.reads) staged.push_back(r.tensor);
      std::vector<std::string> epilogue;
      for (int e : c.epilogue) epilogue.push_back(prog.statements[size_t(k.statements[size_t(e)])].label());
      kj["contraction_tiles"].push_back({{"statement", st.label()}, {"engine", contractionEngineName(c.engine)},
                                         {"micro_tile", c.micro}, {"k_step", c.kStep}, {"stages", c.stages},
                                         {"tile", {c.tileP, c.tileQ}}, {"staged", tensorNames(prog, staged)},
                                         {"epilogue", epilogue}});
      // Per staged read, the dimension its slice's lines run across (each line one point of
      // it): "p" or "q" where lines run along r, else "r".
      std::vector<std::string> lines;
      for (size_t r = 0; r < c.alongP.size(); ++r) lines.push_back(c.alongR(r) ? (c.alongP[r] ? "p" : "q") : "r");
      kj["contraction_tiles"].back()["slice_lines"] = lines;
      if (c.tensorCores()) kj["contraction_tiles"].back()["warp_tile"] = {c.warpP(), c.warpQ()};
      if (k.splitsK()) kj["contraction_tiles"].back()["k_chunk"] = k.splitChunk;  // split-K: the points a block reduces
    }
    kj["dram_bytes"] = k.dramBytes;
    kj["l2_bytes"] = k.l2Bytes;
    kj["uncoalesced_bytes"] = k.uncoalescedBytes;
    kj["onchip_bytes_per_block"] = k.onchipBytesPerBlock;
    kj["flops"] = k.flops;
    kj["onchip_load_bytes"] = k.onchipLoadBytes;
    kj["occupancy"] = k.occupancy;
    kj["blocks_per_sm"] = k.blocksPerSM;
    kj["registers_per_thread"] = k.registersPerThread;
    kj["grid_fill"] = k.gridFill;
    kj["bytes_in_flight_per_block"] = k.bytesInFlightPerBlock;
    kj["latency_share"] = k.latencyShare;
    // Passes over each tensor the kernel reads from global memory, as the cost model
    // priced them (a fused softmax reads X twice).
    kj["input_passes"] = nlohmann::ordered_json::object();
    for (size_t g = 0; g < k.globalReads.size() && g < k.inputPasses.size(); ++g)
      kj["input_passes"][prog.tensors[k.globalReads[g]].name] = k.inputPasses[g];
    kj["modes"] = nlohmann::ordered_json::array();
    for (StmtMode m : k.modes) kj["modes"].push_back(stmtModeName(m));
    kj["vector_width"] = k.vectorWidth;
    // Where the block's threads wait (fusion/Barriers.h): after these members, and at each
    // of the combines across threads a block runs; codegen emits these and no others.
    kj["barrier_after"] = nlohmann::ordered_json::array();
    for (size_t m = 0; m < k.barrierAfter.size(); ++m)
      if (k.barrierAfter[m]) kj["barrier_after"].push_back(prog.statements[size_t(k.statements[m])].label());
    kj["reductions_per_block"] = k.reductionsPerBlock;
    std::vector<int> onChip;
    for (auto& a : k.onChip) onChip.push_back(a.tensor);
    kj["on_chip"] = tensorNames(prog, onChip);
    kj["scratch"] = tensorNames(prog, k.scratch);
    std::vector<int> cached;
    for (auto& a : k.cachedInputs) cached.push_back(a.tensor);
    kj["cached_inputs"] = tensorNames(prog, cached);
    // Of those, the ones each thread holds in registers, and its steps along a row there.
    std::vector<int> registers;
    for (auto* list : {&k.onChip, &k.cachedInputs})
      for (auto& a : *list)
        if (a.inRegisters()) registers.push_back(a.tensor);
    std::sort(registers.begin(), registers.end());
    kj["in_registers"] = tensorNames(prog, registers);
    kj["register_steps"] = k.registerSteps;
    kj["modeled_us"] = k.modeledUs;
    j["kernels"].push_back(kj);
  }
  // What the device runs, in order: a split reduction's combine is its own launch.
  j["launches"] = nlohmann::ordered_json::array();
  for (const Launch& l : p.launches)
    j["launches"].push_back({{"kernel", "K" + std::to_string(l.kernel)},
                             {"kind", l.kind == LaunchKind::Kernel ? "kernel" : "combine"},
                             {"blocks", l.blocks}, {"threads", l.threads}, {"shared_bytes", l.sharedBytes}});
  j["dependences"] = nlohmann::ordered_json::array();
  std::set<std::tuple<int, int, int>> seen;
  for (auto& d : cm.graph().poly().dependences())
    if (d.src != d.dst && seen.insert({d.src, d.dst, d.tensor}).second)
      j["dependences"].push_back({{"src", "S" + std::to_string(d.src)}, {"dst", "S" + std::to_string(d.dst)},
                                  {"tensor", prog.tensors[d.tensor].name}, {"kind", depKindName(d.kind)}});
  j["num_kernels"] = p.kernels.size();
  j["dram_bytes"] = p.dramBytes;
  j["l2_bytes"] = p.l2Bytes;
  j["lower_bound_bytes"] = cm.lowerBoundBytes();
  j["flops"] = p.flops;
  j["modeled_us"] = p.modeledUs;
  if (!p.alternatives.empty()) {
    auto& alts = j["alternatives"] = nlohmann::ordered_json::array();
    for (auto& a : p.alternatives) {
      nlohmann::ordered_json ks = nlohmann::ordered_json::array();
      for (size_t i = 0; i < a.kernels.size(); ++i) {
        nlohmann::ordered_json sts = nlohmann::ordered_json::array();
        for (int s : a.kernels[i]) sts.push_back(memberLabel(prog.statements[s].label(), a.recomputed[i], s));
        ks.push_back(sts);
      }
      alts.push_back({{"kernels", ks}, {"modeled_us", a.modeledUs}});
    }
  }
  j["solver"] = {{"name", p.solver.name}, {"status", solverStatusName(p.solver.status)}, {"seconds", p.solver.seconds},
                 {"note", p.solver.note}, {"priced_groups", p.solver.pricedGroups},
                 {"shared_groups", p.solver.sharedGroups}};
  if (p.solver.hasBound) {
    j["solver"]["best_bound_us"] = p.solver.bestBoundUs;
    j["solver"]["gap"] = p.solver.gap;
  }
  return j;
}

nlohmann::ordered_json decisionsJson(const Program& prog, const std::vector<Decision>& ds) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (auto& d : ds) {
    nlohmann::ordered_json j;
    j["kind"] = pairKindName(d.kind);
    j["a"] = "S" + std::to_string(d.a);
    j["b"] = "S" + std::to_string(d.b);
    j["tensors"] = d.tensors;
    j["fused"] = d.fused;
    j["verdict"] = verdictName(d.verdict);
    j["reason"] = d.reason;
    if (d.fusedUs >= 0) j["fused_us"] = d.fusedUs;
    j["chosen_us"] = d.chosenUs;
    if (d.hasTerms) {
      j["deciding_term"] = costTermName(d.deciding);
      nlohmann::ordered_json deltas;
      for (int t = 0; t < kCostTerms; ++t) deltas[costTermName(CostTerm(t))] = d.termDeltas.us[t];
      j["term_deltas_us"] = deltas;
    }
    a.push_back(j);
  }
  return a;
}

void printPartitionTable(std::ostream& os, const CostModel& cm, const Partition& p, bool timing) {
  const Program& prog = cm.graph().program();
  std::string sizes;
  for (auto& n : prog.sizeParams) sizes += (sizes.empty() ? "" : ",") + n + "=" + std::to_string(cm.sizes().at(n));
  os << fmt::format("program {}  strategy {}  device {}  sizes {}{}\n", prog.name, strategyName(p.strategy), cm.device().name, sizes,
                    p.numerics == Numerics::Default ? "" : std::string("  numerics ") + numericsName(p.numerics));
  // Columns as wide as their longest entry, so long statement lists stay aligned.
  std::vector<std::string> stmts, grids, tiles;
  size_t ws = 10, wg = 4, wt = 4;
  for (auto& k : p.kernels) {
    std::string st;
    // A recomputed statement is marked: this kernel computes it for itself, unstored.
    for (int s : k.statements) st += (st.empty() ? "" : " ") + memberLabel(prog.statements[s].label(), k.recomputed, s);
    stmts.push_back(st);
    grids.push_back(gridText(prog, k));
    tiles.push_back(tileText(k));
    ws = std::max(ws, st.size());
    wg = std::max(wg, grids.back().size());
    wt = std::max(wt, tiles.back().size());
  }
  os << fmt::format("{:<6} {:<{}} {:<{}} {:>{}} {:>9} {:>8} {:>14} {:>14} {:>12} {:>14} {:>11}\n", "kernel", "statements",
                    ws, "grid", wg, "tile", wt, "blocks", "threads", "dram_bytes", "l2_bytes", "onchip/blk", "flops",
                    "modeled_us");
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const KernelPlan& k = p.kernels[i];
    os << fmt::format("{:<6} {:<{}} {:<{}} {:>{}} {:>9} {:>8} {:>14} {:>14} {:>12} {:>14} {:>11.3f}\n",
                      "K" + std::to_string(k.id), stmts[i], ws, grids[i], wg, tiles[i], wt, k.blocks, k.threadsPerBlock,
                      k.dramBytes, k.l2Bytes, k.onchipBytesPerBlock, k.flops, k.modeledUs);
    if (k.splitChunks > 1)
      os << fmt::format("       split reduction: {} chunks of {} along {}, combined by a second launch\n", k.splitChunks,
                        k.splitChunk, prog.statements[k.statements[k.splitMember()]].dims.back());
    if (k.columnTile()) {
      std::string reducing;
      for (size_t m = 0; m < k.modes.size(); ++m)
        if (k.modes[m] == StmtMode::ColumnReduce) reducing += (reducing.empty() ? "" : " ") + prog.statements[size_t(k.statements[m])].label();
      os << fmt::format("       column tile: {} reduce down {} columns a block ({} a thread), {} groups of threads splitting each\n",
                        reducing, k.groupColumns, k.columnLanes, k.reduceGroups());
    }
    if (k.streamedTile()) {
      const StreamTile& st = k.streamTile;
      const Statement& mx = prog.statements[size_t(k.statements[size_t(
          std::find(st.roles.begin(), st.roles.end(), StreamRole::Maximum) - st.roles.begin())])];
      std::string scores;
      for (size_t m = 0; m < st.roles.size(); ++m)
        if (st.roles[m] == StreamRole::Score) scores += (scores.empty() ? "" : " ") + prog.statements[size_t(k.statements[m])].label();
      const int64_t rows = st.rows(k.tile);
      os << fmt::format("       streamed tile: {} row{} a block ({} a thread, {} threads a row), {}'s reduction in steps of {}"
                        "{}{}\n",
                        rows, rows == 1 ? "" : "s", st.rowsAThread, st.rowThreads, mx.label(), st.step,
                        scores.empty() ? "" : "; scores " + scores + " computed at each step, never written to global memory",
                        st.lanes > 0 ? "; " + std::to_string(st.lanes) + (st.lanes == 1 ? " lane" : " lanes") + " a thread" : "");
      if (st.mmaScores())
        os << fmt::format("       tensor cores: {} on mma.sync m16n8k{} ({}), {} m16n8 tiles a step, {} a warp\n",
                          prog.statements[size_t(k.statements[size_t(st.mmaScore)])].label(), mmaSteps(st.scoreEngine),
                          contractionEngineName(st.scoreEngine), st.mmaTiles(rows), st.mmaTiles(rows) / (k.threadsPerBlock / 32));
      if (st.mmaSums())
        os << fmt::format("       tensor cores: {} on mma.sync m16n8k8 ({}), {} m16n8 accumulator tiles held across the steps, {} a warp\n",
                          prog.statements[size_t(k.statements[size_t(st.mmaSum)])].label(), contractionEngineName(st.sumEngine),
                          st.mmaSumTiles(rows), st.mmaSumTiles(rows) / (k.threadsPerBlock / 32));
    }
    for (const StreamPair& sp : k.streams)
      os << fmt::format("       streamed: {} runs in {}'s loop, against its running maximum\n",
                        prog.statements[size_t(k.statements[size_t(sp.sum)])].label(),
                        prog.statements[size_t(k.statements[size_t(sp.max)])].label());
    if (!k.scratch.empty()) {
      std::string names;
      for (int t : k.scratch) names += (names.empty() ? "" : ", ") + prog.tensors[t].name;
      os << "       global scratch: " << names << "\n";
    }
  }
  int64_t lb = cm.lowerBoundBytes();
  bool anyRecomputed = false;
  for (auto& k : p.kernels) anyRecomputed |= !k.recomputed.empty();
  if (anyRecomputed) os << "(S' : recomputed in that kernel from its inputs, not stored)\n";
  os << fmt::format("total: {} kernel(s), dram_bytes {} (lower bound {}, {:.2f}x), l2_bytes {}, modeled {:.3f} us\n",
                    p.kernels.size(), p.dramBytes, lb, lb ? double(p.dramBytes) / double(lb) : 0.0, p.l2Bytes,
                    p.modeledUs);
  // maxfuse and typed solve for the fewest kernels: exact for their rule, not for time,
  // so the table never calls their plan optimal.
  if (p.strategy == Strategy::Maxfuse || p.strategy == Strategy::Typed)
    os << "solver: " << p.solver.name << ", " << (p.solver.status == SolverStatus::Optimal ? "exact" : solverStatusName(p.solver.status)) << " for "
       << strategyName(p.strategy) << "'s rule (fewest kernels, then the cheapest; not the fastest partition)";
  else
    os << "solver: " << p.solver.name << " " << solverStatusName(p.solver.status);

  if (timing) {
    os << fmt::format(" in {:.3f} s", p.solver.seconds);
    if (p.solver.pricedGroups + p.solver.sharedGroups > 0)
      os << fmt::format(" ({} groups priced, {} more priced as an earlier group of their shape)", p.solver.pricedGroups,
                        p.solver.sharedGroups);
  }
  if (!p.solver.note.empty()) os << " (" << p.solver.note << ")";
  os << "\n";
  if (p.solver.hasBound && p.solver.status != SolverStatus::Optimal)
    os << fmt::format("bound: no partition in the search space models below {:.3f} us (a proven lower bound); gap {:.2f}%\n",
                      p.solver.bestBoundUs, 100.0 * p.solver.gap);
  if (!p.alternatives.empty()) {
    os << fmt::format("the {} best partitions (modeled):\n", p.alternatives.size());
    const double best = p.alternatives.front().modeledUs;
    for (size_t i = 0; i < p.alternatives.size(); ++i) {
      const Alternative& a = p.alternatives[i];
      std::string ks;
      for (size_t k = 0; k < a.kernels.size(); ++k) {
        std::string st;
        for (int s : a.kernels[k]) st += (st.empty() ? "" : " ") + memberLabel(prog.statements[s].label(), a.recomputed[k], s);
        ks += (ks.empty() ? "" : " | ") + st;
      }
      os << fmt::format("  #{} {:>11.3f} us  {:>6.3f}x  {} kernel(s): {}\n", i + 1, a.modeledUs, best > 0 ? a.modeledUs / best : 1.0,
                        a.kernels.size(), ks);
    }
  }
}

void printDecisions(std::ostream& os, const std::vector<Decision>& ds) {
  os << "decisions:\n";
  for (auto& d : ds) {
    os << fmt::format("  {:<10} S{} -> S{} via {}: {}: {}\n", pairKindName(d.kind), d.a, d.b, d.tensors, verdictName(d.verdict), d.reason);
  }
  if (ds.empty()) os << "  (no dependence edges or sibling pairs)\n";
}

static std::string dotEscape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r;
}

void writeDot(std::ostream& os, const CostModel& cm, const Partition& p) {
  const Program& prog = cm.graph().program();
  os << "digraph \"" << dotEscape(prog.name) << "\" {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
  for (auto& k : p.kernels) {
    os << "  subgraph cluster_K" << k.id << " {\n    label=\"K" << k.id << " grid " << dotEscape(gridText(prog, k))
       << fmt::format(" | {:.2f} us", k.modeledUs) << "\";\n    style=rounded;\n";
    // A recomputed copy is a node of its own, dashed; edges go to the stored one.
    for (int s : k.statements) {
      const bool copy = std::count(k.recomputed.begin(), k.recomputed.end(), s);
      os << "    S" << s << (copy ? "_K" + std::to_string(k.id) : "") << " [label=\"S" << s << (copy ? "'" : "") << ": "
         << dotEscape(statementText(prog, prog.statements[s])) << "\"" << (copy ? ", style=dashed" : "") << "];\n";
    }
    os << "  }\n";
  }
  std::set<std::pair<int, int>> seen;
  for (auto& d : cm.graph().poly().dependences()) {
    if (d.src == d.dst || !seen.insert({d.src, d.dst}).second) continue;
    os << "  S" << d.src << " -> S" << d.dst << " [label=\"" << dotEscape(prog.tensors[d.tensor].name) << " ("
       << cm.tensorBytes(d.tensor) << " B)\"" << (d.kind == DepKind::Flow ? "" : ", style=dashed") << "];\n";
  }
  for (auto& sp : cm.graph().siblings())
    os << "  S" << sp.a << " -> S" << sp.b << " [dir=none, style=dotted, color=gray];\n";
  os << "}\n";
}

}  // namespace polyfuse
