#include "mlir/TosaSpelling.h"

#include "mlir/MlirText.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace polyfuse {

namespace {

using namespace mlir_text;

// The integers of `dense<[1, 2]>` or `dense<3>` (a splat of `n`).
std::optional<std::vector<std::string>> denseInts(const std::string& dense, size_t n) {
  static const std::regex d(R"(dense<\s*\[?([-\d,\s]*)\]?\s*>)");
  std::smatch m;
  if (!std::regex_match(dense, m, d)) return std::nullopt;
  if (trimmed(m[1].str()).empty()) return n == 0 ? std::optional<std::vector<std::string>>(std::vector<std::string>{}) : std::nullopt;
  std::vector<std::string> v = commaList(m[1].str());
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  return v;
}

// MLIR's dense i64 array of `v`; an empty one has no colon.
std::string i64Array(const std::vector<std::string>& v) { return v.empty() ? "array<i64>" : "array<i64: " + joined(v) + ">"; }

constexpr size_t kMaxRegexLine = 4096;

// `"tosa.const"() <{values = X}>` is `"tosa.const"() {value = X}` (the attribute's name
// and its printing as a property changed), by plain search: X may be megabytes.
bool constValues(std::string& line) {
  const std::string op = "\"tosa.const\"()";
  const size_t at = line.find(op);
  if (at == std::string::npos) return false;
  size_t p = line.find_first_not_of(" \t", at + op.size());
  if (p == std::string::npos) return false;
  const bool property = line[p] == '<';
  if (property) ++p;
  if (line[p] != '{') return false;
  size_t q = line.find_first_not_of(" \t", p + 1);
  if (q == std::string::npos || line.compare(q, 6, "values") != 0) return false;
  const size_t eq = line.find_first_not_of(" \t", q + 6);
  if (eq == std::string::npos || line[eq] != '=') return false;
  // The attribute ends at the last `}` before the op's type, `: () ->`.
  const size_t type = line.rfind("() ->");
  const size_t close = line.rfind('}', type == std::string::npos ? std::string::npos : type);
  if (close == std::string::npos || close < eq) return false;
  const size_t end = property && close + 1 < line.size() && line[close + 1] == '>' ? close + 2 : close + 1;
  line = line.substr(0, at) + op + " {value " + line.substr(eq, close - eq) + "}" + line.substr(end);
  return true;
}

struct Reader {
  std::map<std::string, std::vector<std::string>> shapes;  // !tosa.shape values
  std::map<std::string, std::string> scalars;               // one-element constants: value text
  std::map<std::string, std::vector<std::string>> lists;    // 1-D integer constants: their elements
  std::set<std::string> applied;
  int fresh = 0;

  // `%r = tosa.op operands {attrs} : (types) -> results`, rewritten to MLIR 19's form.
  std::string op(const std::smatch& m) {
    const std::string lead = m[1].str(), name = m[2].str();
    std::string op = m[3].str();
    std::vector<std::string> operands = commaList(m[4].str());
    std::vector<std::string> attrs = m[5].matched ? commaList(m[5].str().substr(1, m[5].length() - 2)) : std::vector<std::string>{};
    std::vector<std::string> types = commaList(m[6].str());
    const std::string results = m[7].str();
    if (operands.size() != types.size()) return m[0].str();
    std::string before;  // constants the rewritten op takes, on its line
    auto drop = [&](const std::string& key) {
      for (size_t i = 0; i < attrs.size(); ++i)
        if (attrs[i].rfind(key + " ", 0) == 0 || attrs[i].rfind(key + "=", 0) == 0) {
          attrs.erase(attrs.begin() + long(i));
          applied.insert(key + " (MLIR 19 has no such attribute)");
          return;
        }
    };
    auto attrValue = [&](const std::string& key) -> std::optional<std::string> {
      for (const std::string& a : attrs)
        if (a.rfind(key + " ", 0) == 0 || a.rfind(key + "=", 0) == 0) return trimmed(a.substr(a.find('=') + 1));
      return std::nullopt;
    };
    auto operandsFrom = [&](size_t keep) {
      operands.resize(keep);
      types.resize(keep);
    };
    auto shape = [&](size_t i) -> const std::vector<std::string>* {
      auto it = i < operands.size() ? shapes.find(operands[i]) : shapes.end();
      return it == shapes.end() ? nullptr : &it->second;
    };
    auto constant = [&](const std::string& suffix, const std::string& value, const std::string& type) {
      // A fresh name: `%1` is a number, and `%1_x` no SSA name at all.
      const std::string n = "%pf_tosa" + std::to_string(++fresh) + "_" + suffix;
      before += n + " = \"tosa.const\"() {value = " + value + " : " + type + "} : () -> " + type + " ";
      return n;
    };
    drop("nan_mode");
    const std::string written = op;
    if (op == "intdiv") op = "int_div", applied.insert("tosa.intdiv is tosa.int_div");
    if (op == "reduce_product") op = "reduce_prod", applied.insert("tosa.reduce_product is tosa.reduce_prod");
    if (op == "mul" && operands.size() == 3) {
      auto it = scalars.find(operands[2]);
      attrs.push_back("shift = " + (it == scalars.end() ? std::string("0") : it->second) + " : i8");
      operandsFrom(2);
      applied.insert("tosa.mul's shift operand");
    } else if (op == "mul" && operands.size() == 2 && !attrValue("shift")) {
      // Between MLIR 19 and TOSA 1.0 the shift was an optional attribute (buddy-mlir's
      // DeepSeek-R1 export), 0 where absent.
      attrs.push_back("shift = 0 : i8");
      applied.insert("tosa.mul without a shift (0)");
    } else if ((op == "matmul" && operands.size() == 4) || (op == "negate" && operands.size() == 3) ||
               (op == "avg_pool2d" && operands.size() == 3) ||
               ((op == "conv2d" || op == "depthwise_conv2d" || op == "conv3d") && operands.size() == 5)) {
      // The zero points, one-element constants: none where all are 0, else MLIR 19's
      // quantization_info (quantized models: TFLite's int8 exports).
      const size_t keep = op == "matmul" ? 2 : op == "negate" || op == "avg_pool2d" ? 1 : 3;
      std::vector<std::string> zp;
      bool zero = true;
      for (size_t i = keep; i < operands.size(); ++i) {
        auto it = scalars.find(operands[i]);
        const std::optional<double> v = it == scalars.end() ? std::nullopt : literal(it->second);
        if (!v || *v != std::floor(*v)) return m[0].str();  // computed, or not an integer: left to MLIR
        zp.push_back(std::to_string(int64_t(*v)));
        zero &= *v == 0.0;
      }
      operandsFrom(keep);
      if (op != "avg_pool2d") drop("acc_type");
      if (zero) {
        applied.insert("zero-point operands of 0");
      } else {
        const std::string kind = op == "matmul" ? "matmul_quant<a_zp = " + zp[0] + ", b_zp = " + zp[1]
                                 : keep == 1     ? "unary_quant<input_zp = " + zp[0] + ", output_zp = " + zp[1]
                                                 : "conv_quant<input_zp = " + zp[0] + ", weight_zp = " + zp[1];
        attrs.push_back("quantization_info = #tosa." + kind + ">");
        applied.insert("zero-point operands as quantization_info");
      }
    } else if (op == "reshape" && operands.size() == 2 && shape(1)) {
      attrs.push_back("new_shape = " + i64Array(*shape(1)));
      operandsFrom(1);
    } else if (op == "tile" && operands.size() == 2 && shape(1)) {
      attrs.push_back("multiples = " + i64Array(*shape(1)));
      operandsFrom(1);
    } else if (op == "slice" && operands.size() == 3 && shape(1) && shape(2)) {
      attrs.push_back("start = " + i64Array(*shape(1)));
      attrs.push_back("size = " + i64Array(*shape(2)));
      operandsFrom(1);
    } else if (op == "pad" && operands.size() >= 2 && shape(1)) {
      const std::vector<std::string>& p = *shape(1);
      std::vector<std::string> rows;
      for (size_t i = 0; i + 1 < p.size(); i += 2) rows.push_back("[" + p[i] + ", " + p[i + 1] + "]");
      const std::string ptype = "tensor<" + std::to_string(rows.size()) + "x2xi64>";
      std::vector<std::string> nops{operands[0], constant("padding", "dense<[" + joined(rows) + "]>", ptype)};
      std::vector<std::string> ntypes{types[0], ptype};
      if (operands.size() == 3) {
        auto it = scalars.find(operands[2]);
        if (it == scalars.end()) return m[0].str();
        const std::string t = "tensor<" + elementOf(types[2]) + ">";
        nops.push_back(constant("pad_const", "dense<" + it->second + ">", t));
        ntypes.push_back(t);
      }
      operands = nops;
      types = ntypes;
    } else if (op == "transpose" && operands.size() == 1) {
      std::optional<std::string> perms = attrValue("perms");
      static const std::regex arr(R"(array<i32:\s*([-\d,\s]*)>)");
      std::smatch a;
      if (!perms || !std::regex_match(*perms, a, arr)) return m[0].str();
      const std::vector<std::string> v = commaList(a[1].str());
      const std::string t = "tensor<" + std::to_string(v.size()) + "xi32>";
      attrs.erase(std::find_if(attrs.begin(), attrs.end(), [](const std::string& x) { return x.rfind("perms", 0) == 0; }));
      operands.push_back(constant("perms", "dense<[" + joined(v) + "]>", t));
      types.push_back(t);
    } else if (op == "rescale" && operands.size() == 5) {
      // TOSA 1.0's multiplier, shift and zero points are operands (one-element constants;
      // per channel, the multiplier and shift are one a channel, MLIR 19's per_channel
      // arrays); its rounding mode names what MLIR 19's double_round says. Unsigned sides
      // (MLIR 19 spells them as ui types) and the inexact rounding are left as written, for
      // MLIR 19 to refuse at the op.
      std::vector<std::string> v;
      const bool perChannel = attrValue("per_channel").value_or("false") == "true";
      for (size_t i = 1; i < 5; ++i) {
        auto it = scalars.find(operands[i]);
        auto list = lists.find(operands[i]);
        if (it != scalars.end()) v.push_back(it->second);
        else if (perChannel && i <= 2 && list != lists.end()) v.push_back(joined(list->second));
        else return m[0].str();
      }
      const std::string mode = attrValue("rounding_mode").value_or("");
      if (mode != "\"SINGLE_ROUND\"" && mode != "\"DOUBLE_ROUND\"") return m[0].str();
      for (const char* flag : {"input_unsigned", "output_unsigned"})
        if (attrValue(flag).value_or("false") != "false") return m[0].str();
      attrs.erase(std::remove_if(attrs.begin(), attrs.end(),
                                 [](const std::string& x) {
                                   // (a transitional form has the zero points both ways)
                                   return x.rfind("rounding_mode", 0) == 0 || x.rfind("input_unsigned", 0) == 0 ||
                                          x.rfind("output_unsigned", 0) == 0 || x.rfind("input_zp", 0) == 0 ||
                                          x.rfind("output_zp", 0) == 0;
                                 }),
                  attrs.end());
      attrs.push_back(std::string("double_round = ") + (mode == "\"DOUBLE_ROUND\"" ? "true" : "false"));
      attrs.push_back("multiplier = array<i32: " + v[0] + ">");
      attrs.push_back("shift = array<i8: " + v[1] + ">");
      attrs.push_back("input_zp = " + v[2] + " : i32");
      attrs.push_back("output_zp = " + v[3] + " : i32");
      operandsFrom(1);
    } else if (op == "clamp" && attrValue("min_val") && attrValue("max_val")) {
      auto number = [](const std::string& v) { return trimmed(v.substr(0, v.find(':'))); };
      const std::string lo = number(*attrValue("min_val")), hi = number(*attrValue("max_val"));
      const bool fp = isFloatType(elementOf(types[0]));
      auto asInt = [](const std::string& v) {
        const double d = literal(v).value_or(0.0);
        return std::to_string(d < -9.2e18 ? INT64_MIN : d > 9.2e18 ? INT64_MAX : int64_t(d));
      };
      auto asFloat = [](const std::string& v) {
        return v.find_first_of(".eEn") == std::string::npos ? v + ".0" : v;
      };
      attrs.erase(std::remove_if(attrs.begin(), attrs.end(),
                                 [](const std::string& x) { return x.rfind("min_val", 0) == 0 || x.rfind("max_val", 0) == 0; }),
                  attrs.end());
      attrs.push_back("min_int = " + (fp ? asInt(lo) : lo) + " : i64");
      attrs.push_back("max_int = " + (fp ? asInt(hi) : hi) + " : i64");
      attrs.push_back("min_fp = " + (fp ? lo : asFloat(lo)) + " : f32");
      attrs.push_back("max_fp = " + (fp ? hi : asFloat(hi)) + " : f32");
    } else if (before.empty() && op == written && m[0].str().find("nan_mode") == std::string::npos) {
      return m[0].str();
    }
    applied.insert("tosa." + op);
    return lead + before + name + " = tosa." + op + " " + joined(operands) +
           (attrs.empty() ? "" : " {" + joined(attrs) + "}") + " : (" + joined(types) + ") -> " + results;
  }
};

}  // namespace

std::string readTosa10(const std::string& text, std::vector<std::string>& notes) {
  if (text.find("tosa.") == std::string::npos) return text;
  static const std::regex constShape(
      R"(^(\s*)(%[\w.$-]+)\s*=\s*(?:tosa\.const_shape|"tosa\.const_shape"\s*\(\s*\))\s*(?:<?\{\s*values?\s*=\s*(dense<[^>]*>)\s*:\s*tensor<[^>]*>\s*\}>?|values\(\s*(dense<[^>]*>)\s*:\s*tensor<[^>]*>\s*\))\s*:\s*\(\)\s*->\s*!tosa\.shape<(\d+)>\s*$)");
  static const std::regex scalarConst(
      R"(^\s*(%[\w.$-]+)\s*=\s*(?:"tosa\.const"\(\)\s*\{\s*value\s*=\s*|arith\.constant\s+)dense<\s*\[?\s*([-+\w.]+)\s*\]?\s*>\s*:\s*tensor<(?:1x)?\w+>\s*(?:\}|$))");
  static const std::regex listConst(
      R"(^\s*(%[\w.$-]+)\s*=\s*"tosa\.const"\(\)\s*\{\s*value\s*=\s*dense<\s*\[([-+\d,\s]*)\]\s*>\s*:\s*tensor<\d+xi\d+>\s*\})");
  static const std::regex axis(R"(\btosa\.(reduce_\w+|argmax)(\s+%[\w.$-]+)\s+axis\((\d+)\))");
  static const std::regex opLine(
      R"(^(\s*)(%[\w.$-]+)\s*=\s*tosa\.(\w+)\s+([^{:]*?)\s*(\{[^{}]*\})?\s*:\s*\((.*)\)\s*->\s*(.*?)\s*$)");
  static const std::regex genericForm(R"re(^(\s*%[\w.$-]+\s*=\s*)"tosa\.(\w+)"\s*\(([^()]*)\)\s*(\{[^{}]*\})?\s*:)re");
  Reader r;
  std::string out;
  for (size_t b = 0; b <= text.size();) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    std::string line = text.substr(b, e - b);
    if (line.find("tosa.") != std::string::npos) {
      if (constValues(line)) r.applied.insert("tosa.const's values");
    }
    // One-element constants (a pad's value, a zero point), tosa's or arith's, as the
    // operands that TOSA 1.0 made of attributes name them.
    if ((line.find("tosa.const") != std::string::npos || line.find("arith.constant") != std::string::npos) &&
        line.size() <= kMaxRegexLine) {
      std::smatch m;
      if (std::regex_search(line, m, scalarConst)) r.scalars[m[1].str()] = m[2].str();
      else if (std::regex_search(line, m, listConst))
        if (std::optional<std::vector<std::string>> v = denseInts("dense<[" + m[2].str() + "]>", 0); v && !v->empty())
          r.lists[m[1].str()] = *v;
    }
    // std::regex recurses per character: a long line (a constant's elements) gets the
    // plain rewrite above only.
    if (line.find("tosa.") != std::string::npos && line.size() <= kMaxRegexLine) {
      std::smatch m;
      if (std::regex_match(line, m, constShape)) {
        std::optional<std::vector<std::string>> v =
            denseInts(m[3].matched ? m[3].str() : m[4].str(), size_t(std::stoul(m[5].str())));
        if (v) {
          r.shapes[m[2].str()] = *v;
          r.applied.insert("tosa.const_shape");
          line = m[1].str();  // read where it is used
        }
      }
      if (std::regex_search(line, axis)) {
        line = std::regex_replace(line, axis, "tosa.$1$2 {axis = $3 : i32}");
        r.applied.insert("axis(..)");
      }
      if (std::regex_match(line, m, opLine)) {
        line = r.op(m);
      } else if (line.find("\"tosa.") != std::string::npos && line.find("<{") == std::string::npos &&
                 std::regex_search(line, m, genericForm) && m[2].str() != "const") {
        // The generic form, `"tosa.reshape"(%x, %shape) : (..) -> ..`: in the custom form
        // MLIR 19's TOSA ops print (operands, attributes, the function type), where the
        // rewrite above applies; kept as written where it changes nothing.
        const std::string custom = m[1].str() + "tosa." + m[2].str() + " " + m[3].str() +
                                   (m[4].matched ? " " + m[4].str() : std::string()) + " :" + m.suffix().str();
        std::smatch c;
        if (std::regex_match(custom, c, opLine))
          if (std::string rewritten = r.op(c); rewritten != custom) line = rewritten;
      }
    }
    out += line;
    if (e < text.size()) out += '\n';
    b = e + 1;
  }
  if (r.applied.empty()) return text;
  notes.push_back("read TOSA 1.0 in MLIR 19's TOSA spelling: " + joined(std::vector<std::string>(r.applied.begin(), r.applied.end())));
  return out;
}

}  // namespace polyfuse
