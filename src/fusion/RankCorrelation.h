// How well modeled times rank what was measured: Kendall's tau-b and Spearman's rho
// (both with ties), the regret of the model's pick, and the pairs measured in the
// reverse of the modeled order. Used by `validate` and the experiment report.
#pragma once
#include <cstddef>
#include <vector>

namespace polyfuse {

// Kendall's tau-b: (concordant - discordant) pairs over the pairs untied in each list;
// 0 when either list is constant. Lists of equal length.
double kendallTau(const std::vector<double>& x, const std::vector<double>& y);

// Spearman's rho: Pearson's correlation of the ranks, tied values sharing their average
// rank; 0 when either list is constant.
double spearmanRho(const std::vector<double>& x, const std::vector<double>& y);

// The measured time of the entry with the smallest modeled time (the first on a tie)
// over the smallest measured time: 1 when the model picks the fastest.
double regret(const std::vector<double>& modeled, const std::vector<double>& measured);

// (slowest - fastest) / median of a measurement's runs; 0 for a median of 0.
double relativeSpread(double medianMs, double minMs, double maxMs);

// A pair (a, b) that the model orders a before b, by more than `tie` relatively
// (modeled[a] < modeled[b] * (1 - tie)), and that measures the other way beyond the
// noise: a's fastest run is slower than b's slowest. A reversal within the spread is no
// finding.
struct Reversal {
  size_t a, b;
};
std::vector<Reversal> measuredReversals(const std::vector<double>& modeled, const std::vector<double>& minMs,
                                        const std::vector<double>& maxMs, double tie = 0.05);

}  // namespace polyfuse
