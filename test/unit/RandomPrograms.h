// Random TC programs for differential tests: DAGs of 3 to 10 statements mixing
// elementwise maps, row and column reductions, broadcasts and transposed reads,
// over square N x N tensors (so a transposed read is always in bounds).
#pragma once
#include <string>
#include <vector>

#include "polyir/Interpreter.h"

namespace polyfuse::test {

inline std::string randomProgram(uint64_t seed, int minStmts = 3, int maxStmts = 10) {
  SplitMix64 rng(seed * 7919 + 17);
  auto pick = [&](int n) { return int(rng.next() % uint64_t(n)); };
  int count = minStmts + pick(maxStmts - minStmts + 1);
  std::vector<std::string> mats = {"X", "Y"}, vecs = {"b"}, producedMats, producedVecs;
  std::vector<std::string> consumed, produced, body;
  auto choose = [&](std::vector<std::string>& pool, std::vector<std::string>& fresh) {
    std::string t = (!fresh.empty() && pick(10) < 7) ? fresh[fresh.size() - 1 - pick(std::min<int>(3, int(fresh.size())))]
                                                     : pool[pick(int(pool.size()))];
    consumed.push_back(t);
    return t;
  };
  const char* binops[] = {" + ", " - ", " * "};
  for (int s = 0; s < count; ++s) {
    int kind = pick(6);
    std::string line;
    if (kind <= 1) {  // elementwise map, sometimes transposed
      std::string name = "m" + std::to_string(s);
      std::string a = choose(mats, producedMats), b = choose(mats, producedMats);
      std::string ra = a + (pick(4) == 0 ? "(j, i)" : "(i, j)"), rb = b + (pick(4) == 0 ? "(j, i)" : "(i, j)");
      line = name + "(i, j) = " + (pick(3) == 0 ? "tanh(" + ra + ")" : ra) + binops[pick(3)] + rb;
      mats.push_back(name);
      producedMats.push_back(name);
      produced.push_back(name);
    } else if (kind == 2) {  // row reduction
      std::string name = "r" + std::to_string(s);
      line = name + "(i) " + (pick(2) ? "+=! " : "max=! ") + choose(mats, producedMats) + "(i, j)";
      vecs.push_back(name);
      producedVecs.push_back(name);
      produced.push_back(name);
    } else if (kind == 3) {  // column reduction
      std::string name = "c" + std::to_string(s);
      line = name + "(j) +=! " + choose(mats, producedMats) + "(i, j)";
      vecs.push_back(name);
      producedVecs.push_back(name);
      produced.push_back(name);
    } else if (kind == 4) {  // broadcast of a vector over rows or columns
      std::string name = "e" + std::to_string(s);
      line = name + "(i, j) = " + choose(mats, producedMats) + "(i, j)" + binops[pick(3)] + choose(vecs, producedVecs) +
             (pick(2) ? "(i)" : "(j)");
      mats.push_back(name);
      producedMats.push_back(name);
      produced.push_back(name);
    } else {  // vector map
      std::string name = "v" + std::to_string(s);
      line = name + "(i) = " + choose(vecs, producedVecs) + "(i)" + binops[pick(3)] + choose(vecs, producedVecs) + "(i)";
      vecs.push_back(name);
      producedVecs.push_back(name);
      produced.push_back(name);
    }
    body.push_back("  " + line);
  }
  std::string outs;
  for (auto& p : produced)
    if (std::find(consumed.begin(), consumed.end(), p) == consumed.end() || p == produced.back())
      outs += (outs.empty() ? "" : ", ") + p;
  std::string text = "def random" + std::to_string(seed) + "(float(N, N) X, float(N, N) Y, float(N) b) -> (" + outs + ") {\n";
  for (auto& l : body) text += l + "\n";
  return text + "}\n";
}

}  // namespace polyfuse::test
