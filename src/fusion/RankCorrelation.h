// How well modeled times rank what was measured: Kendall's tau-b and Spearman's rho
// (both with ties), and the regret of the model's pick. Used by `validate`.
#pragma once
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

}  // namespace polyfuse
