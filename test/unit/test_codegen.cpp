#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "FusionSetup.h"
#include "Helpers.h"
#include "RandomPrograms.h"
#include "fusion/Recompute.h"
#include "codegen/Emit.h"
#include "fusion/Occupancy.h"
#include "runtime/OpenCLRunner.h"
#include "codegen/Schedule.h"
#include "fusion/Search.h"

using namespace polyfuse;
using test::Setup;


TEST_CASE("schedule: legal plans verify, illegal plans are caught naming the dependence") {
  Setup s(test::loadExample("softmax.tc"), {{"N", 33}, {"M", 129}});
  Partition good = s.run("ilp");
  CHECK_NOTHROW(verifySchedule(s.poly(), good, buildSchedule(s.poly(), s.cm->at(), good)));
  // Kernels launched in the wrong order.
  Partition reversed = s.run("nofuse");
  std::swap(reversed.kernels[0], reversed.kernels[1]);
  try {
    verifySchedule(s.poly(), reversed, buildSchedule(s.poly(), s.cm->at(), reversed));
    FAIL("no error");
  } catch (const InternalError& e) {
    CHECK(std::string(e.what()).find("flow dependence S0 (line 4) -> S1 (line 5) on 'mx' is not ordered") !=
          std::string::npos);
  }
  // atax fused on a grid that maps tmp's rows onto y's rows: blocks would race.
  Setup a(test::loadExample("atax.tc"), {{"M", 33}, {"N", 129}});
  Partition split = a.run("nofuse");
  KernelPlan fused = split.kernels[0];
  fused.statements = {0, 1};
  fused.gridDims = {{0}, {0}};
  fused.threadDims = {1, 1};
  fused.modes = {StmtMode::BlockReduce, StmtMode::BlockReduce};
  Partition bad = split;
  bad.kernels = {fused};
  try {
    verifySchedule(a.poly(), bad, buildSchedule(a.poly(), a.cm->at(), bad));
    FAIL("no error");
  } catch (const InternalError& e) {
    std::string msg = e.what();
    CHECK(msg.find("S0 (line 3) -> S1 (line 4) on 'tmp'") != std::string::npos);
    CHECK(msg.find("illegal schedule") != std::string::npos);
  }
  CHECK_THROWS_AS(generate(a.poly(), bad, Dialect::Cuda), InternalError);
}

TEST_CASE("codegen: kernels name their statements and use the program's names") {
  Setup s(test::loadExample("rmsnorm.tc"), {{"N", 33}, {"M", 129}});
  GeneratedCode code = generate(s.poly(), s.run("ilp"), Dialect::Cuda);
  CHECK(code.kernels.size() == 1);
  CHECK(code.kernelSource.find("// S0 (line 3): ms(i) +=! X(i, j) * X(i, j) / M") != std::string::npos);
  CHECK(code.kernelSource.find("rsqrtf(") != std::string::npos);
  CHECK(code.kernelSource.find("c0") == std::string::npos);
  CHECK(code.kernelSource.find("const int j = ") != std::string::npos);
}

TEST_CASE("opencl: random programs under ilp and nofuse match the reference on PoCL") {
  setenv("POCL_CACHE_DIR", (std::filesystem::temp_directory_path() / "polyfuse-pocl-unit").c_str(), 0);
  // The sanitizer build runs fewer (POLYFUSE_OPENCL_PROGRAMS, the Makefile's
  // check-sanitize): PoCL compiling kernels inside an instrumented process is most of it.
  const char* given = std::getenv("POLYFUSE_OPENCL_PROGRAMS");
  const int programs = given ? std::clamp(std::atoi(given), 8, 20) : 20;
  int verified = 0, withCopies = 0;
  // Seeds 500 to 519, from 513 (the first whose plan recomputes) round: any count of
  // them holds a plan that recomputes.
  for (int k = 0; k < programs; ++k) {
    const uint64_t seed = 500 + uint64_t((k + 13) % 20);
    std::string text = test::randomProgram(seed);
    INFO(text);
    Setup s(test::load(text), {{"N", 37}});
    Bindings in = makeInputs(*s.lp.program, {{"N", 37}}, seed);
    for (const char* strategy : {"ilp", "nofuse"}) {
      Partition p = s.run(strategy);
      // A plan that recomputes runs as the program with its copies made explicit.
      auto explicitCopies = makeCopiesExplicit(*s.cm, p);
      const CostModel& cm = explicitCopies ? *explicitCopies->cm : *s.cm;
      if (explicitCopies) p = explicitCopies->plan;
      withCopies += explicitCopies != nullptr;
      GeneratedCode code = generate(cm.graph().poly(), p, Dialect::OpenCL);
      RunResult r = runOpenCL(cm.graph().program(), p, code, in, 1, 1e-4);
      INFO(strategy << " max_rel_error " << r.maxRelError);
      CHECK(r.verified);
      verified += r.verified;
    }
  }
  CHECK(verified == 2 * programs);
  CHECK(withCopies > 0);  // plans that recompute run, copies explicit, and verify too
}

TEST_CASE("opencl: a wrong kernel is reported, not hidden") {
  setenv("POCL_CACHE_DIR", (std::filesystem::temp_directory_path() / "polyfuse-pocl-unit").c_str(), 0);
  Setup s(test::loadExample("softmax.tc"), {{"N", 5}, {"M", 33}});
  Partition p = s.run("ilp");
  GeneratedCode code = generate(s.poly(), p, Dialect::OpenCL);
  // Sabotage the divide: the comparison must fail.
  size_t pos = code.kernelSource.find(" / pf_", code.kernelSource.rfind("// S3 (line 7)"));
  REQUIRE(pos != std::string::npos);
  code.kernelSource.replace(pos, 3, " * ");
  RunResult r = runOpenCL(*s.lp.program, p, code, makeInputs(*s.lp.program, {{"N", 5}, {"M", 33}}, 1), 1, 1e-4);
  CHECK_FALSE(r.verified);
  CHECK(r.maxRelError > 1e-2);
}

TEST_CASE("verify: a NaN or an infinity anywhere fails the comparison, a later finite error does not hide it") {
  const std::vector<double> ref = {1.0, -2.0, 3.0, 4.0, NAN, INFINITY};
  CHECK(maxRelativeError(ref, ref) == 0);  // NaN against NaN, an infinity against itself
  for (size_t at = 0; at < 3; ++at)
    for (double bad : {double(NAN), double(INFINITY), -double(INFINITY)}) {
      std::vector<double> got = ref;
      got[at] = bad;
      got[3] = 4.5;  // a finite error after it
      CHECK(std::isinf(maxRelativeError(got, ref)));
    }
  std::vector<double> got = ref;
  got[4] = 0.0;  // a number where the reference has NaN
  CHECK(std::isinf(maxRelativeError(got, ref)));
  got = ref;
  got[5] = -INFINITY;  // the other infinity
  CHECK(std::isinf(maxRelativeError(got, ref)));
}

TEST_CASE("occupancy: CUDA's rules for threads, registers and shared memory") {
  // LayerNorm at 4096 as generated today: 131 KB of shared memory fit once per SM.
  Occupancy o = cudaOccupancy("sm_90", 256, 32, 131264);
  CHECK(o.blocksPerSM == 1);
  CHECK(o.fraction == Approx(0.125));
  CHECK(o.limiter == "shared memory");
  // Registers round up to 256 per warp: 26 registers cost as 32.
  o = cudaOccupancy("sm_90", 256, 26, 16544);
  CHECK(o.blocksPerSM == 8);
  CHECK(o.fraction == 1.0);
  CHECK(o.limiter == "threads");
  o = cudaOccupancy("sm_80", 1024, 64, 0);
  CHECK(o.blocksPerSM == 1);
  CHECK(o.warpsPerSM == 32);
  CHECK(o.limiter == "registers");
  o = cudaOccupancy("sm_90", 32, 16, 0);
  CHECK(o.blocksPerSM == 32);
  CHECK(o.limiter == "blocks");
  CHECK(o.fraction == Approx(0.5));
  CHECK_THROWS_AS(cudaOccupancy("sm_70", 256, 32, 0), UsageError);
}

TEST_CASE("barriers: the plan places them, the cost model prices them, lowering emits those and checks them") {
  const Sizes sizes = {{"N", 33}, {"M", 1029}};
  Setup s(test::loadExample("layernorm.tc"), sizes);
  Partition p = s.run("maxfuse");
  REQUIRE(p.kernels.size() == 1);
  const KernelPlan& k = p.kernels[0];
  REQUIRE(k.rowMapping == RowMapping::BlockPerRow);
  // mean and d live in shared memory, written by threads other than those that read them
  // next: a barrier after S0 and after S1; two block reductions a block (one row).
  CHECK(k.barrierAfter == std::vector<bool>{true, true, false, false});
  CHECK(k.barriersPerBlock == 2);
  CHECK(k.reductionsPerBlock == 2);
  GeneratedCode code = generate(s.poly(), p, Dialect::Cuda);
  CHECK(code.kernels[0].barriers == 2);
  CHECK(code.kernels[0].barriersPerBlock == 4);  // in CUDA one barrier a block reduction
  // A plan that leaves one out promises a kernel that cannot run as priced.
  Partition missing = p;
  missing.kernels[0].barrierAfter[1] = false;
  try {
    generate(s.poly(), missing, Dialect::OpenCL);
    FAIL("no error");
  } catch (const InternalError& e) {
    CHECK(std::string(e.what()).find("S2 needs a barrier before it that the plan does not place") != std::string::npos);
  }
  // Priced: each SM's blocks one after another, each waiting at its barriers and combines,
  // and every point's cost beyond its flops.
  Device d = loadDevice("h100");
  d.barrierNs = 1000;
  d.reductionNs = 5000;
  d.pointNs = 0;
  test::Setup priced(test::loadExample("layernorm.tc"), sizes);
  priced.cm = std::make_unique<CostModel>(*priced.fg, sizes, d);
  const Partition pq = priced.run("maxfuse");
  const KernelPlan& q = pq.kernels[0];
  const double waves = double((q.blocks + d.smCount - 1) / d.smCount);
  CHECK(q.schedulingUs == Approx(waves * (d.blockNs + double(q.barriersPerBlock) * 1000 + double(q.reductionsPerBlock) * 5000) * 1e-3));
  CHECK(q.modeledUs >= q.schedulingUs);
  d.pointNs = 100;
  priced.cm = std::make_unique<CostModel>(*priced.fg, sizes, d);
  const Partition pr = priced.run("maxfuse");
  const KernelPlan& r = pr.kernels[0];
  CHECK(r.points == 4 * 33 * 1029);
  CHECK(r.computeUs >= double(r.points) * 100 * 1e-3 / d.smCount);
}

// The kernel IR read as what the blocks run, without printing it: every block of every
// kernel evaluates its pieces' guards, loop bounds and dimension values (IndexExpr) at
// its origin, as the printed C does, and together the blocks run each point of each
// statement's domain exactly once.
TEST_CASE("kernel IR: the blocks' loop nests run each statement's points once") {
  struct Case {
    const char* file;  // an example, or a program's text
    Sizes sizes;
  };
  const std::vector<Case> cases = {
      {"softmax.tc", {{"N", 33}, {"M", 129}}},       {"layernorm.tc", {{"N", 37}, {"M", 1000}}},
      {"attention.tc", {{"S", 37}, {"D", 33}}},      {"matmul_bias_gelu.tc", {{"N", 67}, {"K", 45}, {"M", 71}}},
      {"atax.tc", {{"M", 33}, {"N", 129}}},          {"encoder_block.tc", {}},
      // Rows 0 and 1 of the second statement are empty: their blocks skip it by a guard.
      {"def tail(float(N, M) X) -> (s) {\n  s(i) = 0 where i in 0:N\n  s(i) +=! X(i, j) where i in 2:N\n}\n", {{"N", 37}, {"M", 65}}},
  };
  int checked = 0, guarded = 0;
  for (const Case& c : cases) {
    const std::string file = c.file;
    LoadedProgram lp = file.size() > 3 && file.compare(file.size() - 3, 3, ".tc") == 0 ? test::loadExample(file) : test::load(file);
    Sizes sizes = c.sizes;
    for (auto& n : lp.poly->program().sizeParams)
      if (!sizes.count(n)) sizes[n] = 19 + int64_t(sizes.size()) * 6;
    Setup s(std::move(lp), sizes);
    const Program& prog = s.poly().program();
    for (const char* strategy : {"nofuse", "greedy", "ilp"}) {
      Partition p = s.run(strategy);
      if (std::any_of(p.kernels.begin(), p.kernels.end(), [](const KernelPlan& k) { return !k.recomputed.empty(); })) continue;
      GeneratedCode code = generate(s.poly(), p, Dialect::OpenCL);
      SizedProgram at(prog, p.sizes);
      for (const KernelIR& k : code.kernels) {
        INFO(c.file << " " << strategy << " K" << k.id);
        std::map<int, std::map<std::vector<int64_t>, int>> runs;  // statement -> point -> times
        int64_t blocks = 1;
        for (int64_t n : k.numBlocks) blocks *= n;
        for (int64_t b = 0; b < blocks; ++b)
          for (int64_t chunk = 0; chunk < k.plan.splitChunks; ++chunk) {
            std::map<std::string, int64_t> names{{kChunkName, chunk}};
            int64_t rest = b;
            for (int t = int(k.numBlocks.size()) - 1; t >= 0; --t) {
              names[blockOriginName(t)] = k.plan.gridLo[size_t(t)] + rest % k.numBlocks[size_t(t)] * k.plan.tile[size_t(t)];
              rest /= k.numBlocks[size_t(t)];
            }
            for (const StmtIR& st : k.stmts)
              for (const PieceIR& piece : st.pieces) {
                bool taken = true;
                for (const IndexExpr& g : piece.guards) {
                  std::optional<int64_t> v = evaluate(g, names);
                  REQUIRE(v);
                  taken = taken && *v != 0;
                }
                if (!piece.guards.empty()) ++guarded;
                if (!taken) continue;
                // The loop nest, outer to inner, then each dimension's value.
                std::function<void(size_t, std::map<std::string, int64_t>&)> run = [&](size_t l, std::map<std::string, int64_t>& at) {
                  if (l == piece.loops.size()) {
                    std::vector<int64_t> point;
                    for (const IndexExpr& d : piece.dimValue) {
                      std::optional<int64_t> v = evaluate(d, at);
                      REQUIRE(v);
                      point.push_back(*v);
                    }
                    ++runs[st.stmt][point];
                    return;
                  }
                  const LoopIR& loop = piece.loops[l];
                  std::optional<int64_t> lo = evaluate(loop.lo, at), hi = evaluate(loop.hi, at);
                  REQUIRE(lo);
                  REQUIRE(hi);
                  for (int64_t i = *lo; i < *hi; ++i) {
                    at[loop.var] = i;
                    run(l + 1, at);
                  }
                  at.erase(loop.var);
                };
                std::map<std::string, int64_t> at = names;
                run(0, at);
              }
          }
        for (const StmtIR& st : k.stmts) {
          const SizedStatement& ss = at.statement(st.stmt);
          int64_t points = 1;
          for (size_t d = 0; d < ss.lo.size(); ++d) points *= std::max<int64_t>(0, ss.hi[d] - ss.lo[d]);
          INFO(prog.statements[size_t(st.stmt)].label());
          CHECK(int64_t(runs[st.stmt].size()) == points);
          for (auto& [point, times] : runs[st.stmt]) {
            bool inside = times == 1;
            for (size_t d = 0; d < point.size(); ++d) inside = inside && point[d] >= ss.lo[d] && point[d] < ss.hi[d];
            if (!inside) {
              CHECK(times == 1);
              CHECK(point == std::vector<int64_t>{});  // prints the point outside
              break;
            }
          }
          ++checked;
        }
      }
    }
  }
  CHECK(checked > 40);
  CHECK(guarded > 0);  // odd sizes leave partial tiles: guards are exercised
}

TEST_CASE("kernel IR: index expressions spell and evaluate as isl's printer and C do") {
  const IndexExpr b0 = IndexExpr::named("pf_b0"), i = IndexExpr::named("i");
  const IndexExpr hi = IndexExpr::apply(IndexOp::Min, {IndexExpr::apply(IndexOp::Add, {b0, IndexExpr::constant(31)}),
                                                       IndexExpr::constant(99), IndexExpr::constant(120)});
  CHECK(indexC(hi) == "pf_min(pf_min((pf_b0 + 31), 99), 120)");
  CHECK(evaluate(hi, {{"pf_b0", 64}}) == 95);
  CHECK(evaluate(hi, {{"pf_b0", 96}}) == 99);
  CHECK_FALSE(evaluate(hi, {}).has_value());
  const IndexExpr f = IndexExpr::apply(IndexOp::FloorDiv, {IndexExpr::apply(IndexOp::Neg, {i}), IndexExpr::constant(4)});
  CHECK(indexC(f) == "pf_floord((-i), 4)");
  CHECK(evaluate(f, {{"i", 5}}) == -2);  // a floor, where C's / gives -1
  const IndexExpr r = IndexExpr::apply(IndexOp::Rem, {IndexExpr::apply(IndexOp::Neg, {i}), IndexExpr::constant(4)});
  CHECK(evaluate(r, {{"i", 5}}) == -1);  // C's %
  CHECK(indexC(IndexExpr::constant(-3)) == "(-3)");
  const IndexExpr g = IndexExpr::apply(IndexOp::Select, {IndexExpr::apply(IndexOp::Le, {b0, IndexExpr::constant(64)}), i, b0});
  CHECK(indexC(g) == "((pf_b0 <= 64) ? i : pf_b0)");
  CHECK(evaluate(g, {{"pf_b0", 65}, {"i", 2}}) == 65);
}
