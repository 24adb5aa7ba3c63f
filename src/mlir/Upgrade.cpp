#include "mlir/Upgrade.h"

#include "mlir/MlirText.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string_view>

namespace polyfuse {

namespace {

using namespace mlir_text;

// `marker`: a substring every match contains. std::regex walks a large file slowly (a
// 10 MB file of comments took 10 s); a plain search for the marker skips the rules a
// file does not need.
struct Rename {
  const char* marker;  // "func ": the word func, after a space or '{' and before a space
  const char* pattern;
  const char* replacement;
  const char* note;
};

// Renames that keep the operands as they are.
const Rename kRenames[] = {
    {"builtin.func", R"(\bbuiltin\.func\b)", "func.func", "builtin.func is now func.func"},
    {"func ", R"((^|[\s{])func(\s+(?:private\s+)?@))", "$1func.func$2", "func is now func.func"},
    {"arith.maxf", R"(\barith\.maxf\b)", "arith.maximumf", "arith.maxf is now arith.maximumf"},
    {"arith.minf", R"(\barith\.minf\b)", "arith.minimumf", "arith.minf is now arith.minimumf"},
    // Before 2024, the unsigned matmul was an op of its own; now it is matmul's cast.
    {"linalg.matmul_unsigned", R"(\blinalg\.matmul_unsigned(\s+ins\b))", "linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}$1",
     "linalg.matmul_unsigned is now linalg.matmul with cast_unsigned"},
    // Newer MLIR (20) moved pack and unpack into linalg; MLIR 19 spells them tensor's.
    {"linalg.pack", R"(\blinalg\.pack\b)", "tensor.pack", "linalg.pack is tensor.pack in MLIR 19"},
    {"linalg.unpack", R"(\blinalg\.unpack\b)", "tensor.unpack", "linalg.unpack is tensor.unpack in MLIR 19"},
    {"elided_large_const", R"(opaque<"elided_large_const",\s*"0xDEADBEEF">)", "dense_resource<__elided__>",
     "elided constants (opaque<\"elided_large_const\", ..>) are now dense_resource<__elided__>"},
    // TOSA before 2023 (torch-mlir's TOSA exports of that time): tosa.mul's shift was an
    // i32, and avg_pool2d accumulated in its element type without naming it (f32 here;
    // other types are left for MLIR to refuse at the op).
    {"tosa.mul", R"((tosa\.mul\b[^\n]*\bshift\s*=\s*-?\d+\s*:\s*)i32\b)", "$1i8", "tosa.mul's shift is an i8"},
    {"tosa.avg_pool2d", R"((tosa\.avg_pool2d\b[^\n{]*\{)(?![^\n}]*acc_type)([^\n]*:\s*\(tensor<[^>\n]*xf32>\)))",
     "$1acc_type = f32, $2", "tosa.avg_pool2d of f32 accumulates in f32 (acc_type)"},
    // MLIR 21 renamed bufferization.to_memref, and both casts name their source type too.
    {"bufferization.to_buffer",
     R"(\bbufferization\.to_buffer(\s+%[\w.$-]+(?:\s+read_only)?)\s*:\s*tensor<[^>\n]*>\s+to\s+(memref<[^>\n]*>))",
     "bufferization.to_memref$1 : $2", "bufferization.to_buffer is bufferization.to_memref in MLIR 19"},
    {"bufferization.to_tensor",
     R"(\bbufferization\.to_tensor(\s+%[\w.$-]+(?:\s+restrict)?(?:\s+writable)?)\s*:\s*(memref<[^>\n]*>)\s+to\s+tensor<[^>\n]*>)",
     "bufferization.to_tensor$1 : $2", "bufferization.to_tensor names only its source type in MLIR 19"},
};

// `linalg.init_tensor [%d, 4] : tensor<?x4xf32>` is `tensor.empty(%d) : tensor<?x4xf32>`:
// the static sizes live in the type alone.
std::string upgradeInitTensor(const std::string& text, bool& applied) {
  if (text.find("linalg.init_tensor") == std::string::npos) return text;
  static const std::regex initTensor(R"(linalg\.init_tensor\s*\[([^\]]*)\])");
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), initTensor);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    out += text.substr(last, size_t(m.position(0)) - last);
    std::string dynamic, item, list = m[1].str() + ",";
    for (char c : list) {
      if (c != ',') {
        item += c;
        continue;
      }
      size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
      std::string v = b == std::string::npos ? "" : item.substr(b, e - b + 1);
      if (!v.empty() && v[0] == '%') dynamic += (dynamic.empty() ? "" : ", ") + v;
      item.clear();
    }
    out += "tensor.empty(" + dynamic + ")";
    last = size_t(m.position(0) + m.length(0));
    applied = true;
  }
  return out + text.substr(last);
}

// `s` as an extent: digits only, at most 12 of them (a larger one is no tensor's size).
std::optional<int64_t> extentValue(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  if (b == std::string::npos || e - b + 1 > 12) return std::nullopt;
  int64_t v = 0;
  for (size_t k = b; k <= e; ++k) {
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return std::nullopt;
    v = v * 10 + (s[k] - '0');
  }
  return v;
}

// The extents of `2x?x4xf32` (`?` kept), the element type (`index` too) left.
std::vector<std::string> typeExtents(const std::string& type) {
  std::vector<std::string> sizes;
  for (size_t b = 0;;) {
    const size_t x = type.find('x', b);
    if (x == std::string::npos) return sizes;
    const std::string d = type.substr(b, x - b);
    if (d != "?" && !extentValue(d)) return sizes;  // the element type begins
    sizes.push_back(d);
    b = x + 1;
  }
}

// Before 2024, `tensor.expand_shape %x [[0, 1], [2]] : tensor<8x32xf32> into
// tensor<2x4x32xf32>` took its result sizes from the type; now they are spelled out in
// `output_shape`. A static result type gives them. A dynamic one gets them as MLIR then
// inferred them: each `?` (one a group) is its group's source extent over the group's
// other sizes, named by ops put before the op (see below where): a constant where the extent
// is static (in the type, or where the operand is a `tensor.cast` of a static tensor:
// torch-mlir's grouped convolution casts its input to `?` sizes, then splits the channels
// into groups), else the operand's `tensor.dim` divided by the other sizes. A group of two
// `?` is left for MLIR's parser to refuse at the op.
std::string upgradeExpandShape(const std::string& text, bool& applied) {
  if (text.find("tensor.expand_shape") == std::string::npos || text.find(" into ") == std::string::npos) return text;
  static const std::regex expand(
      R"((tensor\.expand_shape\s+(%[\w.$#-]+)\s*\[((?:\s*\[[\d,\s]*\],?)*)\s*\])(\s*:\s*tensor<([^>]*)>\s*into\s*tensor<([^>]*)>))");
  static const std::regex group(R"(\[([\d,\s]*)\])");
  std::string out;
  size_t last = 0;
  int serial = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), expand); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    std::vector<std::string> sizes = typeExtents(m[6].str());
    std::string defs;
    if (std::find(sizes.begin(), sizes.end(), "?") != sizes.end()) {
      // The operand's static extents, from `%x = tensor.cast %y : tensor<S> to`.
      const std::regex cast(std::regex_replace(m[2].str(), std::regex(R"([.$])"), "\\$&") +
                            R"(\s*=\s*tensor\.cast\s+%[\w.$#-]+\s*:\s*tensor<([^>]*)>\s*to)");
      const size_t fn = text.rfind("func.func", size_t(m.position(0)));  // names are the function's own
      const size_t from = fn == std::string::npos ? 0 : fn;
      const std::string before = text.substr(from, size_t(m.position(0)) - from);
      std::string castType;
      for (auto c = std::sregex_iterator(before.begin(), before.end(), cast); c != std::sregex_iterator(); ++c)
        castType = (*c)[1].str();  // the last: the definition this use sees
      const std::vector<std::string> src = typeExtents(castType.empty() ? m[5].str() : castType);
      std::vector<std::vector<size_t>> groups;
      const std::string reassoc = m[3].str();
      for (auto g = std::sregex_iterator(reassoc.begin(), reassoc.end(), group); g != std::sregex_iterator(); ++g) {
        groups.emplace_back();
        const std::string list = (*g)[1].str();
        for (size_t b = 0; b < list.size();) {
          const size_t e = std::min(list.find(',', b), list.size());
          if (const std::optional<int64_t> d = extentValue(list.substr(b, e - b))) groups.back().push_back(size_t(*d));
          b = e + 1;
        }
      }
      bool known = groups.size() == src.size();
      for (size_t g = 0; g < groups.size() && known; ++g) {
        int64_t rest = 1;
        size_t unknown = sizes.size();
        for (size_t d : groups[g]) {
          const std::optional<int64_t> size = d < sizes.size() ? extentValue(sizes[d]) : std::nullopt;
          if (d < sizes.size() && sizes[d] == "?" && unknown == sizes.size()) unknown = d;
          else if (!size || *size == 0 || rest > (int64_t(1) << 40) / *size) known = false;
          else rest *= *size;
        }
        if (!known || unknown == sizes.size()) continue;
        const std::optional<int64_t> whole = extentValue(src[g]);
        const std::string name = "%pf_expand" + std::to_string(serial) + "_" + std::to_string(unknown);
        if (whole) {
          known = *whole % rest == 0;
          if (!known) break;
          defs += name + " = arith.constant " + std::to_string(*whole / rest) + " : index ";
        } else if (src[g] == "?") {
          defs += name + "_at = arith.constant " + std::to_string(g) + " : index " + name + (rest == 1 ? "" : "_whole") +
                  " = tensor.dim " + m[2].str() + ", " + name + "_at : tensor<" + m[5].str() + "> ";
          if (rest != 1)
            defs += name + "_rest = arith.constant " + std::to_string(rest) + " : index " + name + " = arith.divui " + name +
                    "_whole, " + name + "_rest : index ";
        } else {
          known = false;
          break;
        }
        sizes[unknown] = name;
      }
      if (!known || std::find(sizes.begin(), sizes.end(), "?") != sizes.end()) continue;
      ++serial;
    }
    // The sizes' ops go at the end of the line before, where it holds no comment, so the
    // op keeps its column in messages; else before the op's result name, on its line.
    size_t at = size_t(m.position(0));
    if (!defs.empty()) {
      const size_t lineStart = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
      const size_t before = lineStart == 0 ? std::string::npos : text.rfind('\n', lineStart - 2);
      const size_t prevStart = before == std::string::npos ? 0 : before + 1;
      if (lineStart > 0 && text.substr(prevStart, lineStart - prevStart).find("//") == std::string::npos && lineStart - 1 >= last) {
        at = lineStart - 1;
        defs = " " + defs;
      } else {
        at = text.find_first_not_of(" \t", lineStart);
      }
      if (at < last) continue;
    }
    out += text.substr(last, at - last) + defs + text.substr(at, size_t(m.position(0)) - at) + m[1].str() +
           " output_shape [" + joined(sizes) + "]" + m[4].str();
    last = size_t(m.position(0) + m.length(0));
    applied = true;
  }
  return out + text.substr(last);
}

// `%v` of element type `from` as `to`, as linalg's default signed cast converts it.
std::string castTo(const std::string& v, const std::string& from, const std::string& to, bool isUnsigned,
                   const std::string& name, std::string& body) {
  if (from == to) return v;
  const bool ff = isFloatType(from), ft = isFloatType(to);
  const int bf = *typeBits(from), bt = *typeBits(to);  // checked by the caller
  std::string op;
  if (ff && ft) op = bf < bt || (bf == bt && to == "f32") ? "arith.extf" : "arith.truncf";
  else if (!ff && ft) op = isUnsigned ? "arith.uitofp" : "arith.sitofp";
  else if (!ff && !ft) op = bf < bt ? (isUnsigned ? "arith.extui" : "arith.extsi") : "arith.trunci";
  else op = isUnsigned ? "arith.fptoui" : "arith.fptosi";
  body += " " + name + " = " + op + " " + v + " : " + from + " to " + to;
  return name;
}

// At `pos` (whitespace skipped), a structured op's `ins(..) outs(..)` and, on tensors,
// `-> T`: what each holds, `pos` moved past them; none otherwise.
struct InsOuts {
  std::string ins, outs, result;  // result: empty on memrefs
};
std::optional<InsOuts> insOutsAt(const std::string& text, size_t& pos) {
  size_t p = pos;
  const std::optional<std::string> in = parenthesized(text, p, "ins");
  const std::optional<std::string> out = in ? parenthesized(text, p, "outs") : std::nullopt;
  if (!out) return std::nullopt;
  InsOuts io{*in, *out, ""};
  if (const size_t arrow = text.find_first_not_of(" \t\r\n", p); arrow != std::string::npos && text.compare(arrow, 2, "->") == 0) {
    const std::optional<std::vector<std::string>> t = resultTypes(text, p, 1);
    if (!t) return std::nullopt;
    io.result = (*t)[0];
  }
  pos = p;
  return io;
}

// A contraction's body from its operands `a` and `b` already in the result's type `e`:
// the accumulator %pf_c plus their product, yielded.
void multiplyAdd(const std::string& a, const std::string& b, const std::string& e, std::string& body) {
  const bool fp = isFloatType(e);
  body += std::string(" %pf_m = ") + (fp ? "arith.mulf " : "arith.muli ") + a + ", " + b + " : " + e;
  body += std::string(" %pf_s = ") + (fp ? "arith.addf " : "arith.addi ") + "%pf_c, %pf_m : " + e;
  body += " linalg.yield %pf_s : " + e;
}

// The linalg.generic text of maps, iterator types, operands and a one-line body.
std::string genericText(const std::string& maps, const std::string& iterators, const InsOuts& io, const std::string& body) {
  return "linalg.generic {indexing_maps = [" + maps + "], iterator_types = [" + iterators + "]} ins(" + io.ins + ") outs(" +
         io.outs + ") { " + body + " }" + (io.result.empty() ? "" : " -> " + io.result);
}

// MLIR 20 gave linalg.matmul and batch_matmul explicit `indexing_maps` (a transposed
// operand: torch's Linear, B as [N, K]), and MLIR 21 added linalg.contract with the same
// syntax; MLIR 19 reads neither. Each becomes the linalg.generic it means: the maps as
// given, a loop parallel where the result's map names it and a reduction elsewhere, the
// body casting the operands to the result's type (signed unless the op says
// cast_unsigned), multiplying and adding. The generic takes the op's lines (blank lines
// after it keep the rest where they were).
std::string upgradeMatmulMaps(const std::string& text, bool& applied) {
  if (text.find("indexing_maps") == std::string::npos) return text;
  static const std::regex head(R"(\blinalg\.(matmul|batch_matmul|batch_reduce_matmul|contract)\s+indexing_maps\s*=\s*\[)");
  const std::map<std::string, std::string> aliases = affineMapAliases(text);
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), head); it != std::sregex_iterator(); ++it) {
    const size_t at = size_t(it->position(0));
    if (at < last) continue;
    const size_t mapsOpen = at + size_t(it->length(0)) - 1, mapsClose = closingBracket(text, mapsOpen);
    if (mapsClose == std::string::npos) continue;
    const std::vector<std::string> maps = commaList(text.substr(mapsOpen + 1, mapsClose - mapsOpen - 1));
    size_t p = text.find_first_not_of(" \t\r\n", mapsClose + 1);
    std::string attrs;
    if (p != std::string::npos && text[p] == '{') {
      const size_t e = closingBracket(text, p);
      if (e == std::string::npos) continue;
      attrs = text.substr(p + 1, e - p - 1);
      p = text.find_first_not_of(" \t\r\n", e + 1);
    }
    if (p == std::string::npos) continue;
    const std::optional<InsOuts> io = insOutsAt(text, p);
    if (!io) continue;
    const size_t end = p;
    // Operands and types: `%a, %b : ta, tb` and `%c : tc`.
    const std::optional<Operands> in = operands(io->ins), outOps = operands(io->outs);
    if (!in || !outOps || in->values.size() != 2 || outOps->values.size() != 1 || maps.size() != 3) continue;
    const std::vector<std::string>& inTypes = in->types;
    const std::string& outType = outOps->types[0];
    // The loops: from the result's map, a loop it names is parallel.
    std::string resultMap = maps[2];
    if (resultMap[0] == '#') {
      auto a = aliases.find(resultMap);
      if (a == aliases.end()) continue;
      resultMap = a->second;
    }
    const size_t dimsOpen = resultMap.find('('), dimsClose = dimsOpen == std::string::npos ? dimsOpen : closingBracket(resultMap, dimsOpen);
    const size_t arrow = dimsClose == std::string::npos ? dimsClose : resultMap.find("->", dimsClose);
    if (arrow == std::string::npos) continue;
    const std::vector<std::string> dims = commaList(resultMap.substr(dimsOpen + 1, dimsClose - dimsOpen - 1));
    const std::string results = resultMap.substr(arrow + 2);
    std::string iterators;
    for (const std::string& d : dims) {
      const std::regex word("\\b" + d + "\\b");
      iterators += std::string(iterators.empty() ? "" : ", ") + (std::regex_search(results, word) ? "\"parallel\"" : "\"reduction\"");
    }
    const bool isUnsigned = attrs.find("cast_unsigned") != std::string::npos;
    const std::string ea = elementOf(inTypes[0]), eb = elementOf(inTypes[1]), ec = elementOf(outType);
    if (!typeBits(ea) || !typeBits(eb) || !typeBits(ec)) continue;  // left for MLIR 19 to refuse at the op
    std::string body = "^bb0(%pf_a: " + ea + ", %pf_b: " + eb + ", %pf_c: " + ec + "):";
    const std::string a = castTo("%pf_a", ea, ec, isUnsigned, "%pf_ca", body), b = castTo("%pf_b", eb, ec, isUnsigned, "%pf_cb", body);
    multiplyAdd(a, b, ec, body);
    out += text.substr(last, at - last) + keepingLines(text, at, end, genericText(joined(maps), iterators, *io, body));
    last = end;
    applied = true;
  }
  return out + text.substr(last);
}

// Newer MLIR gives linalg.map's mapper the init's element as its last argument
// (`(%a: f32, %b: f32, %out: f32)` for two inputs); MLIR 19's mapper takes the inputs'
// alone. The init is then an input as well, where the body may read its element: the
// same values, in MLIR 19's arity. The short form (`linalg.map { arith.addf }`) is the
// same in both.
std::string upgradeMapInit(const std::string& text, bool& applied) {
  if (text.find("linalg.map") == std::string::npos) return text;
  static const std::regex head(R"(\blinalg\.map\b)");
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), head); it != std::sregex_iterator(); ++it) {
    const size_t at = size_t(it->position(0) + it->length(0));
    if (at < last) continue;
    size_t p = at;
    const size_t insAt = text.find_first_not_of(" \t\r\n", p);
    const std::optional<std::string> in = parenthesized(text, p, "ins");
    const size_t afterIns = p, outsAt = text.find_first_not_of(" \t\r\n", p);
    const std::optional<std::string> init = parenthesized(text, p, "outs");
    if (!init) continue;
    const size_t open = text.find_first_not_of(" \t\r\n", p);
    if (open == std::string::npos || text[open] != '(') continue;
    const size_t close = closingBracket(text, open);
    if (close == std::string::npos) continue;
    const size_t arguments = size_t(std::count(text.begin() + long(open), text.begin() + long(close), '%'));
    const std::optional<Operands> ins = in ? operands(*in) : Operands{};
    const std::optional<Operands> outs = operands(*init);
    if (!ins || !outs || outs->values.size() != 1 || arguments != ins->values.size() + 1) continue;
    std::vector<std::string> values = ins->values, types = ins->types;
    values.push_back(outs->values[0]);
    types.push_back(outs->types[0]);
    const std::string merged = "ins(" + joined(values) + " : " + joined(types) + ")";
    if (in) out += text.substr(last, insAt - last) + merged + text.substr(afterIns, open - afterIns);
    else out += text.substr(last, outsAt - last) + merged + " " + text.substr(outsAt, open - outsAt);
    last = open;
    applied = true;
  }
  return applied ? out + text.substr(last) : text;
}

// The dims of a tensor type (`tensor<2x?x4xf32>`: 3); none for another type.
std::optional<size_t> rankOf(const std::string& type) {
  const size_t open = type.find('<'), close = type.rfind('>');
  if (type.rfind("tensor<", 0) != 0 || open == std::string::npos || close == std::string::npos) return std::nullopt;
  return typeExtents(type.substr(open + 1, close - open - 1)).size();
}

// `(d0, .., d{n-1})`, the loops of a map over n of them.
std::string loopList(size_t n) {
  std::string s = "(";
  for (size_t i = 0; i < n; ++i) s += (i ? ", d" : "d") + std::to_string(i);
  return s + ")";
}

// The integers of a strides or dilations attribute (`dense<2> : tensor<2xi64>`,
// `dense<[2, 1]> : vector<2xi64>`), `n` of them; ones where the attribute is absent.
std::optional<std::vector<int64_t>> windowSteps(const std::string& attrs, const std::string& key, size_t n) {
  const std::regex re("\\b" + key + R"(\s*=\s*dense<\s*\[?([-\d,\s]*)\]?\s*>)");
  std::smatch m;
  if (!std::regex_search(attrs, m, re))  // absent: ones; spelled another way (hex): unread
    return std::regex_search(attrs, std::regex("\\b" + key + "\\s*=")) ? std::nullopt
                                                                       : std::optional<std::vector<int64_t>>(std::vector<int64_t>(n, 1));
  std::vector<int64_t> v;
  for (const std::string& x : commaList(m[1].str())) {
    const std::optional<int64_t> e = extentValue(x);
    if (!e) return std::nullopt;
    v.push_back(*e);
  }
  if (v.size() == 1) v.assign(n, v[0]);
  if (v.size() != n) return std::nullopt;
  return v;
}

// The body of linalg.elementwise's `kind` on operands `a` (and `b`, `c`) of element type
// `e` (the result's); none for a kind MLIR 21 does not define.
std::optional<std::string> elementwiseBody(const std::string& kind, const std::vector<std::string>& v, const std::string& e,
                                           std::string& body) {
  const bool fp = isFloatType(e);
  auto op = [&](const std::string& name, size_t arity) -> std::optional<std::string> {
    if (v.size() != arity) return std::nullopt;
    body += " %pf_r = " + name + " " + v[0] + (arity > 1 ? ", " + v[1] : "") + " : " + e;
    return "%pf_r";
  };
  static const std::map<std::string, std::string> unaryFloat = {
      {"exp", "math.exp"},     {"log", "math.log"},     {"abs", "math.absf"},   {"ceil", "math.ceil"},
      {"floor", "math.floor"}, {"negf", "arith.negf"},  {"round", "math.round"}, {"sqrt", "math.sqrt"},
      {"rsqrt", "math.rsqrt"}, {"tanh", "math.tanh"},   {"erf", "math.erf"}};
  if (fp && unaryFloat.count(kind)) return op(unaryFloat.at(kind), 1);
  if (!fp && kind == "abs") return op("math.absi", 1);
  if (kind == "square") {
    if (v.size() != 1) return std::nullopt;
    body += std::string(" %pf_r = ") + (fp ? "arith.mulf " : "arith.muli ") + v[0] + ", " + v[0] + " : " + e;
    return "%pf_r";
  }
  if (kind == "reciprocal" && fp) {
    if (v.size() != 1) return std::nullopt;
    body += " %pf_one = arith.constant 1.0 : " + e + " %pf_r = arith.divf %pf_one, " + v[0] + " : " + e;
    return "%pf_r";
  }
  static const std::map<std::string, std::pair<const char*, const char*>> binary = {
      {"add", {"arith.addf", "arith.addi"}},         {"sub", {"arith.subf", "arith.subi"}},
      {"mul", {"arith.mulf", "arith.muli"}},         {"div", {"arith.divf", "arith.divsi"}},
      {"div_unsigned", {nullptr, "arith.divui"}},    {"max_signed", {"arith.maximumf", "arith.maxsi"}},
      {"min_signed", {"arith.minimumf", "arith.minsi"}}, {"max_unsigned", {"arith.maximumf", "arith.maxui"}},
      {"min_unsigned", {"arith.minimumf", "arith.minui"}}, {"powf", {"math.powf", nullptr}}};
  // On booleans linalg adds by `or` and multiplies by `and`, and has no other arithmetic.
  if (e == "i1") {
    if (kind == "add") return op("arith.ori", 2);
    if (kind == "mul") return op("arith.andi", 2);
    if (kind != "max_signed" && kind != "min_signed" && kind != "max_unsigned" && kind != "min_unsigned" &&
        kind != "select")
      return std::nullopt;
  }
  if (auto it = binary.find(kind); it != binary.end()) {
    const char* name = fp ? it->second.first : it->second.second;
    if (!name) return std::nullopt;
    return op(name, 2);
  }
  if (kind == "select" && v.size() == 3) {
    body += " %pf_r = arith.select " + v[0] + ", " + v[1] + ", " + v[2] + " : " + e;
    return "%pf_r";
  }
  return std::nullopt;
}

// Named ops newer than MLIR 19, as the linalg.generic each is defined to mean:
// linalg.elementwise (MLIR 21: one op with a `kind`, and indexing maps that default to
// the identity), and the convolutions conv_2d_nhwgc_gfhwc, conv_2d_nhwgc_gfhwc_q and
// conv_2d_nchw_fchw_q (MLIR 20; `_q` subtracts a zero point from each operand). Operands
// cast to the result's type, signed, as linalg's named ops do. An op this cannot read is
// left as written, for MLIR 19 to refuse at the op.
std::string upgradeNewerNamedOps(const std::string& text, std::set<std::string>& applied) {
  if (text.find("linalg.elementwise") == std::string::npos && text.find("linalg.conv_2d_nhwgc_gfhwc") == std::string::npos &&
      text.find("linalg.conv_2d_nchw_fchw_q") == std::string::npos)
    return text;
  static const std::regex head(R"(\blinalg\.(elementwise|conv_2d_nhwgc_gfhwc_q|conv_2d_nhwgc_gfhwc|conv_2d_nchw_fchw_q)\b)");
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), head); it != std::sregex_iterator(); ++it) {
    const size_t at = size_t(it->position(0));
    if (at < last) continue;
    const std::string name = (*it)[1].str();
    size_t p = at + size_t(it->length(0));
    // elementwise: `kind = #linalg.elementwise_kind<K>` and `indexing_maps = [..]`, in
    // either order; every op: an attribute dictionary.
    std::string kind, attrs;
    std::vector<std::string> maps;
    bool bad = false;
    for (;;) {
      p = text.find_first_not_of(" \t\r\n", p);
      if (p == std::string::npos) break;
      std::smatch m;
      static const std::regex kindRe(R"(^kind\s*=\s*#linalg\.elementwise_kind<\s*(\w+)\s*>)");
      static const std::regex mapsRe(R"(^indexing_maps\s*=\s*\[)");
      const std::string rest = text.substr(p, 200);
      if (std::regex_search(rest, m, kindRe)) {
        kind = m[1].str();
        p += size_t(m.length(0));
      } else if (std::regex_search(rest, m, mapsRe)) {
        const size_t open = p + size_t(m.length(0)) - 1, close = closingBracket(text, open);
        if (close == std::string::npos) { bad = true; break; }
        maps = commaList(text.substr(open + 1, close - open - 1));
        p = close + 1;
      } else if (text[p] == '{') {
        const size_t close = closingBracket(text, p);
        if (close == std::string::npos) { bad = true; break; }
        attrs = text.substr(p + 1, close - p - 1);
        p = close + 1;
      } else {
        break;
      }
    }
    if (bad || p == std::string::npos) continue;
    const std::optional<InsOuts> io = insOutsAt(text, p);
    if (!io) continue;
    const size_t end = p;
    const std::optional<Operands> in = operands(io->ins), outOps = operands(io->outs);
    if (!in || !outOps || outOps->values.size() != 1) continue;
    const std::string outType = outOps->types[0], ec = elementOf(outType);
    const std::optional<size_t> outRank = rankOf(outType);
    if (!outRank || !typeBits(ec)) continue;
    std::vector<std::string> elems;
    for (const std::string& t : in->types) elems.push_back(elementOf(t).empty() ? t : elementOf(t));
    for (const std::string& e : elems)
      if (!typeBits(e)) bad = true;
    if (bad) continue;
    std::string body = "^bb0(";
    for (size_t i = 0; i < elems.size(); ++i) body += "%pf_" + std::to_string(i) + ": " + elems[i] + ", ";
    body += "%pf_c: " + ec + "):";
    std::string iterators, mapList;
    if (name == "elementwise") {
      const size_t n = *outRank;
      std::string identity = "affine_map<" + loopList(n) + " -> " + loopList(n) + ">";
      if (maps.empty()) maps.assign(in->values.size() + 1, identity);
      if (maps.size() != in->values.size() + 1) continue;
      for (size_t i = 0; i < n; ++i) iterators += std::string(i ? ", " : "") + "\"parallel\"";
      mapList = joined(maps);
      // select's condition stays an i1; every other operand is cast to the result's type.
      std::vector<std::string> v;
      for (size_t i = 0; i < elems.size(); ++i) {
        const std::string a = "%pf_" + std::to_string(i);
        v.push_back(kind == "select" && i == 0 ? a : castTo(a, elems[i], ec, false, a + "c", body));
      }
      const std::optional<std::string> r = elementwiseBody(kind, v, ec, body);
      if (!r) continue;
      body += " linalg.yield " + *r + " : " + ec;
    } else {
      const bool quantized = name.back() == 'q';
      if (in->values.size() != (quantized ? 4u : 2u) || *outRank != (name == "conv_2d_nchw_fchw_q" ? 4u : 5u)) continue;
      const std::optional<std::vector<int64_t>> st = windowSteps(attrs, "strides", 2), di = windowSteps(attrs, "dilations", 2);
      if (!st || !di) continue;
      auto window = [&](const std::string& o, const std::string& k, size_t i) {
        return o + " * " + std::to_string((*st)[i]) + " + " + k + " * " + std::to_string((*di)[i]);
      };
      std::string input, filter, output, loops;
      if (name == "conv_2d_nchw_fchw_q") {
        // (n, f, oh, ow, c, kh, kw)
        loops = loopList(7);
        input = "(d0, d4, " + window("d2", "d5", 0) + ", " + window("d3", "d6", 1) + ")";
        filter = "(d1, d4, d5, d6)";
        output = "(d0, d1, d2, d3)";
        iterators = "\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"reduction\", \"reduction\", \"reduction\"";
      } else {
        // (n, oh, ow, g, fg, kh, kw, c)
        loops = loopList(8);
        input = "(d0, " + window("d1", "d5", 0) + ", " + window("d2", "d6", 1) + ", d3, d7)";
        filter = "(d3, d4, d5, d6, d7)";
        output = "(d0, d1, d2, d3, d4)";
        iterators = "\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"parallel\", \"reduction\", \"reduction\", "
                    "\"reduction\"";
      }
      mapList = "affine_map<" + loops + " -> " + input + ">, affine_map<" + loops + " -> " + filter + ">";
      if (quantized) mapList += ", affine_map<" + loops + " -> ()>, affine_map<" + loops + " -> ()>";
      mapList += ", affine_map<" + loops + " -> " + output + ">";
      std::string a = castTo("%pf_0", elems[0], ec, false, "%pf_0c", body), b = castTo("%pf_1", elems[1], ec, false, "%pf_1c", body);
      if (quantized) {
        const std::string za = castTo("%pf_2", elems[2], ec, false, "%pf_2c", body),
                          zb = castTo("%pf_3", elems[3], ec, false, "%pf_3c", body);
        const std::string sub = isFloatType(ec) ? "arith.subf " : "arith.subi ";
        body += " %pf_a = " + sub + a + ", " + za + " : " + ec + " %pf_b = " + sub + b + ", " + zb + " : " + ec;
        a = "%pf_a", b = "%pf_b";
      }
      multiplyAdd(a, b, ec, body);
    }
    out += text.substr(last, at - last) + keepingLines(text, at, end, genericText(mapList, iterators, *io, body));
    last = end;
    applied.insert("linalg." + name);
  }
  return out + text.substr(last);
}

// math.isnan, isinf, isfinite and isnormal (MLIR 20) as the comparisons MLIR 19 spells
// them with, on the same line: NaN is unordered with itself; the others compare the
// magnitude with infinity and the smallest normal value, whose bits are the type's. The
// helper values are named after the result (`%pf_mag_r`), so each is defined once. A
// class of another element type, or of a dynamic shape (no constant of it), is left for
// MLIR 19 to refuse at the op. fastmath flags are dropped: exact comparisons are one
// answer they allow.
std::string upgradeFloatClasses(const std::string& text, bool& applied) {
  if (text.find("math.is") == std::string::npos) return text;
  static const std::regex op(
      R"((%[\w.$-]+)(\s*=\s*)math\.(isnan|isinf|isfinite|isnormal)\s+(%[\w.$#-]+)(?:\s+fastmath<[^>\n]*>)?\s*:\s*((?:tensor|vector)<[\dx]*(f16|bf16|f32|f64)>|(f16|bf16|f32|f64)\b))");
  // The bits of +infinity and of the smallest normal value, as MLIR's hexadecimal float literals.
  static const std::map<std::string, std::pair<const char*, const char*>> bits = {
      {"f16", {"0x7C00", "0x0400"}},
      {"bf16", {"0x7F80", "0x0080"}},
      {"f32", {"0x7F800000", "0x00800000"}},
      {"f64", {"0x7FF0000000000000", "0x0010000000000000"}}};
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), op); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    const std::string r = m[1].str(), eq = m[2].str(), kind = m[3].str(), x = m[4].str(), type = m[5].str();
    const std::string elem = m[6].matched ? m[6].str() : m[7].str();
    out.append(text, last, size_t(m.position(0)) - last);
    last = size_t(m.position(0) + m.length(0));
    if (kind == "isnan") {
      out += r + eq + "arith.cmpf uno, " + x + ", " + x + " : " + type;
      continue;
    }
    const std::string name = r.substr(1), mag = "%pf_mag_" + name, inf = "%pf_inf_" + name;
    auto constant = [&](const char* hex) { return m[6].matched ? "dense<" + std::string(hex) + "> : " + type : std::string(hex) + " : " + type; };
    out += mag + " = math.absf " + x + " : " + type + " " + inf + " = arith.constant " + constant(bits.at(elem).first) + " ";
    if (kind == "isinf") {
      out += r + eq + "arith.cmpf oeq, " + mag + ", " + inf + " : " + type;
    } else if (kind == "isfinite") {
      out += r + eq + "arith.cmpf one, " + mag + ", " + inf + " : " + type;
    } else {
      const std::string normal = "%pf_normal_" + name, bounded = "%pf_bounded_" + name, least = "%pf_least_" + name;
      out += least + " = arith.constant " + constant(bits.at(elem).second) + " " + normal + " = arith.cmpf oge, " + mag + ", " +
             least + " : " + type + " " + bounded + " = arith.cmpf one, " + mag + ", " + inf + " : " + type + " " + r + eq +
             "arith.andi " + normal + ", " + bounded + " : " + (m[6].matched ? type.substr(0, type.size() - elem.size() - 1) + "i1>" : "i1");
    }
  }
  if (last == 0) return text;
  applied = true;
  out.append(text, last, std::string::npos);
  return out;
}

// The transform dialect's scripts beside the payload (`transform.named_sequence
// @__transform_main`, `transform.sequence`: MLIR's tests schedule the functions with them)
// say how MLIR should tile and vectorize, and compute nothing; polyfuse makes its own
// schedule. Each op at the start of a line, with its signature and region, is blanked
// (newlines kept, so lines and columns stay where they were).
std::string dropTransformScripts(const std::string& text, bool& applied) {
  if (text.find("transform.") == std::string::npos) return text;
  static const std::regex op(R"((^|\n)[ \t]*(transform\.\w+))");
  std::string out = text;
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), op); it != std::sregex_iterator(); ++it) {
    const size_t at = size_t(it->position(2));
    if (at < last) continue;
    // The op's end: its region's closing brace, or its line's end for one without a
    // region. Parentheses (a signature, `failures(..)`) may hold braces of attributes.
    size_t end = std::string::npos;
    for (size_t i = at; i < text.size() && end == std::string::npos; ++i) {
      if (text[i] == '(' || text[i] == '[') {
        const size_t close = closingBracket(text, i);
        if (close == std::string::npos) break;
        i = close;
      } else if (text[i] == '{') {
        end = closingBracket(text, i);
        if (end == std::string::npos) break;
        ++end;
      } else if (text[i] == '\n') {
        const size_t next = text.find_first_not_of(" \t\r\n", i);
        if (next == std::string::npos || text[next] != '{') end = i;
      }
    }
    if (end == std::string::npos) continue;
    for (size_t i = at; i < end; ++i)
      if (out[i] != '\n') out[i] = ' ';
    last = end;
    applied = true;
  }
  return applied ? out : text;
}

// IREE's dumps wrap the function in hal.executable ops whose custom syntax needs IREE's
// dialects. Keep the func.func ops and the attribute aliases, blank the rest (newlines
// kept, so every line and column stays where it was in the user's file).
std::string unwrapHal(const std::string& text, bool& applied) {
  static const std::regex hal(R"(\bhal\.executable\b)");
  if (text.find("hal.executable") == std::string::npos || !std::regex_search(text, hal)) return text;
  std::string out(text.size(), ' ');
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') out[i] = '\n';
  // Attribute aliases: lines starting with '#'.
  for (size_t b = 0; b < text.size();) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    size_t f = text.find_first_not_of(" \t", b);
    if (f < e && text[f] == '#') out.replace(b, e - b, text, b, e - b);
    b = e + 1;
  }
  static const std::regex fn(R"(\bfunc\.func\b)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), fn); it != std::sregex_iterator(); ++it) {
    size_t b = size_t(it->position(0)), open = text.find('{', b);
    if (open == std::string::npos) break;
    int depth = 0;
    size_t e = open;
    for (; e < text.size(); ++e) {
      if (text[e] == '{') ++depth;
      if (text[e] == '}' && --depth == 0) break;
    }
    if (e >= text.size()) break;
    out.replace(b, e + 1 - b, text, b, e + 1 - b);
  }
  applied = true;
  return out;
}

bool mayMatch(std::string_view s, const Rename& r) {
  const std::string_view m = r.marker;
  if (m != "func ") return s.find(m) != std::string_view::npos;
  for (size_t i = s.find("func"); i != std::string::npos; i = s.find("func", i + 1)) {
    const bool before = i == 0 || std::isspace(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '{';
    if (before && i + 4 < s.size() && std::isspace(static_cast<unsigned char>(s[i + 4]))) return true;
  }
  return false;
}

// Applies r to each line that holds its marker: a regex over a whole file of megabytes
// is slow, and every rename matches within a line.
bool renameLines(std::string& s, const Rename& r) {
  const std::regex re(r.pattern);
  std::string out;
  bool any = false;
  for (size_t b = 0; b < s.size();) {
    size_t e = s.find('\n', b);
    e = e == std::string::npos ? s.size() : e + 1;
    const std::string_view line(s.data() + b, e - b);
    if (mayMatch(line, r)) {
      const std::string l(line), t = std::regex_replace(l, re, r.replacement);
      any |= t != l;
      out += t;
    } else {
      out += line;
    }
    b = e;
  }
  if (any) s = std::move(out);
  return any;
}

}  // namespace

std::string upgradeMlir(const std::string& text, std::vector<std::string>& notes) {
  std::vector<std::string> applied;
  bool hal = false, init = false;
  std::string s = unwrapHal(text, hal);
  if (hal) applied.push_back("the functions inside IREE's hal.executable wrappers were read alone");
  bool transform = false;
  s = dropTransformScripts(s, transform);
  if (transform)
    notes.push_back("dropped the transform dialect's scripts: they say how MLIR would schedule the functions, and polyfuse "
                    "makes its own schedule");
  s = upgradeInitTensor(s, init);
  if (init) applied.push_back("linalg.init_tensor is now tensor.empty");
  bool expand = false;
  s = upgradeExpandShape(s, expand);
  if (expand) applied.push_back("tensor.expand_shape names its result sizes in output_shape");
  bool maps = false;
  s = upgradeMatmulMaps(s, maps);
  bool mapInit = false;
  s = upgradeMapInit(s, mapInit);
  if (mapInit)
    notes.push_back("read newer MLIR's linalg.map, whose mapper takes the init's element last, in MLIR 19's arity: the init "
                    "an input as well");
  std::set<std::string> named;
  s = upgradeNewerNamedOps(s, named);
  bool classes = false;
  s = upgradeFloatClasses(s, classes);

  for (const Rename& r : kRenames)
    if (mayMatch(s, r) && renameLines(s, r)) applied.push_back(r.note);
  if (!applied.empty()) {
    std::string n = "upgraded older MLIR spellings: ";
    for (size_t i = 0; i < applied.size(); ++i) n += (i ? "; " : "") + applied[i];
    notes.push_back(n);
  }
  if (maps)
    notes.push_back("read newer MLIR's spellings: linalg.matmul, batch_matmul, batch_reduce_matmul and contract with "
                    "indexing_maps (MLIR 20, 21) as the linalg.generic each means");
  if (classes) notes.push_back("read math.isnan, isinf, isfinite and isnormal (MLIR 20) as the float comparisons each means");
  if (!named.empty())
    notes.push_back("read named ops newer than MLIR 19 as the linalg.generic each means: " +
                    joined(std::vector<std::string>(named.begin(), named.end())));
  return s;
}

}  // namespace polyfuse
