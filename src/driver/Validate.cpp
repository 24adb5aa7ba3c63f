#include "driver/Validate.h"

#include <algorithm>
#include <chrono>

#include "fusion/RankCorrelation.h"
#include "fusion/Search.h"
#include "polyir/Diagnostic.h"

namespace polyfuse {

std::string kernelsText(const std::vector<std::vector<int>>& kernels, const std::vector<std::vector<int>>& recomputed) {
  std::string s;
  for (size_t i = 0; i < kernels.size(); ++i) {
    std::string t;
    for (int st : kernels[i]) t += (t.empty() ? "" : " ") + memberLabel("S" + std::to_string(st), recomputed[i], st);
    s += (s.empty() ? "{" : " {") + t + "}";
  }
  return s;
}

Validation validatePartitions(const CostModel& cm, Backend backend, const Bindings& inputs, int repeat, int topK,
                              bool recompute, double timeLimitSeconds, std::ostream* progress) {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (backend == Backend::Ref) throw UsageError("validate runs generated code: --backend opencl or cuda");
  Validation v;
  std::vector<Partition> plans;
  if (topK > 0) {
    SearchOptions opt;
    opt.topK = topK;
    opt.recompute = recompute;
    Partition best = search(cm, opt);
    for (auto& a : best.alternatives) {
      std::vector<StmtSet> groups, kept;
      for (size_t k = 0; k < a.kernels.size(); ++k) {
        groups.push_back(StmtSet::of(cm.graph().size(), a.kernels[k]));
        kept.push_back(StmtSet::of(cm.graph().size(), a.recomputed[k]));
      }
      plans.push_back(cm.assemble(Strategy::Ilp, groups, kept));
    }
    if (plans.empty()) plans.push_back(best);
    v.source = "the " + std::to_string(plans.size()) + " best partitions by the exact search";
  } else {
    bool more = false;
    plans = legalPartitions(cm, kMaxValidated, more, recompute);
    if (more)
      throw UsageError("the program has more than " + std::to_string(kMaxValidated) +
                       " legal partitions; validate the best ones with --top K");
    v.source = "every legal partition (" + std::to_string(plans.size()) + ")";
  }
  // Every partition computes the same outputs from the same inputs: one float64 reference.
  const Bindings exact = interpretF64(cm.graph().program(), inputs);
  std::vector<std::string> harnesses;
  if (backend == Backend::Cuda) harnesses = buildCudaHarnesses(cm, plans);
  auto sharedFor = [&](size_t i) {
    SharedRun shared;
    shared.exactF64 = &exact;
    if (!harnesses.empty()) shared.cudaHarness = harnesses[i];
    return shared;
  };
  // A CPU device shares its cores with whatever else the machine runs, and its speed
  // drifts over a validate of minutes (the same partition measured 0.78 and 3.6 ms in two
  // runs of the study): there every partition's k-th run is in round k, so a drift slows
  // all partitions alike instead of whichever ran during it. A GPU's runs stay together
  // (each run of the harness starts a process and a CUDA context).
  const bool interleave = backend == Backend::OpenCL && repeat > 1;
  std::vector<std::vector<double>> samples;
  std::vector<double> modeled, measured;
  for (size_t i = 0; i < plans.size(); ++i) {
    const Partition& p = plans[i];
    if (timeLimitSeconds > 0 && !v.partitions.empty() && elapsed() > timeLimitSeconds) break;  // the first always runs
    ValidatedPartition vp;
    for (auto& k : p.kernels) {
      vp.kernels.push_back(k.statements);
      vp.recomputed.push_back(k.recomputed);
    }
    vp.modeledUs = p.modeledUs;
    vp.run = executePartition(cm, p, backend, inputs, 1, interleave ? 1 : repeat, "", sharedFor(i));
    vp.run.outputs.clear();  // every output of every partition would add up
    v.device = vp.run.device;
    v.allVerified &= vp.run.verified;
    samples.push_back({vp.run.totalMs});
    if (progress)
      *progress << "validate: [" << v.partitions.size() + 1 << "/" << plans.size() << "] "
                << kernelsText(vp.kernels, vp.recomputed) << ": " << vp.run.totalMs << " ms, "
                << (vp.run.verified ? "verified" : "NOT verified") << " (elapsed " << int(elapsed()) << " s)" << std::endl;
    v.partitions.push_back(std::move(vp));
  }
  for (int round = 2; interleave && round <= repeat; ++round) {
    for (size_t i = 0; i < v.partitions.size(); ++i) {
      const ExecOutcome r = executePartition(cm, plans[i], backend, inputs, 1, 1, "", sharedFor(i));
      v.partitions[i].run.verified &= r.verified;
      v.allVerified &= r.verified;
      samples[i].push_back(r.totalMs);
    }
    if (progress) *progress << "validate: round " << round << " of " << repeat << " (elapsed " << int(elapsed()) << " s)" << std::endl;
  }
  for (size_t i = 0; i < v.partitions.size(); ++i) {
    ExecOutcome& run = v.partitions[i].run;
    if (interleave) {
      std::vector<double> t = samples[i];
      std::sort(t.begin(), t.end());
      run.totalMs = t[t.size() / 2];
      run.totalMinMs = t.front();
      run.totalMaxMs = t.back();
    }
    modeled.push_back(v.partitions[i].modeledUs);
    measured.push_back(run.totalMs);
  }
  if (v.partitions.size() < plans.size())
    v.source += "; the time limit stopped it after " + std::to_string(v.partitions.size());
  v.kendallTau = kendallTau(modeled, measured);
  v.spearmanRho = spearmanRho(modeled, measured);
  v.regret = regret(modeled, measured);
  return v;
}

}  // namespace polyfuse
