#include "mlir/IreeMapOps.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>

#include "mlir/MlirText.h"
#include "mlir/TextRewrite.h"

namespace polyfuse {

namespace {

using namespace mlir_text;

std::string loopList(size_t from, size_t to) {
  std::vector<std::string> d;
  for (size_t k = from; k < to; ++k) d.push_back("d" + std::to_string(k));
  return joined(d);
}

std::string iterators(size_t parallel, size_t reduction) {
  std::vector<std::string> it(parallel, "\"parallel\"");
  it.insert(it.end(), reduction, "\"reduction\"");
  return joined(it);
}

// The region `^bb0(%i0: index, ..): ops.. iree_linalg_ext.yield %y0, .., %last : index, .., T`:
// its arguments, its ops (comments dropped, on one line), and what it yields.
struct IndexRegion {
  std::vector<std::string> args, yields;
  std::string ops;
};

std::optional<IndexRegion> readRegion(const std::string& region) {
  static const std::regex header(R"(^\s*\^bb\w*\s*\(([^)]*)\)\s*:)");
  std::smatch h;
  if (!std::regex_search(region, h, header)) return std::nullopt;
  IndexRegion r;
  for (const std::string& a : commaList(h[1].str())) {
    const size_t colon = a.find(':');
    if (colon == std::string::npos || trimmed(a.substr(colon + 1)) != "index") return std::nullopt;
    r.args.push_back(trimmed(a.substr(0, colon)));
  }
  const size_t yield = region.find("iree_linalg_ext.yield");
  if (yield == std::string::npos) return std::nullopt;
  const size_t colon = region.find(':', yield);
  if (colon == std::string::npos) return std::nullopt;
  r.yields = commaList(region.substr(yield + 21, colon - yield - 21));
  for (std::string& y : r.yields) y = trimmed(y);
  std::string ops = region.substr(size_t(h.position(0) + h.length(0)), yield - size_t(h.position(0) + h.length(0)));
  // One line: the op's replacement stands on the op's first line.
  std::string flat;
  for (size_t at = 0; at < ops.size();) {
    size_t eol = ops.find('\n', at);
    if (eol == std::string::npos) eol = ops.size();
    std::string line = ops.substr(at, eol - at);
    if (size_t c = line.find("//"); c != std::string::npos) line = line.substr(0, c);
    flat += trimmed(line) + " ";
    at = eol + 1;
  }
  r.ops = flat;
  return r;
}

// MLIR 19 reads neither `affine.linearize_index` with a static basis nor its `disjoint`;
// both index ops are written as the arithmetic they are, which the importer reads as
// affine forms of the loops: a linearization `sum_k a_k * prod_{j>k} b_j`, and a
// delinearization's results `x floordiv prod_{j>k} b_j`, each but the first taken `mod b_k`.
// The region's ops so written, and the yields renamed with them.
std::optional<std::string> indexOpsAsArithmetic(std::string ops, std::vector<std::string>& yields, const std::string& prefix) {
  static const std::regex linearize(
      R"((%[\w.$-]+)\s*=\s*affine\.linearize_index\s+(?:disjoint\s+)?\[([^\]]*)\]\s+by\s+\(([^)]*)\)\s*:\s*index)");
  static const std::regex delinearize(
      R"((%[\w.$-]+)(?::(\d+))?\s*=\s*affine\.delinearize_index\s+(%[\w.$#-]+)\s+into\s+\(([^)]*)\)\s*:\s*index(?:\s*,\s*index)*)");
  int fresh = 0;
  auto name = [&] { return prefix + "a" + std::to_string(fresh++); };
  auto basis = [](const std::string& list) -> std::optional<std::vector<int64_t>> {
    std::vector<int64_t> b;
    for (const std::string& e : commaList(list)) {
      std::optional<double> v = literal(trimmed(e));
      if (!v || *v < 1 || *v != double(int64_t(*v))) return std::nullopt;
      b.push_back(int64_t(*v));
    }
    return b;
  };
  auto constant = [&](int64_t c, std::string& out) {
    const std::string n = name();
    out += n + " = arith.constant " + std::to_string(c) + " : index ";
    return n;
  };
  for (std::smatch m; std::regex_search(ops, m, linearize);) {
    const std::vector<std::string> parts = commaList(m[2].str());
    const std::optional<std::vector<int64_t>> b = basis(m[3].str());
    if (!b || b->size() != parts.size() || parts.empty()) return std::nullopt;
    std::string out, sum;
    int64_t stride = 1;
    for (size_t k = parts.size(); k-- > 0;) {
      std::string term = trimmed(parts[k]);
      if (stride != 1) {
        const std::string s = constant(stride, out), t = name();
        out += t + " = arith.muli " + term + ", " + s + " : index ";
        term = t;
      }
      if (sum.empty()) {
        sum = term;
      } else {
        const std::string t = k == 0 ? m[1].str() : name();
        out += t + " = arith.addi " + sum + ", " + term + " : index ";
        sum = t;
      }
      stride *= (*b)[k];
    }
    if (sum != m[1].str()) out += m[1].str() + " = arith.addi " + sum + ", " + constant(0, out) + " : index ";
    ops = m.prefix().str() + out + m.suffix().str();
  }
  for (std::smatch m; std::regex_search(ops, m, delinearize);) {
    const std::optional<std::vector<int64_t>> b = basis(m[4].str());
    const std::optional<double> declared = m[2].matched ? literal(m[2].str()) : std::optional<double>(1);
    if (!declared || *declared < 1 || *declared > 64) return std::nullopt;
    const size_t results = size_t(*declared);
    if (!b || b->size() != results) return std::nullopt;
    std::string out;
    const std::string x = m[3].str(), result = m[1].str();
    int64_t below = 1;
    std::vector<std::string> names(results);
    for (size_t k = results; k-- > 0;) {
      std::string v = x;
      if (below != 1) {
        const std::string c = constant(below, out), t = name();
        out += t + " = arith.divui " + v + ", " + c + " : index ";
        v = t;
      }
      if (k > 0) {
        const std::string c = constant((*b)[k], out), t = name();
        out += t + " = arith.remui " + v + ", " + c + " : index ";
        v = t;
      }
      names[k] = v;
      below *= (*b)[k];
    }
    std::string rest = m.suffix().str();
    for (size_t k = 0; k < results; ++k) {
      const std::string use = results > 1 ? result + "#" + std::to_string(k) : result;
      rest = renamedValue(rest, use, names[k]);
      for (std::string& y : yields) y = renamedValue(y, use, names[k]);
    }
    ops = m.prefix().str() + out + rest;
  }
  return ops;
}

// Whether `value` is defined as the constant `true` in `text`.
bool constantTrue(const std::string& text, const std::string& value) {
  const std::regex def(std::regex_replace(value, std::regex(R"([.$])"), "\\$&") + R"(\s*=\s*arith\.constant\s+true\b)");
  return std::regex_search(text, def);
}

bool definedIn(const std::string& ops, const std::string& value) {
  const std::regex def(std::regex_replace(value, std::regex(R"([.$])"), "\\$&") + R"((?::\d+)?\s*=)");
  return std::regex_search(ops, def);
}

std::string zeroOf(const std::string& element) {
  return isFloatType(element) ? "0.000000e+00 : " + element : "0 : " + element;
}

struct MapOp {
  std::string result, from, into, fromType, intoType, resultType;
  IndexRegion region;
  size_t end;
};

// `%r = iree_linalg_ext.map_X %from into %into {region} : T1 into T2 -> T3` after the match.
std::optional<MapOp> readMapOp(const std::string& text, const std::smatch& m, size_t pos) {
  MapOp op;
  op.result = m[1].str();
  op.from = m[2].str();
  op.into = m[3].str();
  const std::optional<std::string> region = regionAt(text, pos);
  if (!region) return std::nullopt;
  std::optional<IndexRegion> r = readRegion(*region);
  if (!r) return std::nullopt;
  op.region = *r;
  static const std::regex types(R"(^\s*:\s*(tensor<[^>]*>)\s+into\s+(tensor<[^>]*>)\s*->\s*(tensor<[^>]*>))");
  std::smatch t;
  const std::string rest = text.substr(pos, 400);
  if (!std::regex_search(rest, t, types)) return std::nullopt;
  op.fromType = t[1].str();
  op.intoType = t[2].str();
  op.resultType = t[3].str();
  op.end = pos + size_t(t.length(0));
  return op;
}

// The op's static extents, its region with the index ops written as arithmetic, and the
// prefix of the names its generics introduce; none where a shape is dynamic or the region
// does not take one index per dimension of the side it maps from (the output for a load,
// the input for a store) and yield one per dimension of the other, and one value more.
struct Prepared {
  std::vector<int64_t> from, into;
  IndexRegion region;
  std::string prefix, ops;
};
std::optional<Prepared> prepare(const MapOp& op, const std::string& kind, int id) {
  const auto from = staticShape(op.fromType), into = staticShape(op.intoType);
  if (!from || !into) return std::nullopt;
  const bool load = kind == "load";
  Prepared p{*from, *into, op.region, "%pf_map" + kind + std::to_string(id) + "_", ""};
  if (p.region.args.size() != (load ? into : from)->size() || p.region.yields.size() != (load ? from : into)->size() + 1)
    return std::nullopt;
  const std::optional<std::string> ops = indexOpsAsArithmetic(p.region.ops, p.region.yields, p.prefix);
  if (!ops) return std::nullopt;
  p.ops = *ops;
  return p;
}

// map_load: each output element the source's element at the region's index, or the
// padding value where that index leaves the source. A generic over the output extracts
// it; where the region yields its own arguments (a copy, a slice, a pad), the source is
// padded first by what the output's extents exceed it by, so that the read stays affine.
std::optional<std::string> mapLoadGeneric(const MapOp& op, const Prepared& q) {
  const IndexRegion& r = q.region;
  const std::string& p = q.prefix;
  const std::string element = elementOf(op.intoType), padding = r.yields.back();
  std::string text, source = op.from, sourceType = op.fromType;
  // Padding where the output's extent exceeds the source's along an index the region
  // passes through; an index it computes must stay inside (the importer checks it).
  std::vector<int64_t> high(q.from.size(), 0);
  bool pads = false;
  for (size_t k = 0; k < q.from.size(); ++k) {
    auto a = std::find(r.args.begin(), r.args.end(), r.yields[k]);
    if (a == r.args.end()) continue;
    high[k] = std::max<int64_t>(0, q.into[size_t(a - r.args.begin())] - q.from[k]);
    pads |= high[k] > 0;
  }
  if (pads) {
    if (definedIn(q.ops, padding) || std::find(r.args.begin(), r.args.end(), padding) != r.args.end()) return std::nullopt;
    std::vector<std::string> low(q.from.size(), "0"), hi, args, dims;
    for (size_t k = 0; k < q.from.size(); ++k) {
      hi.push_back(std::to_string(high[k]));
      args.push_back(p + "i" + std::to_string(k) + ": index");
      dims.push_back(std::to_string(q.from[k] + high[k]));
    }
    source = p + "padded";
    sourceType = "tensor<" + joined(dims, "x") + "x" + element + ">";
    text += source + " = tensor.pad " + op.from + " low[" + joined(low) + "] high[" + joined(hi) + "] { ^bb0(" +
            joined(args) + "): tensor.yield " + padding + " : " + element + " } : " + op.fromType + " to " + sourceType + " ";
  }
  std::string body = "^bb0(" + p + "out: " + element + "): ";
  for (size_t k = 0; k < r.args.size(); ++k) body += r.args[k] + " = linalg.index " + std::to_string(k) + " : index ";
  std::vector<std::string> at(r.yields.begin(), r.yields.end() - 1);
  body += q.ops + p + "v = tensor.extract " + source + "[" + joined(at) + "] : " + sourceType + " linalg.yield " + p +
          "v : " + element;
  const std::string all = loopList(0, q.into.size());
  text += op.result + " = linalg.generic {indexing_maps = [affine_map<(" + all + ") -> (" + all +
          ")>], iterator_types = [" + iterators(q.into.size(), 0) + "]} outs(" + op.into + " : " + op.intoType + ") { " +
          body + " } -> " + op.resultType;
  return text;
}

// map_store: each input element written at the region's index where its mask holds.
// A region that permutes its arguments under a mask of `true` is a transpose: one generic
// over the input, written through the permutation. Any other is read over output and
// input together, into a tensor.empty: each output element the sum of the input elements
// whose index hits it (one, for a region that stores each element once).
std::optional<std::string> mapStoreGeneric(const std::string& text, const MapOp& op, const Prepared& q) {
  const IndexRegion& r = q.region;
  const std::string& p = q.prefix;
  const std::string element = elementOf(op.intoType), mask = r.yields.back();
  const size_t n = q.into.size(), m = q.from.size();
  const bool always = constantTrue(r.ops, mask) || (!definedIn(r.ops, mask) && constantTrue(text, mask));
  std::vector<std::string> written;
  std::set<std::string> seen;
  for (size_t k = 0; k < n; ++k) {
    auto a = std::find(r.args.begin(), r.args.end(), r.yields[k]);
    if (a == r.args.end() || !seen.insert(r.yields[k]).second || q.into[k] != q.from[size_t(a - r.args.begin())]) break;
    written.push_back("d" + std::to_string(a - r.args.begin()));
  }
  if (always && n == m && written.size() == n) {
    const std::string all = loopList(0, m);
    return op.result + " = linalg.generic {indexing_maps = [affine_map<(" + all + ") -> (" + all + ")>, affine_map<(" + all +
           ") -> (" + joined(written) + ")>], iterator_types = [" + iterators(m, 0) + "]} ins(" + op.from + " : " +
           op.fromType + ") outs(" + op.into + " : " + op.intoType + ") { ^bb0(" + p + "x: " + element + ", " + p +
           "o: " + element + "): linalg.yield " + p + "x : " + element + " } -> " + op.resultType;
  }
  // Over a tensor.empty only: where no index hits, the output holds what it held.
  const std::regex empty(std::regex_replace(op.into, std::regex(R"([.$])"), "\\$&") + R"(\s*=\s*tensor\.empty\b)");
  if (!std::regex_search(text, empty)) return std::nullopt;
  // A sum of the one element that hits, every other term the sum's identity: -0.0 keeps
  // the sign of a stored zero, where 0.0 would not.
  const std::string init = p + "zeros", none = p + "none", add = isFloatType(element) ? "arith.addf" : "arith.addi";
  std::string out = none + " = arith.constant " + (isFloatType(element) ? "-0.000000e+00 : " + element : zeroOf(element)) +
                    " " + init + " = linalg.fill ins(" + none + " : " + element + ") outs(" + op.into + " : " +
                    op.intoType + ") -> " + op.intoType + " ";
  std::string body = "^bb0(" + p + "x: " + element + ", " + p + "acc: " + element + "): ";
  for (size_t k = 0; k < m; ++k) body += r.args[k] + " = linalg.index " + std::to_string(n + k) + " : index ";
  body += q.ops;
  std::string hit = always ? "" : mask;
  for (size_t k = 0; k < n; ++k) {
    const std::string o = p + "o" + std::to_string(k), h = p + "h" + std::to_string(k);
    body += o + " = linalg.index " + std::to_string(k) + " : index " + h + " = arith.cmpi eq, " + r.yields[k] + ", " + o +
            " : index ";
    if (hit.empty()) {
      hit = h;
    } else {
      const std::string both = p + "and" + std::to_string(k);
      body += both + " = arith.andi " + hit + ", " + h + " : i1 ";
      hit = both;
    }
  }
  body += p + "v = arith.select " + hit + ", " + p + "x, " + none + " : " + element + " " + p + "s = " + add + " " + p +
          "acc, " + p + "v : " + element + " linalg.yield " + p + "s : " + element;
  const std::string all = loopList(0, n + m);
  out += op.result + " = linalg.generic {indexing_maps = [affine_map<(" + all + ") -> (" + loopList(n, n + m) +
         ")>, affine_map<(" + all + ") -> (" + loopList(0, n) + ")>], iterator_types = [" + iterators(n, m) + "]} ins(" +
         op.from + " : " + op.fromType + ") outs(" + init + " : " + op.intoType + ") { " + body + " } -> " + op.resultType;
  return out;
}

}  // namespace

std::string readIreeMapOps(const std::string& text, std::vector<std::string>& notes) {
  if (text.find("iree_linalg_ext.map_") == std::string::npos) return text;
  int id = 0;
  static const std::regex load(R"((%[\w.$-]+)\s*=\s*iree_linalg_ext\.map_load\s+(%[\w.$-]+)\s+into\s+(%[\w.$-]+))");
  std::string t = rewriteEach(
      text, load,
      [&](const std::smatch& m, size_t pos) -> std::optional<Rewrite> {
        std::optional<MapOp> op = readMapOp(text, m, pos);
        std::optional<Prepared> q = op ? prepare(*op, "load", id++) : std::nullopt;
        if (!q) return std::nullopt;
        return rewritten(mapLoadGeneric(*op, *q), op->end);
      },
      "iree_linalg_ext.map_load op(s) as the generic that extracts each output element at the index its region "
      "computes (the source padded first where the region passes an index through to a larger output)",
      notes);
  static const std::regex store(R"((%[\w.$-]+)\s*=\s*iree_linalg_ext\.map_store\s+(%[\w.$-]+)\s+into\s+(%[\w.$-]+))");
  return rewriteEach(
      t, store,
      [&](const std::smatch& m, size_t pos) -> std::optional<Rewrite> {
        std::optional<MapOp> op = readMapOp(t, m, pos);
        std::optional<Prepared> q = op ? prepare(*op, "store", id++) : std::nullopt;
        if (!q) return std::nullopt;
        return rewritten(mapStoreGeneric(t, *op, *q), op->end);
      },
      "iree_linalg_ext.map_store op(s): a region that permutes the indices under a true mask as a transposing "
      "generic, any other as a generic over output and input that keeps, for each output element, the input "
      "element whose index hits it (quadratic in the elements)",
      notes);
}

}  // namespace polyfuse
