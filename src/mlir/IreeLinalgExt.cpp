#include "mlir/IreeLinalgExt.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "mlir/IreeMapOps.h"
#include "mlir/IreeWinograd.h"
#include "mlir/MlirText.h"
#include "mlir/TextRewrite.h"

namespace polyfuse {

namespace {

using namespace mlir_text;

struct Map {
  std::vector<std::string> dims, results;
};

// `affine_map<(d0, d1) -> (d0)>` whose results are plain loops, or `()`.
std::optional<Map> readMap(const std::string& text) {
  static const std::regex m(R"(^\s*affine_map<\s*\(([^()]*)\)\s*->\s*\(([^()]*)\)\s*>\s*$)");
  std::smatch s;
  if (!std::regex_match(text, s, m)) return std::nullopt;
  Map out{commaList(s[1].str()), commaList(s[2].str())};
  for (const std::string& r : out.results)
    if (std::find(out.dims.begin(), out.dims.end(), r) == out.dims.end()) return std::nullopt;
  return out;
}

// The extents of `tensor<2x3xf32>`; none where one is dynamic, unless `dynamic` (then `?`).
std::optional<std::vector<std::string>> extents(const std::string& type, bool dynamic = false) {
  const size_t open = type.find('<'), close = type.rfind('>');
  if (open == std::string::npos || close == std::string::npos) return std::nullopt;
  std::vector<std::string> out;
  std::string inner = type.substr(open + 1, close - open - 1);
  for (size_t x; (x = inner.find('x')) != std::string::npos;) {
    const std::string e = inner.substr(0, x);
    if (e.empty() || (e.find_first_not_of("0123456789") != std::string::npos && !(dynamic && e == "?")))
      return std::nullopt;
    out.push_back(e);
    inner = inner.substr(x + 1);
  }
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::string mapOver(const std::vector<std::string>& domain, const std::vector<std::string>& results) {
  return "affine_map<(" + joined(domain) + ") -> (" + joined(results) + ")>";
}

// -inf as MLIR writes it for a float type: its bits.
std::string negativeInfinity(const std::string& e) {
  if (e == "f16") return "0xFC00";
  if (e == "bf16") return "0xFF80";
  if (e == "f64") return "0xFFF0000000000000";
  return "0xFF800000";
}

// online_attention's running state: the accumulator, maximum and sum it starts from (its
// outs), their types, and the names its three results take.
struct Online {
  std::vector<std::string> outs, outTypes, results;
};

// The generics of one attention op, or none where it is not of the form they cover.
std::optional<std::string> expand(const std::string& result, const std::vector<std::string>& mapTexts,
                                  const std::vector<std::string>& operands, const std::vector<std::string>& types,
                                  const std::string& init, const std::string& outType, const std::string& region,
                                  int id, const Online* online = nullptr) {
  const size_t outs = online ? 3 : 1;
  const bool masked = mapTexts.size() == 5 + outs;
  if (mapTexts.size() != 4 + outs && !masked) return std::nullopt;
  if (operands.size() != mapTexts.size() - outs || types.size() != operands.size()) return std::nullopt;
  std::vector<Map> maps;
  for (const std::string& t : mapTexts) {
    std::optional<Map> m = readMap(t);
    if (!m) return std::nullopt;
    maps.push_back(*m);
  }
  const Map &q = maps[0], &k = maps[1], &v = maps[2], &o = maps[maps.size() - outs];
  if (!maps[3].results.empty()) return std::nullopt;  // the scale: a scalar
  // The computation runs in the result's type e; Q, K, V and the scale may be narrower
  // (f16 inputs into f32 state, as IREE writes mixed-precision attention): each is
  // extended where it is read, as IREE's decomposition does.
  const std::string e = elementOf(outType), ein = elementOf(types[0]);
  if (!isFloatType(e) || !isFloatType(ein) || elementOf(types[1]) != ein || elementOf(types[2]) != ein ||
      trimmed(types[3]) != ein)
    return std::nullopt;
  // Only an extension: f16 or bf16 into f32 or f64, f32 into f64.
  if (ein != e && !(typeBits(ein) && typeBits(e) && *typeBits(ein) < *typeBits(e))) return std::nullopt;
  // A body argument of the inputs' type, read in e: its extension (and the code making it).
  auto widened = [&](const std::string& v) -> std::pair<std::string, std::string> {
    if (ein == e) return {"", v};
    return {v + "_w = arith.extf " + v + " : " + ein + " to " + e + " ", v + "_w"};
  };
  const std::string qType = types[0].substr(0, types[0].rfind(ein)) + e + ">";
  // The loops: k1 (Q.K's reduction) in Q and K, not in O; k2 (the keys) in K and V, not in
  // O; n in V and O, not in Q.
  std::vector<std::string> k1, k2, n;
  for (const std::string& d : q.dims) {
    if (has(q.results, d) && has(k.results, d) && !has(o.results, d)) k1.push_back(d);
    if (has(k.results, d) && has(v.results, d) && !has(o.results, d) && !has(q.results, d)) k2.push_back(d);
    if (has(v.results, d) && has(o.results, d) && !has(q.results, d)) n.push_back(d);
  }
  if (k1.empty() || k2.empty()) return std::nullopt;
  // Each loop's extent, from the operands' types.
  // A dynamic one (`?`) is `tensor.dim` of the first operand that names it.
  std::map<std::string, std::string> extent;
  std::map<std::string, std::pair<size_t, size_t>> dimOf;  // loop -> (operand, position)
  std::vector<size_t> tensors{0, 1, 2};
  if (masked) tensors.push_back(4);
  for (size_t at : tensors) {
    std::optional<std::vector<std::string>> ex = extents(types[at], true);
    const Map& m = maps[at];
    if (!ex || ex->size() != m.results.size()) return std::nullopt;
    for (size_t r = 0; r < m.results.size(); ++r)
      if (!extent.count(m.results[r]) || extent[m.results[r]] == "?") {
        extent[m.results[r]] = (*ex)[r];
        dimOf[m.results[r]] = {at, r};
      }
  }
  // The scores: O's loops but n, then the keys.
  std::vector<std::string> sd, rows;
  for (const std::string& d : o.results)
    if (!has(n, d)) sd.push_back(d), rows.push_back(d);
  for (const std::string& d : k.results)
    if (has(k2, d)) sd.push_back(d);
  std::vector<std::string> qk = sd;
  for (const std::string& d : k1) qk.push_back(d);
  auto shape = [&](const std::vector<std::string>& dims) {
    std::string s = "tensor<";
    for (const std::string& d : dims) {
      if (!extent.count(d)) return std::string();
      s += extent[d] + "x";
    }
    return s + e + ">";
  };
  const std::string ts = shape(sd), tr = shape(rows);
  if (ts.empty() || tr.empty()) return std::nullopt;
  auto iterators = [&](const std::vector<std::string>& dims, const std::vector<std::string>& reduced) {
    std::vector<std::string> it;
    for (const std::string& d : dims) it.push_back(has(reduced, d) ? "\"reduction\"" : "\"parallel\"");
    return "[" + joined(it) + "]";
  };
  const std::string p = "%pf_att" + std::to_string(id) + "_";
  const std::string idS = mapOver(sd, sd), rowOfS = mapOver(sd, rows);
  std::string s;
  for (auto& [d, x] : extent)
    if (x == "?") {
      const auto [at, pos] = dimOf[d];
      s += p + "c_" + d + " = arith.constant " + std::to_string(pos) + " : index ";
      s += p + "n_" + d + " = tensor.dim " + operands[at] + ", " + p + "c_" + d + " : " + types[at] + " ";
    }
  auto emptyOf = [&](const std::vector<std::string>& dims, const std::string& type) {
    std::vector<std::string> sizes;
    for (const std::string& d : dims)
      if (extent[d] == "?") sizes.push_back(p + "n_" + d);
    return "tensor.empty(" + joined(sizes) + ") : " + type;
  };
  s += p + "zero = arith.constant 0.000000e+00 : " + e + " ";
  s += p + "ninf = arith.constant " + negativeInfinity(e) + " : " + e + " ";
  s += p + "es = " + emptyOf(sd, ts) + " ";
  s += p + "er = " + emptyOf(rows, tr) + " ";
  s += p + "fs = linalg.fill ins(" + p + "zero : " + e + ") outs(" + p + "es : " + ts + ") -> " + ts + " ";
  // Q scaled first, by scale x log2(e), as IREE defines the op: its softmax is in base 2.
  const auto [qa, qaName] = widened("%pf_a");
  const auto [qsc, qscName] = widened("%pf_sc");
  s += p + "eq = " + emptyOf(q.results, qType) + " ";
  s += p + "qs = linalg.generic {indexing_maps = [" + mapOver(q.results, q.results) + ", " + mapOver(q.results, {}) +
       ", " + mapOver(q.results, q.results) + "], iterator_types = " + iterators(q.results, {}) + "} ins(" +
       operands[0] + ", " + operands[3] + " : " + types[0] + ", " + ein + ") outs(" + p + "eq : " + qType +
       ") { ^bb0(%pf_a: " + ein + ", %pf_sc: " + ein + ", %pf_o: " + e + "): " + qa + qsc + "%pf_l2 = arith.constant 1.44269502 : " + e +
       " %pf_sl = arith.mulf " + qscName + ", %pf_l2 : " + e + " %pf_r = arith.mulf " + qaName + ", %pf_sl : " + e + " linalg.yield %pf_r : " + e + " } -> " +
       qType + " ";
  const auto [kb, kbName] = widened("%pf_b");
  s += p + "qk = linalg.generic {indexing_maps = [" + mapOver(qk, q.results) + ", " + mapOver(qk, k.results) + ", " +
       mapOver(qk, sd) + "], iterator_types = " + iterators(qk, k1) + "} ins(" + p + "qs, " + operands[1] +
       " : " + qType + ", " + types[1] + ") outs(" + p + "fs : " + ts + ") { ^bb0(%pf_a: " + e + ", %pf_b: " + ein +
       ", %pf_c: " + e + "): " + kb + "%pf_m = arith.mulf %pf_a, " + kbName + " : " + e + " %pf_r = arith.addf %pf_c, %pf_m : " + e + " linalg.yield %pf_r : " + e +
       " } -> " + ts + " ";
  // The op's region on each score, then the mask: an i1 mask adds 0 where true and
  // -inf elsewhere, a float one its value times log2(e).
  std::string ins = p + "qk", insTypes = ts, insMaps = idS;
  std::string body = "^bb0(%pf_s: " + e;
  if (masked) {
    ins += ", " + operands[4];
    insTypes += ", " + types[4];
    insMaps += ", " + mapOver(sd, maps[4].results);
    body += ", %pf_mk: " + elementOf(types[4]);
  }
  body += ", %pf_o: " + e + "): ";
  std::string score = "%pf_s";
  // The region: `^bb0(%arg: T): ops.. iree_linalg_ext.yield %v : T`, its argument the score.
  static const std::regex head(R"(^\s*\^bb0\(\s*(%[\w.$-]+)\s*:\s*[\w]+\s*\)\s*:)");
  static const std::regex yield(R"(iree_linalg_ext\.yield\s+(%[\w.$-]+)\s*:\s*\w+\s*$)");
  std::smatch hm, ym;
  const std::string reg = trimmed(region);
  if (!reg.empty()) {
    if (!std::regex_search(reg, hm, head)) return std::nullopt;
    std::string ops = reg.substr(size_t(hm.length(0)));
    if (!std::regex_search(ops, ym, yield)) return std::nullopt;
    const std::string result = ym[1].str();
    ops = ops.substr(0, size_t(ym.position(0)));
    const std::regex arg(std::regex_replace(hm[1].str(), std::regex(R"([.$])"), "\\$&") + R"((?![\w.$-]))");
    body += std::regex_replace(ops, arg, "%pf_s") + " ";
    score = result == hm[1].str() ? "%pf_s" : result;
  }
  if (masked) {
    if (elementOf(types[4]) == "i1") {
      body += "%pf_mv = arith.select %pf_mk, " + p + "zero, " + p + "ninf : " + e + " ";
    } else if (elementOf(types[4]) == e || elementOf(types[4]) == ein) {
      const auto [mk, mkName] = elementOf(types[4]) == e ? std::pair<std::string, std::string>{"", "%pf_mk"} : widened("%pf_mk");
      body += mk + "%pf_l2m = arith.constant 1.44269502 : " + e + " %pf_mv = arith.mulf " + mkName + ", %pf_l2m : " + e + " ";
    } else {
      return std::nullopt;
    }
    body += "%pf_ym = arith.addf " + score + ", %pf_mv : " + e + " ";
    score = "%pf_ym";
  }
  body += "linalg.yield " + score + " : " + e;
  s += p + "t = linalg.generic {indexing_maps = [" + insMaps + ", " + idS + "], iterator_types = " + iterators(sd, {}) +
       "} ins(" + ins + " : " + insTypes + ") outs(" + p + "es : " + ts + ") { " + body + " } -> " + ts + " ";
  // The softmax over the keys: a reduction of the scores to their rows, and a score
  // combined with its row's value.
  auto rowReduce = [&](const std::string& name, const std::string& init, const std::string& from, const std::string& op) {
    s += p + "f" + name + " = linalg.fill ins(" + p + init + " : " + e + ") outs(" + p + "er : " + tr + ") -> " + tr + " ";
    s += p + name + " = linalg.generic {indexing_maps = [" + idS + ", " + rowOfS + "], iterator_types = " +
         iterators(sd, k2) + "} ins(" + p + from + " : " + ts + ") outs(" + p + "f" + name + " : " + tr +
         ") { ^bb0(%pf_x: " + e + ", %pf_a: " + e + "): %pf_r = " + op + " %pf_x, %pf_a : " + e + " linalg.yield %pf_r : " + e + " } -> " +
         tr + " ";
  };
  auto withRow = [&](const std::string& name, const std::string& from, const std::string& row, const std::string& ops) {
    s += p + name + " = linalg.generic {indexing_maps = [" + idS + ", " + rowOfS + ", " + idS + "], iterator_types = " +
         iterators(sd, {}) + "} ins(" + p + from + ", " + p + row + " : " + ts + ", " + tr + ") outs(" + p + "es : " + ts +
         ") { ^bb0(%pf_x: " + e + ", %pf_w: " + e + ", %pf_o: " + e + "): " + ops + " linalg.yield %pf_r : " + e + " } -> " + ts + " ";
  };
  std::vector<std::string> pv = o.results;
  for (const std::string& d : k2) pv.push_back(d);
  if (online) {
    // One step of the streamed form: the new maximum, the factor exp2(old - new) that
    // rescales what the old one weighted, the tile's weights against the new maximum.
    for (size_t r = 1; r < 3; ++r)
      if (maps[maps.size() - 3 + r].results != rows) return std::nullopt;
    const std::string &acc = online->outs[0], &mx = online->outs[1], &sm = online->outs[2];
    const std::string idR = mapOver(rows, rows);
    auto rowwise = [&](const std::string& name, const std::vector<std::string>& ins, const std::string& ops) {
      std::string a, t, m;
      for (size_t i = 0; i < ins.size(); ++i) {
        a += "%pf_r" + std::to_string(i) + ": " + e + ", ";
        t += std::string(i ? ", " : "") + tr;
        m += idR + ", ";
      }
      s += name + " = linalg.generic {indexing_maps = [" + m + idR + "], iterator_types = " + iterators(rows, {}) +
           "} ins(" + joined(ins) + " : " + t + ") outs(" + p + "er : " + tr + ") { ^bb0(" + a + "%pf_o: " + e + "): " + ops +
           " linalg.yield %pf_y : " + e + " } -> " + tr + " ";
    };
    rowReduce("mt", "ninf", "t", "arith.maximumf");
    const std::string newMax = online->results[1], newSum = online->results[2];
    rowwise(newMax, {mx, p + "mt"}, "%pf_y = arith.maximumf %pf_r0, %pf_r1 : " + e);
    rowwise(p + "norm", {mx, newMax}, "%pf_d = arith.subf %pf_r0, %pf_r1 : " + e + " %pf_y = math.exp2 %pf_d : " + e);
    s += p + "x = linalg.generic {indexing_maps = [" + idS + ", " + rowOfS + ", " + idS + "], iterator_types = " +
         iterators(sd, {}) + "} ins(" + p + "t, " + newMax + " : " + ts + ", " + tr + ") outs(" + p + "es : " + ts +
         ") { ^bb0(%pf_x: " + e + ", %pf_w: " + e + ", %pf_o: " + e + "): %pf_d = arith.subf %pf_x, %pf_w : " + e +
         " %pf_r = math.exp2 %pf_d : " + e + " linalg.yield %pf_r : " + e + " } -> " + ts + " ";
    rowReduce("ls", "zero", "x", "arith.addf");
    rowwise(newSum, {p + "norm", sm, p + "ls"}, "%pf_m = arith.mulf %pf_r0, %pf_r1 : " + e + " %pf_y = arith.addf %pf_m, %pf_r2 : " + e);
    std::vector<std::string> pvX;
    for (const std::string& d : sd) pvX.push_back(d);
    s += p + "eo = " + emptyOf(o.results, online->outTypes[0]) + " ";
    s += p + "fo = linalg.fill ins(" + p + "zero : " + e + ") outs(" + p + "eo : " + online->outTypes[0] + ") -> " +
         online->outTypes[0] + " ";
    s += p + "pv = linalg.generic {indexing_maps = [" + mapOver(pv, pvX) + ", " + mapOver(pv, v.results) + ", " +
         mapOver(pv, o.results) + "], iterator_types = " + iterators(pv, k2) + "} ins(" + p + "x, " + operands[2] +
         " : " + ts + ", " + types[2] + ") outs(" + p + "fo : " + online->outTypes[0] + ") { ^bb0(%pf_a: " + e + ", %pf_b: " +
         ein + ", %pf_c: " + e + "): " + kb + "%pf_m = arith.mulf %pf_a, " + kbName + " : " + e + " %pf_r = arith.addf %pf_c, %pf_m : " + e +
         " linalg.yield %pf_r : " + e + " } -> " + online->outTypes[0] + " ";
    const std::string idO = mapOver(o.results, o.results);
    s += online->results[0] + " = linalg.generic {indexing_maps = [" + mapOver(o.results, rows) + ", " + idO + ", " +
         idO + ", " + idO + "], iterator_types = " + iterators(o.results, {}) + "} ins(" + p + "norm, " + acc + ", " + p +
         "pv : " + tr + ", " + online->outTypes[0] + ", " + online->outTypes[0] + ") outs(" + p + "eo : " +
         online->outTypes[0] + ") { ^bb0(%pf_n: " + e + ", %pf_a: " + e + ", %pf_b: " + e + ", %pf_o: " + e +
         "): %pf_m = arith.mulf %pf_n, %pf_a : " + e + " %pf_r = arith.addf %pf_m, %pf_b : " + e + " linalg.yield %pf_r : " + e + " } -> " +
         online->outTypes[0];
    return s;
  }
  rowReduce("m", "ninf", "t", "arith.maximumf");
  withRow("x", "t", "m", "%pf_d = arith.subf %pf_x, %pf_w : " + e + " %pf_r = math.exp2 %pf_d : " + e);
  rowReduce("l", "zero", "x", "arith.addf");
  withRow("p", "x", "l", "%pf_r = arith.divf %pf_x, %pf_w : " + e);
  // The weighted sum of V.
  std::vector<std::string> pvP;
  for (const std::string& d : sd) pvP.push_back(d);
  s += p + "fo = linalg.fill ins(" + p + "zero : " + e + ") outs(" + init + " : " + outType + ") -> " + outType + " ";
  s += result + " = linalg.generic {indexing_maps = [" + mapOver(pv, pvP) + ", " + mapOver(pv, v.results) + ", " +
       mapOver(pv, o.results) + "], iterator_types = " + iterators(pv, k2) + "} ins(" + p + "p, " + operands[2] + " : " +
       ts + ", " + types[2] + ") outs(" + p + "fo : " + outType + ") { ^bb0(%pf_a: " + e + ", %pf_b: " + ein + ", %pf_c: " + e +
       "): " + kb + "%pf_m = arith.mulf %pf_a, " + kbName + " : " + e + " %pf_r = arith.addf %pf_c, %pf_m : " + e + " linalg.yield %pf_r : " + e + " } -> " +
       outType;
  return s;
}

std::string readAttention(const std::string& text, std::vector<std::string>& notes) {
  if (text.find("iree_linalg_ext.") == std::string::npos || text.find("attention") == std::string::npos) return text;
  static const std::regex op(R"((%[\w.$-]+)(?::(\d+))?\s*=\s*iree_linalg_ext\.(attention|online_attention)\b)");
  std::map<std::string, std::string> aliases = affineMapAliases(text);
  std::string out;
  size_t last = 0;
  int count = 0;
  // An online_attention's uses (`%pf_r#1`) name its results as the generics do, up to the
  // next function.
  std::vector<std::pair<std::string, std::string>> renames;
  size_t renameUntil = 0;
  auto append = [&](size_t from, size_t to) {
    std::string piece = text.substr(from, to - from);
    if (!renames.empty() && from < renameUntil)
      for (auto& [use, name] : renames)
        for (size_t at = piece.find(use); at != std::string::npos; at = piece.find(use, at + name.size())) {
          const size_t after = at + use.size();
          if (after < piece.size() && std::isdigit(static_cast<unsigned char>(piece[after]))) continue;  // %pf_r#10
          piece.replace(at, use.size(), name);
        }
    out += piece;
  };
  for (auto it = std::sregex_iterator(text.begin(), text.end(), op); it != std::sregex_iterator(); ++it) {
    const size_t at = size_t(it->position(0));
    if (at < last) continue;
    const bool online = (*it)[3].str() == "online_attention";
    if (online != ((*it)[2].matched && (*it)[2].str() == "3")) continue;
    size_t pos = at + size_t(it->length(0));
    auto skip = [&] { pos = text.find_first_not_of(" \t\r\n", pos); };
    skip();
    if (pos == std::string::npos || text[pos] != '{') continue;
    const size_t attrEnd = closingBracket(text, pos);
    if (attrEnd == std::string::npos) continue;
    const std::string attrs = text.substr(pos, attrEnd - pos + 1);
    const size_t mapsAt = attrs.find("indexing_maps");
    const size_t open = mapsAt == std::string::npos ? mapsAt : attrs.find('[', mapsAt);
    const size_t close = open == std::string::npos ? open : closingBracket(attrs, open);
    if (close == std::string::npos) continue;
    std::vector<std::string> maps = commaList(attrs.substr(open + 1, close - open - 1));
    for (std::string& m : maps)
      if (!m.empty() && m[0] == '#' && aliases.count(m)) m = aliases[m];
    pos = attrEnd + 1;
    const std::optional<std::string> insText = parenthesized(text, pos, "ins");
    const std::optional<std::string> outsText = insText ? parenthesized(text, pos, "outs") : std::nullopt;
    if (!outsText) continue;
    skip();
    std::string region;
    if (pos != std::string::npos && text[pos] == '{') {
      const size_t regionEnd = closingBracket(text, pos);
      if (regionEnd == std::string::npos) continue;
      region = text.substr(pos + 1, regionEnd - pos - 1);
      pos = regionEnd + 1;
    }
    // The result types: one, or online_attention's three.
    size_t end = pos == std::string::npos ? text.size() : pos;
    const std::optional<std::vector<std::string>> results = resultTypes(text, end, online ? 3 : 1);
    const std::optional<Operands> in = operands(*insText), outOps = operands(*outsText);
    if (!results || !in || !outOps) continue;
    std::optional<std::string> generics;
    const std::string name = (*it)[1].str();
    std::vector<std::pair<std::string, std::string>> named;
    if (online) {
      if (outOps->values.size() != 3) continue;
      const std::string p = "%pf_att" + std::to_string(count) + "_";
      const Online state{outOps->values, outOps->types, {p + "acc", p + "max", p + "sum"}};
      generics = expand(name, maps, in->values, in->types, outOps->values[0], outOps->types[0], region, count, &state);
      for (size_t r = 0; r < 3; ++r) named.push_back({name + "#" + std::to_string(r), state.results[r]});
    } else {
      if (outOps->values.size() != 1) continue;
      generics = expand(name, maps, in->values, in->types, outOps->values[0], (*results)[0], region, count);
    }
    if (!generics) continue;  // left for the parser to refuse at the op
    append(last, at);
    out += keepingLines(text, at, end, *generics);  // the region's lines too: one line, then the padding
    last = end;
    if (!named.empty()) {
      const size_t next = text.find("func.func", end);
      if (at >= renameUntil) renames.clear();  // another function's: its names may repeat
      renames.insert(renames.end(), named.begin(), named.end());
      renameUntil = next == std::string::npos ? text.size() : next;
    }
    ++count;
  }
  if (!count) return text;
  notes.push_back("read " + std::to_string(count) + " iree_linalg_ext.attention and online_attention op(s) as the linalg "
                  "they mean: the scaled scores, the mask, the op's score region, a softmax over the keys (one step of "
                  "its streamed form for online_attention) and the weighted sum of V");
  append(last, text.size());
  return out;
}

// `gather dimension_map = [..] ins(%source, %indices) outs(%init)`: the result's loops are
// the indices' batch loops, then the source's dimensions the map does not name (the
// slice), in order; the index depth is the map's length, the indices' last dimension
// where they have one more than the batch (else 1). One generic reads the index values as
// operands (the indices once per depth, at a constant last subscript) and extracts the
// source element they and the slice loops name: polyfuse's gather.
std::optional<std::string> gatherGeneric(const std::string& result, const std::vector<int>& dimMap,
                                         const std::vector<std::string>& operands, const std::vector<std::string>& types,
                                         const std::string& init, const std::string& outType) {
  // A mask (i1, one a batch element) keeps the output's element where false.
  const bool masked = operands.size() == 3;
  if ((operands.size() != 2 && !masked) || types.size() != operands.size()) return std::nullopt;
  if (masked && elementOf(types[2]) != "i1") return std::nullopt;
  // Only ranks matter: the generic's loops take their extents from its operands, dynamic
  // ones included.
  const std::optional<std::vector<std::string>> src = extents(types[0], true), idx = extents(types[1], true),
                                                res = extents(outType, true);
  if (!src || !idx || !res) return std::nullopt;
  const size_t depth = dimMap.size(), rank = res->size();
  if (depth == 0 || depth > src->size()) return std::nullopt;
  const size_t sliceRank = src->size() - depth;
  if (rank < sliceRank) return std::nullopt;
  const size_t batch = rank - sliceRank;
  const bool explicitDepth = idx->size() == batch + 1;
  if (!explicitDepth && !(idx->size() == batch && depth == 1)) return std::nullopt;
  const std::string es = elementOf(types[0]), ei = elementOf(types[1]);
  if (es.empty() || ei.empty() || elementOf(outType) != es) return std::nullopt;
  std::vector<std::string> dims, batchDims;
  for (size_t d = 0; d < rank; ++d) dims.push_back("d" + std::to_string(d));
  batchDims.assign(dims.begin(), dims.begin() + long(batch));
  std::string maps, ins, insTypes, args;
  for (size_t k = 0; k < depth; ++k) {
    std::vector<std::string> r = batchDims;
    if (explicitDepth) r.push_back(std::to_string(k));
    maps += mapOver(dims, r) + ", ";
    ins += std::string(k ? ", " : "") + operands[1];
    insTypes += std::string(k ? ", " : "") + types[1];
    args += "%pf_i" + std::to_string(k) + ": " + ei + ", ";
  }
  if (masked) {
    maps += mapOver(dims, batchDims) + ", ";
    ins += ", " + operands[2];
    insTypes += ", " + types[2];
    args += "%pf_m: i1, ";
  }
  std::string body = "^bb0(" + args + "%pf_o: " + es + "): ";
  std::vector<std::string> subs(src->size());
  for (size_t k = 0; k < depth; ++k) {
    if (dimMap[k] < 0 || size_t(dimMap[k]) >= src->size() || !subs[size_t(dimMap[k])].empty()) return std::nullopt;
    const std::string c = "%pf_c" + std::to_string(k);
    body += c + " = arith.index_cast %pf_i" + std::to_string(k) + " : " + ei + " to index ";
    subs[size_t(dimMap[k])] = c;
  }
  for (size_t j = 0, s = 0; j < src->size(); ++j) {
    if (!subs[j].empty()) continue;
    subs[j] = "%pf_l" + std::to_string(s);
    body += subs[j] + " = linalg.index " + std::to_string(batch + s) + " : index ";
    ++s;
  }
  body += "%pf_v = tensor.extract " + operands[0] + "[" + joined(subs) + "] : " + types[0] + " ";
  if (masked) body += "%pf_k = arith.select %pf_m, %pf_v, %pf_o : " + es + " linalg.yield %pf_k : " + es;
  else body += "linalg.yield %pf_v : " + es;
  std::vector<std::string> iters(rank, "\"parallel\"");
  return result + " = linalg.generic {indexing_maps = [" + maps + mapOver(dims, dims) + "], iterator_types = [" +
         joined(iters) + "]} ins(" + ins + " : " + insTypes + ") outs(" + init + " : " + outType + ") { " + body +
         " } -> " + outType;
}

// torch-mlir's `tm_tensor.attention [{scale = s : f64}] ins(%q, %k, %v[, %mask]) outs(%o)`
// (torch's scaled_dot_product_attention): Q is B..xMxK1, K B..xK2xK1, V B..xK2xN, the mask
// B..xMxK2; softmax(Q.K^T x scale + mask).V, the scale 1/sqrt(K1) where none is given, an
// i1 mask adding 0 where true and -inf elsewhere. The same op as IREE's attention with
// these maps, so it is written as that one and read with it.
std::string readTmAttention(const std::string& text, std::vector<std::string>& notes) {
  if (text.find("tm_tensor.attention") == std::string::npos) return text;
  static const std::regex op(R"((%[\w.$-]+)\s*=\s*tm_tensor\.attention\b)");
  int serial = 0;
  auto rewrite = [&](const std::smatch& m, size_t pos) -> std::optional<Rewrite> {
    std::optional<double> scale;
    const size_t attrAt = text.find_first_not_of(" \t\r\n", pos);
    if (attrAt != std::string::npos && text[attrAt] == '{') {
      size_t after = attrAt;
      const std::optional<std::string> attrs = regionAt(text, after);
      static const std::regex scaleAttr(R"(^\s*scale\s*=\s*([-+0-9.eE]+)\s*:\s*f64\s*$)");
      std::smatch sm;
      if (!attrs || !std::regex_match(*attrs, sm, scaleAttr) || !(scale = literal(sm[1].str()))) return std::nullopt;
      pos = after;
    }
    const std::optional<OpTail> t = opTail(text, pos, true, false, 1);
    if (!t || t->in.values.size() < 3 || t->in.values.size() > 4 || t->outs.values.size() != 1) return std::nullopt;
    const Operands& in = t->in;
    const Operands& outs = t->outs;
    const std::optional<std::vector<std::string>> q = extents(in.types[0], true);
    const std::string e = elementOf(in.types[0]);
    if (!q || q->size() < 2 || !isFloatType(e)) return std::nullopt;
    if (!scale) {
      const std::optional<double> k1 = literal(q->back());
      if (!k1 || *k1 < 1) return std::nullopt;  // the default scale needs the head dimension
      scale = 1.0 / std::sqrt(*k1);
    }
    // Loops: the batch, then m, k1, k2, n.
    const size_t batch = q->size() - 2;
    std::vector<std::string> all, b;
    for (size_t d = 0; d < batch + 4; ++d) all.push_back("d" + std::to_string(d));
    b.assign(all.begin(), all.begin() + long(batch));
    auto over = [&](std::vector<std::string> tail) {
      std::vector<std::string> r = b;
      r.insert(r.end(), tail.begin(), tail.end());
      return mapOver(all, r);
    };
    const std::string M = all[batch], K1 = all[batch + 1], K2 = all[batch + 2], N = all[batch + 3];
    std::vector<std::string> maps = {over({M, K1}), over({K2, K1}), over({K2, N}), mapOver(all, {})};
    if (in.values.size() == 4) maps.push_back(over({M, K2}));
    maps.push_back(over({M, N}));
    std::ostringstream value;
    value.precision(17);
    value << *scale;
    std::string literalScale = value.str();
    if (literalScale.find_first_of(".eE") == std::string::npos) literalScale += ".0";
    const std::string sc = "%pf_sdpa_scale" + std::to_string(serial++);
    std::vector<std::string> ins = in.values, types = in.types;
    ins.insert(ins.begin() + 3, sc);
    types.insert(types.begin() + 3, e);
    const std::string generic = sc + " = arith.constant " + literalScale + " : " + e + " " + m[1].str() +
                                " = iree_linalg_ext.attention {indexing_maps = [" + joined(maps) + "]} ins(" + joined(ins) +
                                " : " + joined(types) + ") outs(" + joined(outs.values) + " : " + joined(outs.types) +
                                ") -> " + t->results[0];
    return Rewrite{generic, t->end, {}};
  };
  return rewriteEach(text, op, rewrite,
                     "tm_tensor.attention op(s) (torch's scaled_dot_product_attention) as IREE's attention, read below",
                     notes);
}

std::string readGather(const std::string& text, std::vector<std::string>& notes) {
  if (text.find("iree_linalg_ext.gather") == std::string::npos) return text;
  static const std::regex op(R"((%[\w.$-]+)\s*=\s*iree_linalg_ext\.gather\s+dimension_map\s*=\s*\[([\d,\s]*)\])");
  auto rewrite = [&](const std::smatch& m, size_t pos) -> std::optional<Rewrite> {
    std::vector<int> dimMap;
    for (const std::string& d : commaList(m[2].str()))
      if (std::optional<double> v = literal(d); v && *v >= 0 && *v < 64) dimMap.push_back(int(*v));
      else dimMap.push_back(-1);
    const std::optional<OpTail> t = opTail(text, pos, true, false, 1);
    if (!t || t->outs.values.size() != 1) return std::nullopt;
    return rewritten(gatherGeneric(m[1].str(), dimMap, t->in.values, t->in.types, t->outs.values[0], t->results[0]), t->end);
  };
  return rewriteEach(text, op, rewrite,
                     "iree_linalg_ext.gather op(s) as the generic that extracts each element from the source at the "
                     "indices' values",
                     notes);
}

// `arg_compare dimension(D) ins(%x) outs(%v, %i) [index_base(%b : index)] {region}`: one
// generic with two results reducing over loop D, keeping the element the region prefers to
// the one kept so far (region(x, kept) true) and its position: D's index, plus the base
// where one is given.
std::optional<std::string> argCompareGeneric(const std::string& result, int dim, const Operands& in, const Operands& outs,
                                             const std::optional<std::string>& base, const std::string& region) {
  // Explicit indices (a second input) are left for the parser to refuse at the op: the
  // first position where the extreme occurs is no reduction of the indices' values.
  if (in.values.size() != 1 || outs.values.size() != 2) return std::nullopt;
  const std::optional<std::vector<std::string>> src = extents(in.types[0]), res = extents(outs.types[0]);
  if (!src || !res || dim < 0 || size_t(dim) >= src->size() || res->size() + 1 != src->size()) return std::nullopt;
  const std::string ev = elementOf(in.types[0]), ei = elementOf(outs.types[1]);
  if (ev.empty() || elementOf(outs.types[0]) != ev || ei.empty() || isFloatType(ei)) return std::nullopt;
  static const std::regex head(R"(^\s*\^bb0\(\s*(%[\w.$-]+)\s*:\s*\w+\s*,\s*(%[\w.$-]+)\s*:\s*\w+\s*\)\s*:)");
  static const std::regex yield(R"(iree_linalg_ext\.yield\s+(%[\w.$-]+)\s*:\s*i1\s*$)");
  std::smatch hm, ym;
  const std::string reg = trimmed(region);
  if (!std::regex_search(reg, hm, head)) return std::nullopt;
  std::string ops = reg.substr(size_t(hm.length(0)));
  if (!std::regex_search(ops, ym, yield)) return std::nullopt;
  std::string prefers = ym[1].str();
  ops = ops.substr(0, size_t(ym.position(0)));
  auto nameOf = [](const std::string& v) {
    return std::regex(std::regex_replace(v, std::regex(R"([.$])"), "\\$&") + R"((?![\w.$-]))");
  };
  ops = std::regex_replace(std::regex_replace(ops, nameOf(hm[1].str()), "%pf_x"), nameOf(hm[2].str()), "%pf_kept");
  if (prefers == hm[1].str()) prefers = "%pf_x";
  else if (prefers == hm[2].str()) prefers = "%pf_kept";
  std::vector<std::string> dims, kept;
  for (size_t d = 0; d < src->size(); ++d) {
    dims.push_back("d" + std::to_string(d));
    if (int(d) != dim) kept.push_back(dims.back());
  }
  std::vector<std::string> iters(src->size(), "\"parallel\"");
  iters[size_t(dim)] = "\"reduction\"";
  std::string body = "^bb0(%pf_x: " + ev + ", %pf_kept: " + ev + ", %pf_kepti: " + ei + "): " + ops + " ";
  body += "%pf_k = linalg.index " + std::to_string(dim) + " : index ";
  std::string k = "%pf_k";
  if (base) {
    body += "%pf_kb = arith.addi %pf_k, " + *base + " : index ";
    k = "%pf_kb";
  }
  body += "%pf_ki = arith.index_cast " + k + " : index to " + ei + " ";
  body += "%pf_v = arith.select " + prefers + ", %pf_x, %pf_kept : " + ev + " %pf_i = arith.select " + prefers +
          ", %pf_ki, %pf_kepti : " + ei + " linalg.yield %pf_v, %pf_i : " + ev + ", " + ei;
  return result + " = linalg.generic {indexing_maps = [" + mapOver(dims, dims) + ", " + mapOver(dims, kept) + ", " +
         mapOver(dims, kept) + "], iterator_types = [" + joined(iters) + "]} ins(" + joined(in.values) + " : " +
         joined(in.types) + ") outs(" + joined(outs.values) + " : " + joined(outs.types) + ") { " + body + " } -> (" +
         outs.types[0] + ", " + outs.types[1] + ")";
}

std::string readArgCompare(const std::string& text, std::vector<std::string>& notes) {
  if (text.find("iree_linalg_ext.arg_compare") == std::string::npos) return text;
  static const std::regex op(R"((%[\w.$-]+):2\s*=\s*iree_linalg_ext\.arg_compare\s+dimension\(\s*(\d+)\s*\))");
  auto rewrite = [&](const std::smatch& m, size_t pos) -> std::optional<Rewrite> {
    const std::optional<std::string> insText = parenthesized(text, pos, "ins");
    const std::optional<std::string> outsText = insText ? parenthesized(text, pos, "outs") : std::nullopt;
    if (!outsText) return std::nullopt;
    std::optional<std::string> base;
    if (const std::optional<std::string> b = parenthesized(text, pos, "index_base")) {
      const std::optional<Operands> bo = operands(*b);
      if (!bo || bo->values.size() != 1 || bo->types[0] != "index") return std::nullopt;
      base = bo->values[0];
    }
    size_t end = pos;
    const std::optional<std::string> region = regionAt(text, end);
    if (!region) return std::nullopt;
    const std::optional<std::vector<std::string>> results = resultTypes(text, end, 2);
    const std::optional<Operands> in = operands(*insText), outOps = operands(*outsText);
    const std::optional<double> dim = literal(m[2].str());
    if (!results || !in || !outOps || !dim || *dim >= 64) return std::nullopt;
    return rewritten(argCompareGeneric(m[1].str() + ":2", int(*dim), *in, *outOps, base, *region), end);
  };
  return rewriteEach(text, op, rewrite,
                     "iree_linalg_ext.arg_compare op(s) as the generic that reduces to the element the op's region "
                     "prefers and its position",
                     notes);
}

// A region `^bb0(%a0: T0, %b0: T0, ..): ops.. yield %v : T` (a comparator's i1, true
// where the element holding the a's goes before the one holding the b's; a scan's
// combination), inlined with its arguments replaced by `args` and its own names prefixed,
// so that it can be written twice in one body; `ops` gets its ops, the result is %v's name.
std::optional<std::string> inlineRegion(const std::string& region, const std::string& yieldOp,
                                            const std::vector<std::string>& args, const std::string& prefix,
                                            std::string& ops) {
  const std::string reg = trimmed(region);
  if (reg.rfind("^bb0(", 0) != 0) return std::nullopt;
  const size_t close = closingBracket(reg, 4);
  if (close == std::string::npos) return std::nullopt;
  std::vector<std::string> params;  // `%a0: T0, %b0: T0, ..`: the names
  static const std::regex valueName(R"(%[\w.$-]+)");
  for (const std::string& a : commaList(reg.substr(5, close - 5))) {
    params.push_back(trimmed(a.substr(0, a.find(':'))));
    if (!std::regex_match(params.back(), valueName)) return std::nullopt;
  }
  if (params.size() != args.size()) return std::nullopt;
  const size_t colon = reg.find(':', close);
  if (colon == std::string::npos) return std::nullopt;
  std::string body = reg.substr(colon + 1);
  const std::regex yield(std::regex_replace(yieldOp, std::regex(R"(\.)"), "\\.") + R"(\s+(%[\w.$-]+)\s*:\s*\w+\s*$)");
  std::smatch ym;
  if (!std::regex_search(body, ym, yield)) return std::nullopt;
  std::string result = ym[1].str();
  body = body.substr(0, size_t(ym.position(0)));
  auto rename = [&](const std::string& from, const std::string& to) {
    body = renamedValue(body, from, to);
    result = renamedValue(result, from, to);
  };
  static const std::regex defined(R"((%[\w.$-]+)(?::\d+)?\s*=)");
  std::set<std::string> names;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), defined); it != std::sregex_iterator(); ++it)
    names.insert((*it)[1].str());
  for (const std::string& n : names) rename(n, "%" + prefix + "_" + n.substr(1));  // `%1` may only be digits
  for (size_t k = 0; k < args.size(); ++k) rename(params[k], args[k]);
  ops += body + " ";
  return result;
}

// A sort or top-k by ranks, as affine generics: each element's rank along dimension D is
// the number of elements the comparator puts before it (ties broken by position, so the
// order is stable), counted over a second loop j; an output position r then takes the one
// element whose rank is r, a sum over the positions with one nonzero term. Quadratic in
// D's extent, but every access is affine, and the values are exact. `keys` are the
// operands the comparator reads (a sort's outs, a top-k's values); `carried` what moves
// with them to `outs`; `positions` adds a last output of the positions themselves
// (top-k without input indices).
std::optional<std::string> rankGenerics(const std::string& result, size_t nResults, int dim, const Operands& keys,
                                        const Operands& carried, const Operands& outs, bool positions,
                                        const std::string& region, const std::string& yieldOp) {
  if (keys.values.empty() || outs.values.empty() || outs.types.size() != outs.values.size()) return std::nullopt;
  const std::optional<std::vector<std::string>> src = extents(keys.types[0], true), dst = extents(outs.types[0], true);
  if (!src || !dst || dim < 0 || size_t(dim) >= src->size() || dst->size() != src->size()) return std::nullopt;
  for (size_t d = 0; d < src->size(); ++d)
    if (int(d) != dim && (*src)[d] != (*dst)[d]) return std::nullopt;
  if (outs.values.size() != carried.values.size() + (positions ? 1 : 0) || outs.values.size() != nResults) return std::nullopt;
  for (const std::string& t : carried.types)
    if (extents(t, true) != src) return std::nullopt;
  const std::string p = "%pf_rank_" + result.substr(1);  // the op's own name: unique in its function
  // A new tensor shaped as `like` (a value of type `type`): its dynamic extents are like's.
  std::string text;
  auto empty = [&](const std::string& name, const std::string& like, const std::string& likeType, const std::string& type) {
    const std::vector<std::string> ext = *extents(type, true);
    std::vector<std::string> sizes;
    for (size_t d = 0; d < ext.size(); ++d)
      if (ext[d] == "?") {
        const std::string at = name + "_at" + std::to_string(d), size = name + "_n" + std::to_string(d);
        text += at + " = arith.constant " + std::to_string(d) + " : index " + size + " = tensor.dim " + like + ", " + at +
                " : " + likeType + " ";
        sizes.push_back(size);
      }
    text += name + " = tensor.empty(" + joined(sizes) + ") : " + type + " ";
  };
  const size_t rank = src->size();
  std::vector<std::string> dims, swapped;
  for (size_t d = 0; d < rank; ++d) dims.push_back("d" + std::to_string(d));
  const std::vector<std::string> all = [&] {
    std::vector<std::string> a = dims;
    a.push_back("d" + std::to_string(rank));
    return a;
  }();
  swapped = dims;
  swapped[size_t(dim)] = all.back();
  auto shapeOf = [](const std::vector<std::string>& ext, const std::string& elem) {
    return "tensor<" + joined(ext, "x") + "x" + elem + ">";
  };
  // Ranks: loop D is the element's position i, the last loop the other's position j.
  const std::string rankType = shapeOf(*src, "i64");
  text += p + "_c0 = arith.constant 0 : i64 ";
  empty(p + "_e", keys.values[0], keys.types[0], rankType);
  text += p + "_z = linalg.fill ins(" + p + "_c0 : i64) outs(" + p + "_e : " + rankType + ") -> " + rankType + " ";
  std::vector<std::string> ins, types, maps, args, argTypes;
  for (size_t k = 0; k < keys.values.size(); ++k) {
    const std::string e = elementOf(keys.types[k]);
    if (e.empty() || extents(keys.types[k], true) != src) return std::nullopt;
    for (bool other : {false, true}) {
      ins.push_back(keys.values[k]);
      types.push_back(keys.types[k]);
      maps.push_back(mapOver(all, other ? swapped : dims));
      args.push_back("%pf_" + std::string(other ? "j" : "i") + std::to_string(k));
      argTypes.push_back(args.back() + ": " + e);
    }
  }
  std::vector<std::string> jBeforeI, iBeforeJ;
  for (size_t k = 0; k < keys.values.size(); ++k) {
    jBeforeI.push_back("%pf_j" + std::to_string(k));
    jBeforeI.push_back("%pf_i" + std::to_string(k));
    iBeforeJ.push_back("%pf_i" + std::to_string(k));
    iBeforeJ.push_back("%pf_j" + std::to_string(k));
  }
  std::string ops;
  const std::optional<std::string> ji = inlineRegion(region, yieldOp, jBeforeI, "pf_ji", ops);
  const std::optional<std::string> ij = ji ? inlineRegion(region, yieldOp, iBeforeJ, "pf_ij", ops) : std::nullopt;
  if (!ij) return std::nullopt;
  // j counts before i where the comparator puts it first and not i first; where it puts
  // neither or both first (a tie), where j is the earlier position.
  ops += "%pf_pi = linalg.index " + std::to_string(dim) + " : index %pf_pj = linalg.index " + std::to_string(rank) +
         " : index %pf_earlier = arith.cmpi slt, %pf_pj, %pf_pi : index %pf_one = arith.constant 1 : i64 "
         "%pf_none = arith.constant 0 : i64 %pf_tie = arith.select %pf_earlier, %pf_one, %pf_none : i64 "
         "%pf_jfirst = arith.select " + *ij + ", %pf_tie, %pf_one : i64 %pf_ifirst = arith.select " + *ij +
         ", %pf_none, %pf_tie : i64 %pf_count = arith.select " + *ji + ", %pf_jfirst, %pf_ifirst : i64 "
         "%pf_sum = arith.addi %pf_acc, %pf_count : i64 linalg.yield %pf_sum : i64";
  std::vector<std::string> iters(rank + 1, "\"parallel\"");
  iters.back() = "\"reduction\"";
  maps.push_back(mapOver(all, dims));
  text += p + " = linalg.generic {indexing_maps = [" + joined(maps) + "], iterator_types = [" + joined(iters) + "]} ins(" +
          joined(ins) + " : " + joined(types) + ") outs(" + p + "_z : " + rankType + ") { ^bb0(" + joined(argTypes) +
          ", %pf_acc: i64): " + ops + " } -> " + rankType + " ";
  // Placement: loop D is the output position r, the last loop the source position i.
  std::vector<std::string> pIns = {p}, pTypes = {rankType}, pMaps = {mapOver(all, swapped)}, pArgs = {"%pf_r: i64"};
  for (size_t k = 0; k < carried.values.size(); ++k) {
    pIns.push_back(carried.values[k]);
    pTypes.push_back(carried.types[k]);
    pMaps.push_back(mapOver(all, swapped));
    pArgs.push_back("%pf_v" + std::to_string(k) + ": " + elementOf(carried.types[k]));
  }
  std::string body = "%pf_at = linalg.index " + std::to_string(dim) + " : index %pf_ri = arith.index_cast %pf_r : i64 to index "
                     "%pf_here = arith.cmpi eq, %pf_ri, %pf_at : index ";
  std::vector<std::string> zeros, outArgs, yields, yieldTypes;
  for (size_t k = 0; k < outs.values.size(); ++k) {
    const std::string e = elementOf(outs.types[k]), z = p + "_o" + std::to_string(k);
    if (e.empty() || e == "i1" || extents(outs.types[k], true) != dst) return std::nullopt;
    const bool fl = isFloatType(e);
    text += z + "c = arith.constant " + std::string(fl ? "0.0" : "0") + " : " + e + " ";
    empty(z + "e", outs.values[k], outs.types[k], outs.types[k]);
    text += z + " = linalg.fill ins(" + z + "c : " + e + ") outs(" + z + "e : " + outs.types[k] + ") -> " + outs.types[k] + " ";
    zeros.push_back(z);
    pMaps.push_back(mapOver(all, dims));
    const std::string o = "%pf_o" + std::to_string(k), n = std::to_string(k);
    outArgs.push_back(o + ": " + e);
    std::string v = "%pf_v" + n;
    if (k >= carried.values.size()) {  // the positions: the source loop's index
      if (fl) return std::nullopt;
      body += "%pf_src = linalg.index " + std::to_string(rank) + " : index %pf_srci = arith.index_cast %pf_src : index to " +
              e + " ";
      v = "%pf_srci";
    } else if (elementOf(carried.types[k]) != e) {
      return std::nullopt;
    }
    const std::string zero = "%pf_zero" + n, pick = "%pf_pick" + n, sum = "%pf_put" + n;
    body += zero + " = arith.constant " + (fl ? "0.0" : "0") + " : " + e + " " + pick + " = arith.select %pf_here, " + v +
            ", " + zero + " : " + e + " " + sum + " = " + (fl ? "arith.addf " : "arith.addi ") + o + ", " + pick + " : " +
            e + " ";
    yields.push_back(sum);
    yieldTypes.push_back(e);
  }
  pTypes.insert(pTypes.end(), outs.types.begin(), outs.types.end());
  text += (nResults > 1 ? result + ":" + std::to_string(nResults) : result) + " = linalg.generic {indexing_maps = [" +
          joined(pMaps) + "], iterator_types = [" + joined(iters) + "]} ins(" + joined(pIns) + " : " +
          joined(std::vector<std::string>(pTypes.begin(), pTypes.begin() + long(pIns.size()))) + ") outs(" +
          joined(zeros) + " : " + joined(outs.types) + ") { ^bb0(" + joined(pArgs) + ", " + joined(outArgs) + "): " + body +
          "linalg.yield " + joined(yields) + " : " + joined(yieldTypes) + " } -> " +
          (nResults > 1 ? "(" + joined(outs.types) + ")" : outs.types[0]);
  return text;
}

// `scan dimension(D) inclusive(B) ins(%in) outs(%out, %acc) {^bb0(%acc, %x): ..}`: each
// output a fold of the input along D up to it, in three generics. The start: the first
// input element (inclusive) or the accumulator (exclusive) along D; the fold: a reduction
// over a second loop k of the region where k is in the prefix (1 <= k <= i inclusive,
// k < i exclusive), else the value kept; the accumulator result: the last output along D.
// Its results have different loops, so uses of `%r#1` are renamed.
std::optional<Rewrite> scanGenerics(const std::string& result, const std::string& accResult, int dim, bool inclusive,
                                    const Operands& in, const Operands& outs, const std::string& region,
                                    const std::string& yieldOp, size_t end) {
  if (in.values.size() != 1 || outs.values.size() != 2) return std::nullopt;
  const std::optional<std::vector<std::string>> src = extents(in.types[0], true), acc = extents(outs.types[1], true);
  if (!src || !acc || dim < 0 || size_t(dim) >= src->size() || acc->size() + 1 != src->size() ||
      extents(outs.types[0], true) != src)
    return std::nullopt;
  const std::optional<double> along = literal((*src)[size_t(dim)]);
  if (!along || *along < 1) return std::nullopt;  // the accumulator is the last element: a static extent
  const std::string e = elementOf(in.types[0]);
  if (e.empty() || elementOf(outs.types[0]) != e || elementOf(outs.types[1]) != e) return std::nullopt;
  // `%r:2 = ..`: the generics are named apart and the uses `%r#0`, `%r#1` renamed; `%out,
  // %acc = ..`: the generics take those names.
  const std::string p = "%pf_scan_" + result.substr(1), D = std::to_string(dim);
  const std::string outName = accResult.empty() ? p : result, accName = accResult.empty() ? p + "_acc" : accResult;
  const size_t rank = src->size();
  std::vector<std::string> dims, kept, first, swapped, last;
  for (size_t d = 0; d < rank; ++d) dims.push_back("d" + std::to_string(d));
  std::vector<std::string> all = dims;
  all.push_back("d" + std::to_string(rank));
  swapped = first = dims;
  swapped[size_t(dim)] = all.back();
  first[size_t(dim)] = "0";
  for (size_t d = 0; d < rank; ++d)
    if (int(d) != dim) kept.push_back(dims[d]);
  last = kept;
  last.insert(last.begin() + dim, std::to_string(int64_t(*along) - 1));
  auto iters = [](size_t parallel, bool reduction) {
    std::vector<std::string> it(parallel, "\"parallel\"");
    if (reduction) it.push_back("\"reduction\"");
    return "iterator_types = [" + joined(it) + "]";
  };
  auto copy = [&](const std::string& name, const std::string& from, const std::string& fromType, const std::string& fromMap,
                  const std::string& to, const std::string& toType, const std::string& toMap, size_t loops) {
    return name + " = linalg.generic {indexing_maps = [" + fromMap + ", " + toMap + "], " + iters(loops, false) + "} ins(" +
           from + " : " + fromType + ") outs(" + to + " : " + toType + ") { ^bb0(%pf_x: " + e + ", %pf_o: " + e +
           "): linalg.yield %pf_x : " + e + " } -> " + toType + " ";
  };
  std::string text = inclusive ? copy(p + "_start", in.values[0], in.types[0], mapOver(dims, first), outs.values[0],
                                      outs.types[0], mapOver(dims, dims), rank)
                               : copy(p + "_start", outs.values[1], outs.types[1], mapOver(dims, kept), outs.values[0],
                                      outs.types[0], mapOver(dims, dims), rank);
  std::string ops;
  const std::optional<std::string> v = inlineRegion(region, yieldOp, {"%pf_acc", "%pf_x"}, "pf_f", ops);
  if (!v) return std::nullopt;
  ops += "%pf_i = linalg.index " + D + " : index %pf_k = linalg.index " + std::to_string(rank) + " : index ";
  ops += inclusive ? "%pf_one = arith.constant 1 : index %pf_after = arith.cmpi sge, %pf_k, %pf_one : index "
                     "%pf_upto = arith.cmpi sle, %pf_k, %pf_i : index %pf_in = arith.andi %pf_after, %pf_upto : i1 "
                   : "%pf_in = arith.cmpi slt, %pf_k, %pf_i : index ";
  ops += "%pf_v = arith.select %pf_in, " + *v + ", %pf_acc : " + e + " linalg.yield %pf_v : " + e;
  text += outName + " = linalg.generic {indexing_maps = [" + mapOver(all, swapped) + ", " + mapOver(all, dims) + "], " +
          iters(rank, true) + "} ins(" + in.values[0] + " : " + in.types[0] + ") outs(" + p + "_start : " + outs.types[0] +
          ") { ^bb0(%pf_x: " + e + ", %pf_acc: " + e + "): " + ops + " } -> " + outs.types[0] + " ";
  // IREE's reference stores the accumulator from position 1 on: along an extent of 1, an
  // inclusive scan leaves it as it started.
  if (inclusive && *along == 1)
    text += copy(accName, outs.values[1], outs.types[1], mapOver(kept, kept), outs.values[1], outs.types[1],
                 mapOver(kept, kept), kept.size());
  else
    text += copy(accName, outName, outs.types[0], mapOver(kept, last), outs.values[1], outs.types[1], mapOver(kept, kept),
                 kept.size());
  if (!accResult.empty()) return Rewrite{text, end, {}};
  return Rewrite{text, end, {{result + "#0", outName}, {result + "#1", accName}}};
}

std::string readScan(const std::string& text, const std::string& dialect, std::vector<std::string>& notes) {
  if (text.find(dialect + ".scan") == std::string::npos) return text;
  const std::regex op(R"((%[\w.$-]+)(?::2|\s*,\s*(%[\w.$-]+))\s*=\s*)" + dialect + R"(\.scan\b)");
  auto rewrite = [&](const std::smatch& m, size_t pos) -> std::optional<Rewrite> {
    pos = text.find_first_not_of(" \t\r\n", pos);
    if (pos != std::string::npos && text[pos] == '{') {  // {compilation_info = ..}: a schedule, not a meaning
      const size_t attrEnd = closingBracket(text, pos);
      if (attrEnd == std::string::npos) return std::nullopt;
      pos = attrEnd + 1;
    }
    const std::optional<std::string> dimText = parenthesized(text, pos, "dimension");
    const std::optional<std::string> incl = dimText ? parenthesized(text, pos, "inclusive") : std::nullopt;
    if (!incl || (trimmed(*incl) != "true" && trimmed(*incl) != "false")) return std::nullopt;
    const std::optional<OpTail> t = opTail(text, pos, true, true, 2);
    const std::optional<double> dim = literal(trimmed(*dimText));
    if (!t || !dim || *dim >= 64) return std::nullopt;
    return scanGenerics(m[1].str(), m[2].str(), int(*dim), trimmed(*incl) == "true", t->in, t->outs, t->region,
                        dialect + ".yield", t->end);
  };
  return rewriteEach(text, op, rewrite,
                     dialect + ".scan op(s) as a reduction over each output's prefix, then the last output as the "
                               "accumulator",
                     notes);
}

// `scatter dimension_map = [..] unique_indices(U) ins(%updates, %indices[, %mask])
// outs(%original) {region}` (IREE's iree_linalg_ext and torch-mlir's tm_tensor): each batch
// element's update slice written where its indices point. As affine generics, an element
// of the result looks over the batch for the updates that hit it: with a region that adds
// (scatter_add), one reduction with the original as its start; with one that replaces, a
// count of the hits and the value they bring (their sum where indices are unique, else the
// largest: torch leaves repeated indices undefined), then the original where nothing hit.
// The dimension map must name the leading dimensions, the slice filling the rest.
std::optional<std::string> scatterGenerics(const std::string& result, const std::vector<int>& dimMap, bool unique,
                                           const Operands& in, const Operands& outs, const std::string& region,
                                           const std::string& yieldOp) {
  if (in.values.size() < 2 || in.values.size() > 3 || outs.values.size() != 1) return std::nullopt;
  const std::optional<std::vector<std::string>> orig = extents(outs.types[0]), upd = extents(in.types[0]),
                                                ids = extents(in.types[1]);
  const size_t depth = dimMap.size();
  if (!orig || !upd || !ids || depth == 0 || depth > orig->size()) return std::nullopt;
  std::vector<int> sorted = dimMap;
  std::sort(sorted.begin(), sorted.end());
  for (size_t k = 0; k < depth; ++k)
    if (sorted[k] != int(k)) return std::nullopt;
  const size_t slice = orig->size() - depth;
  if (upd->size() < slice) return std::nullopt;
  const size_t batch = upd->size() - slice;
  if (ids->size() != batch + 1 || (*ids)[batch] != std::to_string(depth)) return std::nullopt;
  for (size_t d = 0; d < slice; ++d)
    if ((*upd)[batch + d] != (*orig)[depth + d]) return std::nullopt;
  for (size_t d = 0; d < batch; ++d)
    if ((*ids)[d] != (*upd)[d]) return std::nullopt;
  const std::string e = elementOf(outs.types[0]), ie = elementOf(in.types[1]);
  if (e.empty() || elementOf(in.types[0]) != e || ie.empty() || isFloatType(ie)) return std::nullopt;
  if (in.values.size() == 3 && elementOf(in.types[2]) != "i1") return std::nullopt;
  const bool fl = isFloatType(e);
  // The region: the update replaces (yields its first argument) or adds to the original.
  std::string ops;
  const std::optional<std::string> v = inlineRegion(region, yieldOp, {"%pf_u", "%pf_acc"}, "pf_f", ops);
  if (!v) return std::nullopt;
  const bool replaces = *v == "%pf_u";
  static const std::regex adds(R"(^\s*(%[\w.$-]+)\s*=\s*arith\.add[fi]\s+(%pf_u\s*,\s*%pf_acc|%pf_acc\s*,\s*%pf_u)\s*:\s*\w+\s*$)");
  std::smatch am;
  if (!replaces && !(std::regex_match(ops, am, adds) && am[1].str() == *v)) return std::nullopt;
  std::vector<std::string> dims, all, batchDims, updMap;
  for (size_t d = 0; d < orig->size(); ++d) dims.push_back("d" + std::to_string(d));
  all = dims;
  for (size_t d = 0; d < batch; ++d) {
    all.push_back("d" + std::to_string(orig->size() + d));
    batchDims.push_back(all.back());
  }
  updMap = batchDims;
  for (size_t d = 0; d < slice; ++d) updMap.push_back(dims[depth + d]);
  std::vector<std::string> iters(orig->size(), "\"parallel\"");
  iters.insert(iters.end(), batch, "\"reduction\"");
  // The match: every index equal to its dimension's loop, and the mask where one is given.
  std::vector<std::string> ins = {in.values[0]}, types = {in.types[0]}, maps = {mapOver(all, updMap)},
                           args = {"%pf_u: " + e};
  std::string match, hit;
  for (size_t k = 0; k < depth; ++k) {
    std::vector<std::string> at = batchDims;
    at.push_back(std::to_string(k));
    ins.push_back(in.values[1]);
    types.push_back(in.types[1]);
    maps.push_back(mapOver(all, at));
    const std::string n = std::to_string(k);
    args.push_back("%pf_id" + n + ": " + ie);
    match += "%pf_ix" + n + " = arith.index_cast %pf_id" + n + " : " + ie + " to index %pf_at" + n + " = linalg.index " +
             std::to_string(dimMap[k]) + " : index %pf_eq" + n + " = arith.cmpi eq, %pf_ix" + n + ", %pf_at" + n +
             " : index ";
    if (k) match += "%pf_and" + n + " = arith.andi " + hit + ", %pf_eq" + n + " : i1 ";
    hit = (k ? "%pf_and" : "%pf_eq") + n;
  }
  if (in.values.size() == 3) {
    ins.push_back(in.values[2]);
    types.push_back(in.types[2]);
    maps.push_back(mapOver(all, batchDims));
    args.push_back("%pf_mask: i1");
    match += "%pf_hit = arith.andi " + hit + ", %pf_mask : i1 ";
    hit = "%pf_hit";
  }
  const std::string p = "%pf_scatter_" + result.substr(1);
  auto generic = [&](const std::string& name, const std::string& init, const std::string& type, const std::string& elem,
                     const std::string& body) {
    std::vector<std::string> m = maps;
    m.push_back(mapOver(all, dims));
    return name + " = linalg.generic {indexing_maps = [" + joined(m) + "], iterator_types = [" + joined(iters) + "]} ins(" +
           joined(ins) + " : " + joined(types) + ") outs(" + init + " : " + type + ") { ^bb0(" + joined(args) +
           ", %pf_acc: " + elem + "): " + match + body + " } -> " + type + " ";
  };
  if (!replaces)
    return generic(result, outs.values[0], outs.types[0], e,
                   ops + "%pf_v = arith.select " + hit + ", " + *v + ", %pf_acc : " + e + " linalg.yield %pf_v : " + e);
  std::string countType = outs.types[0];
  countType.replace(countType.rfind(e), e.size(), "i64");
  std::string text = p + "_zero = arith.constant 0 : i64 " + p + "_none = arith.constant " +
                     (unique ? (fl ? "0.0" : "0") : (fl ? "0xFF800000" : "-2147483648")) + " : " + e + " " + p +
                     "_e = tensor.empty() : " + countType + " " + p + "_ev = tensor.empty() : " + outs.types[0] + " " + p +
                     "_hz = linalg.fill ins(" + p + "_zero : i64) outs(" + p + "_e : " + countType + ") -> " + countType +
                     " " + p + "_vz = linalg.fill ins(" + p + "_none : " + e + ") outs(" + p + "_ev : " + outs.types[0] +
                     ") -> " + outs.types[0] + " ";
  if (!unique && (!fl ? e != "i32" : e != "f32")) return std::nullopt;  // the lowest value written above
  text += generic(p + "_hits", p + "_hz", countType, "i64",
                  "%pf_one = arith.constant 1 : i64 %pf_no = arith.constant 0 : i64 %pf_c = arith.select " + hit +
                      ", %pf_one, %pf_no : i64 %pf_n = arith.addi %pf_acc, %pf_c : i64 linalg.yield %pf_n : i64");
  const std::string neutral = unique ? (fl ? "0.0" : "0") : (fl ? "0xFF800000" : "-2147483648");
  const std::string combine = unique ? (fl ? "arith.addf" : "arith.addi") : (fl ? "arith.maximumf" : "arith.maxsi");
  text += generic(p + "_value", p + "_vz", outs.types[0], e,
                  "%pf_none = arith.constant " + neutral + " : " + e + " %pf_c = arith.select " + hit +
                      ", %pf_u, %pf_none : " + e + " %pf_n = " + combine + " %pf_acc, %pf_c : " + e +
                      " linalg.yield %pf_n : " + e);
  text += result + " = linalg.generic {indexing_maps = [" + mapOver(dims, dims) + ", " + mapOver(dims, dims) + ", " +
          mapOver(dims, dims) + "], iterator_types = [" +
          joined(std::vector<std::string>(dims.size(), "\"parallel\"")) + "]} ins(" + p + "_hits, " + p + "_value : " +
          countType + ", " + outs.types[0] + ") outs(" + outs.values[0] + " : " + outs.types[0] +
          ") { ^bb0(%pf_h: i64, %pf_v: " + e + ", %pf_o: " + e +
          "): %pf_zero = arith.constant 0 : i64 %pf_any = arith.cmpi sgt, %pf_h, %pf_zero : i64 %pf_r = arith.select "
          "%pf_any, %pf_v, %pf_o : " + e + " linalg.yield %pf_r : " + e + " } -> " + outs.types[0];
  return text;
}

std::string readScatter(const std::string& text, const std::string& dialect, std::vector<std::string>& notes) {
  if (text.find(dialect + ".scatter") == std::string::npos) return text;
  // IREE: `dimension_map = [0, 1]`; torch-mlir: `{dimension_map = array<i64: 0, 1>}`.
  const std::regex op(R"((%[\w.$-]+)\s*=\s*)" + dialect +
                      R"(\.scatter\s*(?:\{\s*)?dimension_map\s*=\s*(?:\[([\d,\s]*)\]|array<i64:([\d,\s]*)>)\s*\}?\s*unique_indices\(\s*(true|false)\s*\))");
  auto rewrite = [&](const std::smatch& m, size_t pos) -> std::optional<Rewrite> {
    std::vector<int> dimMap;
    for (const std::string& d : commaList(m[2].matched ? m[2].str() : m[3].str()))
      if (std::optional<double> v = literal(trimmed(d)); v && *v >= 0 && *v < 64) dimMap.push_back(int(*v));
      else return std::nullopt;
    const std::optional<OpTail> t = opTail(text, pos, true, true, 1);
    if (!t) return std::nullopt;
    return rewritten(
        scatterGenerics(m[1].str(), dimMap, m[4].str() == "true", t->in, t->outs, t->region, dialect + ".yield"), t->end);
  };
  return rewriteEach(text, op, rewrite,
                     dialect + ".scatter op(s) as generics over the batch: each element of the result takes the updates "
                               "whose indices hit it",
                     notes);
}

// `sort dimension(D) outs(%a, %b.. : ..) {comparator} -> ..` (IREE's iree_linalg_ext and
// torch-mlir's tm_tensor spell it alike): the outs sorted together by the comparator on
// their elements, pairwise.
std::string readSort(const std::string& text, const std::string& dialect, std::vector<std::string>& notes) {
  if (text.find(dialect + ".sort") == std::string::npos) return text;
  const std::regex op(R"((%[\w.$-]+)(?::(\d+))?\s*=\s*)" + dialect + R"(\.sort\s+dimension\(\s*(\d+)\s*\))");
  auto rewrite = [&](const std::smatch& m, size_t pos) -> std::optional<Rewrite> {
    const std::optional<double> count = m[2].matched ? literal(m[2].str()) : std::optional<double>(1);
    if (!count || *count < 1 || *count > 16) return std::nullopt;  // results: the outs sorted together
    const size_t n = size_t(*count);
    const std::optional<OpTail> t = opTail(text, pos, false, true, n);
    const std::optional<double> dim = literal(m[3].str());
    if (!t || !dim || *dim >= 64 || t->outs.values.empty()) return std::nullopt;
    const Operands& outs = t->outs;
    return rewritten(rankGenerics(m[1].str(), n, int(*dim), outs, outs, outs, false, t->region, dialect + ".yield"), t->end);
  };
  return rewriteEach(text, op, rewrite,
                     dialect + ".sort op(s) by ranks: each element's rank counted over the others by the comparator "
                               "(ties by position), then placed at its rank",
                     notes);
}

// `topk[_v2] dimension(D) [is_sorted] ins(%values[, %indices]) outs(%v, %i) {comparator}`:
// the first k (the outputs' extent along D) of the values sorted by the comparator, and
// their indices (the input indices, or their positions).
std::string readTopk(const std::string& text, std::vector<std::string>& notes) {
  if (text.find("iree_linalg_ext.topk") == std::string::npos) return text;
  static const std::regex op(
      R"((%[\w.$-]+)(:2)?\s*=\s*iree_linalg_ext\.topk(?:_v2)?\s+dimension\(\s*(\d+)\s*\)(?:\s*is_sorted)?)");
  auto rewrite = [&](const std::smatch& m, size_t pos) -> std::optional<Rewrite> {
    const size_t n = m[2].matched ? 2 : 1;  // values only, or values and indices
    const std::optional<OpTail> t = opTail(text, pos, true, true, n);
    const std::optional<double> dim = literal(m[3].str());
    if (!t || !dim || *dim >= 64 || t->in.values.empty() || t->in.values.size() > 2) return std::nullopt;
    Operands keys;
    keys.values = {t->in.values[0]};
    keys.types = {t->in.types[0]};
    return rewritten(rankGenerics(m[1].str(), n, int(*dim), keys, n == 2 ? t->in : keys, t->outs,
                                  n == 2 && t->in.values.size() == 1, t->region, "iree_linalg_ext.yield"),
                     t->end);
  };
  return rewriteEach(text, op, rewrite,
                     "iree_linalg_ext.topk op(s) by ranks: each value's rank counted over the others by the comparator "
                     "(ties by position), the first k placed at their ranks",
                     notes);
}

}  // namespace

std::string whyLinalgExtUnread(const std::string& op) {
  static const std::string topk =
      "this form is not read: polyfuse reads values (and indices) of one shape, the outputs k of them along the "
      "dimension, its comparator an i1 of two values";
  static const std::map<std::string, std::string> why = {
      {"scan", "this form is not read: polyfuse reads one input scanned along a dimension of static extent, "
               "into an output and an accumulator of its element type"},
      {"sort", "this form is not read: polyfuse reads a sort along one dimension of operands of one shape, "
               "its comparator an i1 of their elements"},
      {"topk", topk},
      {"topk_v2", topk},
      {"scatter", "this form is not read: polyfuse reads updates, indices (and a mask) whose dimension map names the "
                  "leading dimensions, the slice filling the rest, and a region that replaces or adds"},
      {"map_store", "this form is not read: polyfuse reads static shapes, a region of index arguments whose "
                    "linearize_index and delinearize_index have constant bases"},
      {"map_load", "this form is not read: polyfuse reads static shapes, a region of index arguments whose "
                   "linearize_index and delinearize_index have constant bases, and a padding value it does not "
                   "compute where the output is larger than the source"},
      {"arg_compare", "this form is not read: polyfuse reads one input with positions from the reduced dimension "
                      "(an index_base added), not explicit indices"},
  };
  if (op == "gather" || op == "attention" || op == "online_attention")
    return "iree_linalg_ext." + op + ": this form of the op is not read (the forms polyfuse reads: docs/linalg.md)";
  const auto it = why.find(op);
  const std::string reason = it != why.end() ? it->second
                             : op.rfind("winograd", 0) == 0
                                 ? "this form is not read: polyfuse reads F(6x6, 3x3) (output_tile_size(6) kernel_size(3)) "
                                   "of static float tensors, images NHWC or NCHW, filters HWCF or FCHW"
                                 : "polyfuse does not read this op";
  return "iree_linalg_ext." + op + ": " + reason + " (read: attention, online_attention, gather, arg_compare, sort, topk, scan, scatter, "
                                             "map_load, map_store, winograd)";
}

std::string readIreeLinalgExt(const std::string& text, std::vector<std::string>& notes) {
  std::string t = readArgCompare(readGather(readAttention(readTmAttention(text, notes), notes), notes), notes);
  t = readSort(readSort(t, "iree_linalg_ext", notes), "tm_tensor", notes);
  t = readScatter(readScatter(t, "iree_linalg_ext", notes), "tm_tensor", notes);
  t = readIreeWinograd(readIreeMapOps(t, notes), notes);
  return readScan(readScan(readTopk(t, notes), "iree_linalg_ext", notes), "tm_tensor", notes);
}

}  // namespace polyfuse
