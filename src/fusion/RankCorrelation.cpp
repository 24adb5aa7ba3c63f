#include "fusion/RankCorrelation.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace polyfuse {

double kendallTau(const std::vector<double>& x, const std::vector<double>& y) {
  double concordant = 0, discordant = 0, tiesX = 0, tiesY = 0;
  const size_t n = x.size();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const double dx = x[i] - x[j], dy = y[i] - y[j];
      if (dx == 0 && dy == 0) continue;  // tied in both: in neither count
      if (dx == 0) ++tiesX;
      else if (dy == 0) ++tiesY;
      else if ((dx > 0) == (dy > 0)) ++concordant;
      else ++discordant;
    }
  const double denom = std::sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY));
  return denom > 0 ? (concordant - discordant) / denom : 0.0;
}

static std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double average = (double(i) + double(j)) / 2 + 1;
    for (size_t k = i; k <= j; ++k) r[order[k]] = average;
    i = j + 1;
  }
  return r;
}

double spearmanRho(const std::vector<double>& x, const std::vector<double>& y) {
  const std::vector<double> rx = ranks(x), ry = ranks(y);
  const double n = double(x.size());
  if (n < 2) return 0.0;
  const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n, my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0.0;
}

double regret(const std::vector<double>& modeled, const std::vector<double>& measured) {
  if (modeled.empty()) return 1.0;
  const size_t pick = size_t(std::min_element(modeled.begin(), modeled.end()) - modeled.begin());
  const double fastest = *std::min_element(measured.begin(), measured.end());
  return fastest > 0 ? measured[pick] / fastest : 1.0;
}

double relativeSpread(double medianMs, double minMs, double maxMs) {
  return medianMs > 0 ? (maxMs - minMs) / medianMs : 0;
}

std::vector<Reversal> measuredReversals(const std::vector<double>& modeled, const std::vector<double>& minMs,
                                        const std::vector<double>& maxMs, double tie) {
  std::vector<Reversal> out;
  for (size_t a = 0; a < modeled.size(); ++a)
    for (size_t b = 0; b < modeled.size(); ++b)
      if (modeled[a] < modeled[b] * (1 - tie) && minMs[a] > maxMs[b]) out.push_back({a, b});
  return out;
}

}  // namespace polyfuse
