// A loaded program with its fusion graph and cost model at given sizes.
#pragma once
#include <memory>

#include "Helpers.h"
#include "fusion/Search.h"

namespace polyfuse::test {

struct Setup {
  LoadedProgram lp;
  std::unique_ptr<FusionGraph> fg;
  std::unique_ptr<CostModel> cm;
  Setup(LoadedProgram l, const Sizes& sizes, const std::string& device = "h100") : lp(std::move(l)) {
    fg = std::make_unique<FusionGraph>(*lp.poly);
    cm = std::make_unique<CostModel>(*fg, sizes, loadDevice(device));
  }
  const PolyProgram& poly() const { return *lp.poly; }
  Partition run(const std::string& strategy) const {
    SearchOptions o;
    o.strategy = parseStrategy(strategy);
    return search(*cm, o);
  }
};

}  // namespace polyfuse::test
