// A set of statement ids as a bitset: groups, reachability rows, candidate keys.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace polyfuse {

class StmtSet {
 public:
  StmtSet() = default;
  explicit StmtSet(int n) : words_((n + 63) / 64, 0) {}
  static StmtSet of(int n, const std::vector<int>& ids) {
    StmtSet s(n);
    for (int i : ids) s.insert(i);
    return s;
  }
  void insert(int i) { words_[i / 64] |= uint64_t(1) << (i % 64); }
  void erase(int i) { words_[i / 64] &= ~(uint64_t(1) << (i % 64)); }
  void clear() { std::fill(words_.begin(), words_.end(), 0); }
  bool contains(int i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  StmtSet& operator|=(const StmtSet& o) {
    for (size_t k = 0; k < words_.size(); ++k) words_[k] |= o.words_[k];
    return *this;
  }
  StmtSet& operator&=(const StmtSet& o) {
    for (size_t k = 0; k < words_.size(); ++k) words_[k] &= o.words_[k];
    return *this;
  }
  StmtSet minus(const StmtSet& o) const {
    StmtSet r = *this;
    for (size_t k = 0; k < words_.size(); ++k) r.words_[k] &= ~o.words_[k];
    return r;
  }
  bool intersects(const StmtSet& o) const {
    for (size_t k = 0; k < words_.size(); ++k)
      if (words_[k] & o.words_[k]) return true;
    return false;
  }
  bool empty() const {
    for (auto w : words_)
      if (w) return false;
    return true;
  }
  int count() const {
    int c = 0;
    for (auto w : words_) c += __builtin_popcountll(w);
    return c;
  }
  std::vector<int> members() const {
    std::vector<int> out;
    for (size_t k = 0; k < words_.size(); ++k)
      for (uint64_t w = words_[k]; w; w &= w - 1) out.push_back(int(k * 64 + __builtin_ctzll(w)));
    return out;
  }
  bool operator==(const StmtSet& o) const { return words_ == o.words_; }
  bool operator<(const StmtSet& o) const { return words_ < o.words_; }
  size_t hash() const {
    size_t h = 1469598103934665603ull;
    for (auto w : words_) h = (h ^ w) * 1099511628211ull;
    return h;
  }

 private:
  std::vector<uint64_t> words_;
};

struct StmtSetHash {
  size_t operator()(const StmtSet& s) const { return s.hash(); }
};

}  // namespace polyfuse
