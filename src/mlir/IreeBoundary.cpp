#include "mlir/IreeBoundary.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "mlir/MlirText.h"

namespace polyfuse {

namespace {

using mlir_text::closingBracket;
using mlir_text::commaList;

// An SSA name and a ranked tensor type, as the patterns below capture them.
#define PF_SSA R"((%[\w.$#-]+))"
#define PF_TENSOR R"((tensor<[^>]*>))"
#define PF_BUFFER_OR_TENSOR R"(((?:tensor|memref)<[^>]*>))"

const char* const kMarkers[] = {"util.", "hal.tensor.", "check.expect_", "bufferization.materialize_in_destination",
                                "bufferization.alloc_tensor", "vector.print",
                                "flow.tensor.reshape", "flow.tensor.bitcast", "flow.tensor.dynamic_constant", "flow.tensor.tie_shape", "hal.fence", "iree.abi.transients", "tpp.add", "tpp.relu",
                                "flow.dispatch.region",
                                "iree_encoding."};

// A value given the same value under another name: MLIR's spelling of it.
std::string alias(const std::string& result, const std::string& value, const std::string& type) {
  return result + " = tensor.cast " + value + " : " + type + " to " + type;
}

// The extents of `tensor<4x8xf32>`, if all are static, and the number of elements;
// false past 2^40 elements, the most polyfuse models (MLIR then reports the line).
bool staticExtents(const std::string& inner, std::vector<std::string>& extents, int64_t& elements) {
  constexpr int64_t kLimit = int64_t(1) << 40;
  elements = 1;
  size_t b = 0;
  for (size_t x; (x = inner.find('x', b)) != std::string::npos; b = x + 1) {
    const std::string d = inner.substr(b, x - b);
    if (d.empty() || d.size() > 13 || d.find_first_not_of("0123456789") != std::string::npos) return false;
    const int64_t e = std::stoll(d);
    if (e > kLimit || (e > 0 && elements > kLimit / e)) return false;
    elements *= e;
    extents.push_back(d);
  }
  return true;
}

// flow.tensor.reshape of static shapes: a collapse to one dimension, then an expansion
// to the result's (both on the op's line). The importer splits the loops that read
// through them where the groupings nest, and says at this line where they do not.
std::string reshape(const std::string& result, const std::string& value, const std::string& from, const std::string& to,
                    int& counter) {
  std::vector<std::string> a, b;
  int64_t n = 0, resultElements = 0;
  if (!staticExtents(from, a, n) || !staticExtents(to, b, resultElements)) return "";
  const std::string elem = from.substr(from.rfind('x') + 1);
  auto group = [](size_t k) {
    std::string g = "[[";
    for (size_t i = 0; i < k; ++i) g += (i ? ", " : "") + std::to_string(i);
    return g + "]]";
  };
  const std::string flat = "tensor<" + std::to_string(n) + "x" + elem + ">";
  const std::string tmp = "%pf_reshape_" + std::to_string(counter++);
  std::string out;
  if (a.empty()) out = tmp + " = tensor.expand_shape " + value + " [] output_shape [1] : tensor<" + from + "> into " + flat;
  else out = tmp + " = tensor.collapse_shape " + value + " " + group(a.size()) + " : tensor<" + from + "> into " + flat;
  if (b.empty()) return out + " " + result + " = tensor.collapse_shape " + tmp + " [] : " + flat + " into tensor<" + to + ">";
  std::string sizes;
  for (auto& e : b) sizes += (sizes.empty() ? "" : ", ") + e;
  return out + " " + result + " = tensor.expand_shape " + tmp + " " + group(b.size()) + " output_shape [" + sizes + "] : " +
         flat + " into tensor<" + to + ">";
}

// `flow.tensor.bitcast` between integer types of static shapes (IREE's sub-byte tests):
// the source's elements in row-major order, each wide element the r = W / N narrow ones
// of its bits, lowest first (a packed i1 mask: bit k of byte j is element 8j + k). Read
// as a generic that takes each wide element apart (shift, truncate), or one that puts r
// narrow ones together (a sum of shifted, zero-extended parts: their bits are disjoint);
// reshapes around it. Empty when the cast is not of this kind.
std::string bitcast(const std::string& result, const std::string& value, const std::string& from, const std::string& to,
                    int& counter) {
  std::vector<std::string> a, b;
  int64_t n = 0, m = 0;
  if (!staticExtents(from, a, n) || !staticExtents(to, b, m)) return "";
  const std::string fromElem = from.substr(from.rfind('x') + 1), toElem = to.substr(to.rfind('x') + 1);
  const std::optional<int> fw = mlir_text::typeBits(fromElem), tw = mlir_text::typeBits(toElem);
  if (!fw || !tw || fromElem[0] != 'i' || toElem[0] != 'i') return "";
  if (*fw == *tw) return n == m ? reshape(result, value, from, to, counter) : "";
  const bool unpack = *fw > *tw;
  const int wide = unpack ? *fw : *tw, narrow = unpack ? *tw : *fw, r = wide / narrow;
  const std::string W = "i" + std::to_string(wide), N = "i" + std::to_string(narrow);
  const int64_t words = unpack ? n : m;
  if (wide % narrow || (unpack ? m != n * r : n != m * r)) return "";
  const std::string p = "%pf_bitcast_" + std::to_string(counter++) + "_";
  const std::string flat = std::to_string(words) + "x" + W, parts = std::to_string(words) + "x" + std::to_string(r) + "x" + N;
  const std::string maps = R"(indexing_maps = [affine_map<(d0, d1) -> ()" + std::string(unpack ? "d0" : "d0, d1") +
                           ")>, affine_map<(d0, d1) -> (" + (unpack ? "d0, d1" : "d0") + ")>]";
  const std::string shift = p + "q = linalg.index 1 : index " + p + "qi = arith.index_cast " + p + "q : index to " + W + " " +
                            p + "w = arith.constant " + std::to_string(narrow) + " : " + W + " " + p + "s = arith.muli " +
                            p + "qi, " + p + "w : " + W + " ";
  std::string out = reshape(p + "in", value, from, unpack ? flat : parts, counter) + " " + p + "init = tensor.empty() : tensor<" +
                    (unpack ? parts : flat) + "> ";
  if (unpack) {
    out += p + "out = linalg.generic {" + maps + R"(, iterator_types = ["parallel", "parallel"]} ins()" + p + "in : tensor<" +
           flat + ">) outs(" + p + "init : tensor<" + parts + ">) { ^bb0(" + p + "a: " + W + ", " + p + "b: " + N + "): " + shift +
           p + "h = arith.shrui " + p + "a, " + p + "s : " + W + " " + p + "t = arith.trunci " + p + "h : " + W + " to " + N +
           " linalg.yield " + p + "t : " + N + " } -> tensor<" + parts + ">";
  } else {
    out += p + "zero = arith.constant 0 : " + W + " " + p + "acc = linalg.fill ins(" + p + "zero : " + W + ") outs(" + p +
           "init : tensor<" + flat + ">) -> tensor<" + flat + "> " + p + "out = linalg.generic {" + maps +
           R"(, iterator_types = ["parallel", "reduction"]} ins()" + p + "in : tensor<" + parts + ">) outs(" + p +
           "acc : tensor<" + flat + ">) { ^bb0(" + p + "a: " + N + ", " + p + "b: " + W + "): " + shift + p + "x = arith.extui " +
           p + "a : " + N + " to " + W + " " + p + "h = arith.shli " + p + "x, " + p + "s : " + W + " " + p + "t = arith.addi " +
           p + "b, " + p + "h : " + W + " linalg.yield " + p + "t : " + W + " } -> tensor<" + flat + ">";
  }
  return out + " " + reshape(result, p + "out", unpack ? parts : flat, to, counter);
}

// The end of the parenthesized list that starts at `open`.
size_t closing(const std::string& s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth == 0) return i;
  }
  return std::string::npos;
}

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// `check.expect_almost_eq_const(%r, dense<..> : T) : T` (IREE: the value tested, then
// what it should be, and the tested value's type), or `check.expect_almost_eq(%a, %b, %tol)
// : T1, T2, f32` (tpp-mlir: a type for each operand, the tested value either one), or
// `check.expect_eq(%a, %b) : T` (IREE: two values of one type): the
// tensors a check reads, with their types; none when the line is not such a check.
// (Parsed by hand: a regular expression with `.*` recurses once a character in
// libstdc++, and these lines hold whole constants.)
std::vector<std::pair<std::string, std::string>> checked(const std::string& line) {
  const std::string l = trimmed(line);
  if (l.rfind("check.expect_", 0) != 0) return {};
  const size_t open = l.find('(');
  const size_t close = open == std::string::npos ? open : closingBracket(l, open);
  const size_t colon = close == std::string::npos ? close : l.find(':', close);
  if (colon == std::string::npos) return {};
  const std::vector<std::string> ops = commaList(l.substr(open + 1, close - open - 1));
  const std::vector<std::string> types = commaList(l.substr(colon + 1));
  // A buffer too (tpp-mlir checks memrefs; Buffers.h reads the function on them).
  auto tensor = [](const std::string& t) { return (t.rfind("tensor<", 0) == 0 || t.rfind("memref<", 0) == 0) && t.back() == '>'; };
  auto ssa = [](const std::string& v) {
    return v.size() >= 2 && v[0] == '%' &&
           std::all_of(v.begin() + 1, v.end(), [](char c) {
             return std::isalnum(static_cast<unsigned char>(c)) || std::string("_.$#-").find(c) != std::string::npos;
           });
  };
  std::vector<std::pair<std::string, std::string>> out;
  if (types.size() > 1 && types.size() == ops.size()) {
    for (size_t k = 0; k < ops.size(); ++k)
      if (ssa(ops[k]) && tensor(types[k])) out.push_back({ops[k], types[k]});
  } else if (!ops.empty() && types.size() == 1 && ssa(ops[0]) && tensor(types[0])) {
    out.push_back({ops[0], types[0]});
    // IREE's `check.expect_eq(%a, %b) : T` compares two values of one type: both are results.
    if (ops.size() >= 2 && ssa(ops[1]) && l.find("_const(") == std::string::npos) out.push_back({ops[1], types[0]});
  }
  return out;
}

// Whether `value` is defined in lines [from, to) as a constant (what a check compares with).
bool definedAsConstant(const std::vector<std::string>& lines, size_t from, size_t to, const std::string& value) {
  for (size_t i = from; i < to; ++i) {
    const std::string l = trimmed(lines[i]);
    if (l.rfind(value, 0) != 0) continue;
    const std::string rest = trimmed(l.substr(value.size()));
    if (rest.empty() || rest[0] != '=') continue;
    const std::string op = trimmed(rest.substr(1));
    return op.rfind("arith.constant", 0) == 0 || op.rfind("util.unfoldable_constant", 0) == 0;
  }
  return false;
}

// `%v = vector.transfer_read %t[..], %pad : tensor<..>, vector<..>` (or a memref, the
// types possibly on the next line) whose vector only a `vector.print` reads (tpp-mlir's
// tests print a result): the vector, the tensor read and its type; none for another line.
struct PrintedRead {
  std::string vector, tensor, type;
  bool twoLines = false;
};
std::optional<PrintedRead> printedRead(const std::string& line, const std::string& next) {
  static const std::regex read(PF_SSA R"(\s*=\s*vector\.transfer_read\s+)" PF_SSA R"(\[[^\]]*\][^:]*:\s*)" PF_BUFFER_OR_TENSOR
                               R"(\s*,\s*vector<[^>]*>)");
  if (line.find("vector.transfer_read") == std::string::npos) return std::nullopt;
  std::smatch m;
  if (std::regex_search(line, m, read)) return PrintedRead{m[1].str(), m[2].str(), m[3].str()};
  const std::string joined = line + " " + trimmed(next);
  if (line.find(':') != std::string::npos || !std::regex_search(joined, m, read)) return std::nullopt;
  return PrintedRead{m[1].str(), m[2].str(), m[3].str(), true};
}

// The types after the colon of a `return %a, %b : T1, T2` line; empty for another line.
std::string returnedTypes(const std::string& line) {
  std::string l = trimmed(line);
  if (l.rfind("func.return", 0) == 0) l = l.substr(5);
  if (l.rfind("return ", 0) != 0) return "";
  const size_t colon = l.find(':');
  return colon == std::string::npos ? "" : trimmed(l.substr(colon + 1));
}

// IREE's module state in ml_program's spelling, which the importer reads (loads of a
// global nothing stores are its initial value):
//   util.global private [mutable] @w [{attrs}] [= VALUE] : T  ->  ml_program.global private [mutable] @w[(VALUE : T)] : T
//   util.global.load [immutable] @w : T             ->  ml_program.global_load @w : T
//   util.global.store %v, @w : T                    ->  ml_program.global_store @w = %v : T
// Parsed by hand, as a whole weight may sit on the line. Returns the line unchanged when
// it is none of these.
std::string utilGlobal(const std::string& line) {
  const size_t at = line.find("util.global");
  if (at == std::string::npos) return line;
  const std::string before = trimmed(line.substr(0, at));  // nothing, or `%w =` before a load
  if (!before.empty() && (before[0] != '%' || before.back() != '=')) return line;
  const size_t colon = line.rfind(':');
  const size_t name = line.find('@', at);
  if (colon == std::string::npos || name == std::string::npos || name > colon) return line;
  size_t nameEnd = name + 1;
  if (nameEnd < line.size() && line[nameEnd] == '"') {  // a quoted name: @"_params.fc1.weight"
    nameEnd = line.find('"', nameEnd + 1);
    if (nameEnd == std::string::npos) return line;
    ++nameEnd;
  } else {
    while (nameEnd < line.size() && (std::isalnum(static_cast<unsigned char>(line[nameEnd])) || std::string("_.$-").find(line[nameEnd]) != std::string::npos))
      ++nameEnd;
  }
  const std::string sym = line.substr(name, nameEnd - name), type = trimmed(line.substr(colon + 1));
  if (type.rfind("tensor<", 0) != 0) return line;
  const std::string lead = line.substr(0, at), op = line.substr(at, line.find_first_of(" \t", at) - at);
  if (op == "util.global") {
    const std::string head0 = line.substr(at + op.size(), name - at - op.size());  // " private mutable "
    std::string rest = trimmed(line.substr(nameEnd, colon - nameEnd));
    if (!rest.empty() && rest[0] == '{') {  // attributes ({noinline}): hints to IREE's passes
      const size_t close = rest.find('}');
      if (close == std::string::npos) return line;
      rest = trimmed(rest.substr(close + 1));
    }
    if (!rest.empty() && rest[0] != '=') return line;
    const std::string value = rest.empty() ? "" : trimmed(rest.substr(1));
    // One without a value is set by an initializer: a store, which ml_program allows
    // only on a mutable global.
    std::string head = head0;
    if (value.empty() && head.find("mutable") == std::string::npos) head += "mutable ";
    return lead + "ml_program.global" + head + sym + (value.empty() ? "" : "(" + value + " : " + type + ")") + " : " + type;
  }
  if (op == "util.global.load") return lead + "ml_program.global_load " + sym + " : " + type;
  if (op == "util.global.store") {
    const size_t v = line.find('%', at);
    const size_t comma = line.find(',', at);
    if (v == std::string::npos || comma == std::string::npos || v > comma || comma > name) return line;
    return lead + "ml_program.global_store " + sym + " = " + trimmed(line.substr(v, comma - v)) + " : " + type;
  }
  return line;
}

struct Function {
  size_t header = 0, end = 0;            // lines [header, end)
  std::map<std::string, std::string> types;  // SSA name -> tensor type, for boundary values
  std::vector<std::pair<std::string, std::string>> checked;  // values a check.expect reads
  // Set where the checks gave the function results it had not: its name and their types.
  std::pair<std::string, std::string> results;
};

// The rewrites' shared patterns: a `return` with no values, and a symbol's name.
const std::regex& emptyReturn() {
  static const std::regex r(R"(^(\s*)(?:func\.)?return\s*$)");
  return r;
}
const std::regex& symbolName() {
  static const std::regex r(R"(@([\w.$-]+))");
  return r;
}

// What a function returns once its checked values are its results: `%a, %b` and `T1, T2`.
std::pair<std::string, std::string> checkedResults(const Function& f) {
  std::string values, types;
  for (auto& [v, t] : f.checked) {
    values += (values.empty() ? "" : ", ") + v;
    types += (types.empty() ? "" : ", ") + t;
  }
  return {values, types};
}

// IREE's dispatch regions (`flow.dispatch.region`, what its dispatch formation leaves):
// the region's ops are the computation, where they stand; its results are what its
// `flow.return` yields. The header and the closing brace are blanked, and each result is
// the value yielded: one by an alias, several by their uses renamed (`%d#1` is `%b`).
void inlineDispatchRegions(std::vector<std::string>& lines, std::set<std::string>& applied) {
  static const std::regex region(R"(^\s*(%[\w.$#-]+)(?::(\d+))?\s*=\s*flow\.dispatch\.region\b[^{]*?(?:->\s*\((.*)\))?\s*\{\s*$)");
  static const std::regex ret(R"(^\s*flow\.return\b\s*([^:]*?)\s*(?::\s*(.*))?$)");
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (lines[i].find("flow.dispatch.region") == std::string::npos || !std::regex_search(lines[i], m, region)) continue;
    const std::string result = m[1].str();
    const size_t count = m[2].matched ? std::stoul(m[2].str()) : 1;
    // The closing brace: braces counted from the header's, which opens depth 1.
    int depth = 0;
    size_t close = lines.size(), yield = lines.size();
    for (size_t j = i; j < lines.size() && close == lines.size(); ++j) {
      for (char c : lines[j]) {
        depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        if (depth == 0 && j > i) {
          close = j;
          break;
        }
      }
      if (depth == 1 && j > i && trimmed(lines[j]).rfind("flow.return", 0) == 0) yield = j;
    }
    std::smatch r;
    if (close == lines.size() || yield == lines.size() || trimmed(lines[close]) != "}" ||
        !std::regex_search(lines[yield], r, ret))
      continue;  // not this form: MLIR reports the op
    const std::vector<std::string> values = commaList(r[1].str());
    std::vector<std::string> types = commaList(r[2].str());
    if (values.size() != count || types.size() != count) continue;
    for (std::string& t : types) t = trimmed(t.substr(0, t.find('{')));  // dynamic extents: the tensor's own
    // The region's own values become the function's: renamed apart from the names the
    // function's other regions may reuse.
    static const std::regex def(R"(^\s*(%[\w.$-]+)(?::\d+)?\s*=)");
    std::vector<std::string> defs;
    depth = 0;
    for (size_t j = i; j < close; ++j) {
      std::smatch d;
      if (j > i && depth == 1 && std::regex_search(lines[j], d, def)) defs.push_back(d[1].str());
      for (char c : lines[j]) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    }
    auto nameChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-'; };
    auto rename = [&](std::string& l, const std::string& from, const std::string& to) {
      for (size_t at = l.find(from); at != std::string::npos; at = l.find(from, at)) {
        const size_t after = at + from.size();
        if (after < l.size() && nameChar(l[after])) {
          at = after;
          continue;
        }
        l.replace(at, from.size(), to);
        at += to.size();
      }
    };
    std::vector<std::string> renamed = values;
    for (const std::string& d : defs) {
      const std::string to = "%dispatch" + std::to_string(i + 1) + "_" + d.substr(1);
      for (size_t j = i + 1; j < close; ++j) rename(lines[j], d, to);
      for (std::string& v : renamed) rename(v, d, to);
    }
    const std::string lead = lines[yield].substr(0, lines[yield].find_first_not_of(" \t"));
    lines[i] = std::string(lines[i].size(), ' ');
    lines[close] = std::string(lines[close].size(), ' ');
    if (count == 1) {
      lines[yield] = lead + alias(result, renamed[0], types[0]);
    } else {
      lines[yield] = std::string(lines[yield].size(), ' ');
      for (size_t j = close + 1; j < lines.size(); ++j)
        for (size_t k = 0; k < count; ++k) {
          const std::string use = result + "#" + std::to_string(k);
          for (size_t at = lines[j].find(use); at != std::string::npos; at = lines[j].find(use, at)) {
            const size_t after = at + use.size();
            if (after < lines[j].size() && std::isdigit(static_cast<unsigned char>(lines[j][after]))) {
              at = after;
              continue;
            }
            lines[j].replace(at, use.size(), renamed[k]);
            at += renamed[k].size();
          }
        }
    }
    applied.insert("flow.dispatch.region's ops are the computation, its results the values it returns");
  }
}

// tpp-mlir's TPP dialect on tensors (retired in 2024; its models of 2023 hold it):
// `%r = tpp.add (%a : T, %b : T) -> T` and `tpp.relu (%a : T) -> T` of one shape are the
// linalg generics they mean. Other TPP ops, and broadcasting forms, stay unread (MLIR's
// "dialect not found", at the op).
void readTppOps(std::vector<std::string>& lines, std::set<std::string>& applied) {
  static const std::regex add(PF_SSA R"(\s*=\s*tpp\.add\s*\(\s*)" PF_SSA R"(\s*:\s*)" PF_TENSOR R"(\s*,\s*)" PF_SSA
                              R"(\s*:\s*\3\s*\)\s*->\s*\3)");
  static const std::regex relu(PF_SSA R"(\s*=\s*tpp\.relu\s*\(\s*)" PF_SSA R"(\s*:\s*)" PF_TENSOR R"(\s*\)\s*->\s*\3)");
  int id = 0;
  for (std::string& l : lines) {
    if (l.find("tpp.") == std::string::npos) continue;
    std::smatch m;
    const bool isAdd = std::regex_search(l, m, add);
    if (!isAdd && !std::regex_search(l, m, relu)) continue;
    const std::string r = m[1], a = m[2], t = m[3], elem = mlir_text::elementOf(t);
    // Static float tensors of rank 1 or more; any other stays the dialect's, at the op.
    const std::optional<std::vector<int64_t>> shape = mlir_text::staticShape(t);
    if (!shape || shape->empty() || !mlir_text::isFloatType(elem)) continue;
    std::vector<std::string> dims, iters;
    for (size_t k = 0; k < shape->size(); ++k) dims.push_back("d" + std::to_string(k)), iters.push_back("\"parallel\"");
    const std::string id_ = "affine_map<(" + mlir_text::joined(dims) + ") -> (" + mlir_text::joined(dims) + ")>";
    const std::string e = "%pf_tpp" + std::to_string(id++);
    std::string g = e + " = tensor.empty() : " + t + " " + r + " = linalg.generic {indexing_maps = [" + id_ + ", " +
                    (isAdd ? id_ + ", " : "") + id_ + "], iterator_types = [" + mlir_text::joined(iters) + "]} ins(" + a +
                    (isAdd ? ", " + m[4].str() : "") + " : " + t + (isAdd ? ", " + t : "") + ") outs(" + e + " : " + t +
                    ") { ^bb0(%pf_x: " + elem + (isAdd ? ", %pf_y: " + elem : "") + ", %pf_o: " + elem + "): ";
    g += isAdd ? "%pf_r = arith.addf %pf_x, %pf_y : " + elem
               : "%pf_z = arith.constant 0.0 : " + elem + " %pf_r = arith.maximumf %pf_x, %pf_z : " + elem;
    g += " linalg.yield %pf_r : " + elem + " } -> " + t;
    l = m.prefix().str() + g + m.suffix().str();
    applied.insert(isAdd ? "tpp.add is linalg's elementwise sum" : "tpp.relu is linalg's max with 0");
  }
}

// IREE's tensor encodings (`#iree_encoding.packed_storage`, `#iree_encoding.encoding<..>`
// and the aliases that name them) describe a layout, not values: polyfuse stores a tensor
// its own way. An i1 takes a byte, and the bitcasts that pack and unpack them are read as
// what they compute; a data-tiling encoding is what set_encoding and unset_encoding add and
// remove, so both are their operand. Dropped from every tensor type, alias lines blanked.
void dropEncodings(std::vector<std::string>& lines, std::set<std::string>& applied) {
  static const std::regex aliasDef(R"(^\s*(#[\w.$-]+)\s*=\s*#iree_encoding\.)");
  std::set<std::string> aliases;
  for (std::string& l : lines) {
    std::smatch m;
    if (l.find("#iree_encoding.") == std::string::npos || !std::regex_search(l, m, aliasDef)) continue;
    aliases.insert(m[1].str());
    l.clear();
  }
  auto nameChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-'; };
  for (std::string& l : lines) {
    if (l.find('#') == std::string::npos) continue;
    for (size_t pos = l.find(','); pos != std::string::npos; pos = l.find(',', pos + 1)) {
      const size_t at = l.find_first_not_of(" \t", pos + 1);
      if (at == std::string::npos || l[at] != '#') continue;
      size_t end = at + 1;
      while (end < l.size() && nameChar(l[end])) ++end;
      const std::string name = l.substr(at, end - at);
      if (name.rfind("#iree_encoding.", 0) != 0 && !aliases.count(name)) continue;
      if (end < l.size() && l[end] == '<') {
        const size_t close = closingBracket(l, end);
        if (close == std::string::npos) break;
        end = close + 1;
      }
      const size_t after = l.find_first_not_of(" \t", end);
      if (after == std::string::npos || l[after] != '>') continue;  // not the end of a tensor type
      l.erase(pos, after - pos);
      applied.insert("IREE's tensor encodings are layouts, not values: dropped (set_encoding and unset_encoding are their operand)");
    }
  }
}

// A function whose checks became its results is called as one without results
// (`call @check_one(..) : (..) -> ()`, IREE's and tpp-mlir's test drivers): each such call
// takes the results, and a caller that returns nothing returns them in turn (its header
// given them too), so that a driver's checks reach the entry function's outputs.
void resultsToCallers(std::vector<std::string>& lines, std::vector<Function>& fns, std::set<std::string>& applied) {
  static const std::regex noResults(R"(->\s*\(\s*\)\s*$)");
  for (size_t round = 0; round < fns.size(); ++round) {
    std::set<Function*> gained;
    for (Function& callee : fns) {
      if (callee.results.first.empty()) continue;
      const std::string call = "call @" + callee.results.first + "(";
      const std::vector<std::string> types = commaList(callee.results.second);
      for (Function& caller : fns)
        for (size_t i = caller.header + 1; i < caller.end; ++i) {
          std::string& l = lines[i];
          const size_t at = l.find(call);
          std::smatch m;
          if (at == std::string::npos || l.find('=') < at || !std::regex_search(l, m, noResults)) continue;
          const std::string name = "%pf_call" + std::to_string(i);
          l = l.substr(0, at) + name + (types.size() > 1 ? ":" + std::to_string(types.size()) : "") + " = " +
              l.substr(at, size_t(m.position(0)) - at) + "-> (" + callee.results.second + ")";
          for (size_t k = 0; k < types.size(); ++k)
            caller.checked.push_back({types.size() > 1 ? name + "#" + std::to_string(k) : name, types[k]});
          applied.insert("a test driver's calls take the results its checks gave the callee");
          if (caller.results.first.empty()) gained.insert(&caller);
        }
    }
    // A caller with no results of its own returns what it now checks.
    for (Function* caller : gained) {
      const auto [values, all] = checkedResults(*caller);
      std::string& h = lines[caller->header];
      const size_t open = h.find('(', h.find('@')), close = open == std::string::npos ? open : closingBracket(h, open);
      if (close == std::string::npos || h.find("->", close) != std::string::npos) continue;
      std::smatch m;
      for (size_t r = caller->header + 1; r < caller->end; ++r)
        if (std::regex_search(lines[r], m, emptyReturn())) lines[r] = m[1].str() + "return " + values + " : " + all;
      h = h.substr(0, close + 1) + " -> (" + all + ")" + h.substr(close + 1);
      if (std::regex_search(h, m, symbolName())) caller->results = {m[1].str(), all};
    }
    if (gained.empty()) break;
  }
}

// IREE's asynchronous ABI (coarse fences): @f$async takes a wait fence and a signal fence
// beside its buffer views, and a synchronous stub @f creates a fence, calls it and awaits
// the fence. Fences order work on a device; they compute nothing. The stub is dropped
// (its lines blanked, so that locations stay), @f$async is read as @f, and
// `hal.tensor.barrier join(%a, .. : T, ..) => %fence` is the values it joins.
void asyncAbi(std::vector<std::string>& lines, std::vector<Function>& fns, std::set<std::string>& applied) {
  static const std::regex asyncName(R"(@([\w.-]+)\$async\b)"), barrier(PF_SSA R"((?::(\d+))?\s*=\s*hal\.tensor\.barrier\s+join\(([^:)]*):\s*([^)]*)\)\s*=>\s*%[\w.$#-]+\s*:\s*!hal\.fence)");
  static const std::regex policy(R"(\binlining_policy\s*=\s*#util\.[\w.]+\s*,?\s*)");
  bool any = false;
  for (Function& f : fns) {
    bool stub = false;
    for (size_t i = f.header + 1; i < f.end; ++i) stub |= lines[i].find("hal.fence.create") != std::string::npos;
    if (stub && lines[f.header].find("iree.abi.stub") != std::string::npos) {
      // To the brace that closes the body (the last function's range runs on to the
      // module's own).
      int depth = 0;
      for (size_t i = f.header; i < f.end; ++i) {
        for (char c : lines[i]) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        lines[i] = std::string();
        if (depth <= 0 && i > f.header) break;
      }
      any = true;
      continue;
    }
    for (size_t i = f.header; i < f.end; ++i) {
      std::string& l = lines[i];
      if (l.find("$async") != std::string::npos) {
        l = std::regex_replace(l, asyncName, "@$1");
        any = true;
      }
      if (i == f.header && l.find("inlining_policy") != std::string::npos) l = std::regex_replace(l, policy, "");
      std::smatch m;
      if (l.find("hal.tensor.barrier") == std::string::npos || !std::regex_search(l, m, barrier)) continue;
      any = true;
      std::vector<std::string> values, types;
      static const std::regex item(R"([^,\s][^,]*)");
      const std::string vs = m[3], ts = m[4];
      for (auto it = std::sregex_iterator(vs.begin(), vs.end(), item); it != std::sregex_iterator(); ++it)
        values.push_back(trimmed((*it)[0]));
      for (auto it = std::sregex_iterator(ts.begin(), ts.end(), item); it != std::sregex_iterator(); ++it)
        types.push_back(trimmed((*it)[0]));
      if (values.size() != types.size() || values.empty()) continue;  // MLIR reports the line
      const std::string result = m[1];
      if (!m[2].matched) {
        l = m.prefix().str() + alias(result, values[0], types[0]) + m.suffix().str();
        continue;
      }
      // %r:2 = join(%a, %b ..): the later uses %r#k are the values themselves (SSA names
      // may hold '.', '$' and '-': escaped for the pattern).
      l = std::string(l.size(), ' ');
      static const std::regex special(R"([.$\\^*+?()\[\]{}|-])");
      const std::string escaped = std::regex_replace(result, special, R"(\$&)");
      for (size_t j = i + 1; j < f.end; ++j)
        for (size_t k = 0; k < values.size(); ++k)
          lines[j] = std::regex_replace(lines[j], std::regex(escaped + "#" + std::to_string(k) + R"((?!\d))"), values[k]);
    }
  }
  if (any) applied.insert("IREE's asynchronous ABI: fences dropped, the synchronous stub dropped, @f$async read as @f");
}

// `%x = flow.tensor.dynamic_constant VALUE : T -> T'` (IREE's tests hide a shape from
// the compiler): the constant, then a cast to the dynamic type, on the one line. The
// line unchanged when it is not of this form.
std::string dynamicConstant(const std::string& line) {
  static const std::string op = "flow.tensor.dynamic_constant";
  const size_t at = line.find(op);
  const size_t eq = line.rfind('=', at), arrow = line.rfind("->");
  if (eq == std::string::npos || arrow == std::string::npos || arrow < at) return line;
  const size_t colon = line.rfind(':', arrow);
  if (colon == std::string::npos || colon < at) return line;
  const std::string result = trimmed(line.substr(0, eq)), value = trimmed(line.substr(at + op.size(), colon - at - op.size()));
  const std::string from = trimmed(line.substr(colon + 1, arrow - colon - 1)), to = trimmed(line.substr(arrow + 2));
  if (result.empty() || result[0] != '%' || from.rfind("tensor<", 0) != 0 || to.rfind("tensor<", 0) != 0) return line;
  const std::string lead = line.substr(0, line.find('%'));
  // Prefixed, not suffixed: `%1` is a number, and `%1_static` no name.
  const std::string constant = "%pf_static_" + result.substr(1);
  return lead + constant + " = arith.constant {polyfuse.unfoldable} " + value + " : " + from + " " + result +
         " = tensor.cast " + constant + " : " + from + " to " + to;
}
// The ops that give a value another name: `result = op value .. : type`, read as
// tensor.cast. `recorded`: the group (1 the result, 2 the value) whose type the header
// takes, for a buffer view at the boundary; 0 for none. `marker` is a substring every
// match holds: most lines skip the regular expression.
struct AliasRule {
  const char* marker;
  std::regex pattern;  // groups: 1 result, 2 value, 3 its tensor type
  int recorded;
  const char* note;
};

const std::vector<AliasRule>& aliasRules() {
  static const std::vector<AliasRule> rules = {
      {"hal.tensor.import",
       std::regex(PF_SSA R"(\s*=\s*hal\.tensor\.import\s+(?:on\([^)]*\)\s+)?(?:wait\([^)]*\)\s*=>\s*)?)" PF_SSA
                  R"(\s*(?:"[^"]*"\s*)?:\s*!hal\.buffer_view\s*->\s*)" PF_TENSOR R"((?:\{[^}]*\})?)"),
       2, "hal.tensor.import is an argument of its tensor type"},
      {"hal.tensor.export",
       std::regex(PF_SSA R"(\s*=\s*hal\.tensor\.export\s+(?:on\([^)]*\)\s+)?)" PF_SSA
                  R"(\s*(?:"[^"]*"\s*)?(?:into\([^)]*\)\s*)?:\s*)" PF_TENSOR R"((?:\{[^}]*\})?\s*->\s*!hal\.buffer_view)"),
       1, "hal.tensor.export is a result"},
      {"util.optimization_barrier",
       std::regex(PF_SSA R"(\s*=\s*util\.optimization_barrier\s+)" PF_SSA R"(\s*:\s*)" PF_TENSOR), 0,
       "util.optimization_barrier is its operand"},
      {"hal.tensor.transients",
       std::regex(PF_SSA R"(\s*=\s*hal\.tensor\.transients\s+)" PF_SSA R"(\s*:\s*)" PF_TENSOR
                  R"((?:\{[^}]*\})?\s+from\s+%[\w.$#-]+\s*:\s*!hal\.buffer)"),
       0, "hal.tensor.transients is its operand (the storage it names is the device's business)"},
      {"flow.tensor.tie_shape",
       std::regex(PF_SSA R"(\s*=\s*flow\.tensor\.tie_shape\s+)" PF_SSA R"(\s*:\s*)" PF_TENSOR R"((?:\{[^}]*\})?)"), 0,
       "flow.tensor.tie_shape is its operand (its extents are the tensor's)"},
      {"iree_encoding.",
       std::regex(PF_SSA R"(\s*=\s*iree_encoding\.(?:set|unset)_encoding\s+)" PF_SSA R"(\s*:\s*)" PF_TENSOR R"(\s*->\s*\3)"), 0,
       "iree_encoding.set_encoding and unset_encoding of one shape are their operand"},
      {"bufferization.materialize_in_destination",
       std::regex(PF_SSA R"(\s*=\s*bufferization\.materialize_in_destination\s+)" PF_SSA
                  R"(\s+in\s+(?:restrict\s+)?(?:writable\s+)?%[\w.$#-]+\s*:\s*\()" PF_TENSOR
                  R"(\s*,\s*tensor<[^>]*>\)\s*->\s*tensor<[^>]*>)"),
       0, "bufferization.materialize_in_destination is its source (the destination is the output)"},
  };
  return rules;
}

}  // namespace

std::string readIreeBoundary(const std::string& text, std::vector<std::string>& notes) {
  bool any = false;
  for (const char* m : kMarkers) any |= text.find(m) != std::string::npos;
  if (!any) return text;

  std::vector<std::string> lines;
  for (size_t b = 0;;) {
    size_t e = text.find('\n', b);
    lines.push_back(text.substr(b, e == std::string::npos ? std::string::npos : e - b));
    if (e == std::string::npos) break;
    b = e + 1;
  }
  static const std::regex header(R"(^\s*(util\.func|func\.func)\b)");
  static const std::regex flowReshape(PF_SSA R"(\s*=\s*flow\.tensor\.reshape\s+)" PF_SSA
                                      R"(\s*:\s*tensor<([^>]*)>\s*->\s*tensor<([^>]*)>)");
  static const std::regex flowBitcast(PF_SSA R"(\s*=\s*flow\.tensor\.bitcast\s+)" PF_SSA
                                      R"(\s*:\s*tensor<([^>]*)>\s*->\s*tensor<([^>]*)>)");
  static const std::regex utilReturn(R"(\butil\.return\b)");
  static const std::regex fence(R"(,?\s*%[\w.$#-]+\s*:\s*!hal\.fence)");

  // A check or a dynamic constant whose constant spans lines (IREE's e2e tests write
  // matrices row by row) is read as one line; the lines it took stay, blank, so line
  // numbers hold.
  // So is a function header whose arguments continue on the lines below.
  for (size_t i = 0; i < lines.size(); ++i) {
    const bool isHeader = lines[i].find("func") != std::string::npos && std::regex_search(lines[i], header);
    const bool check = isHeader || trimmed(lines[i]).rfind("check.expect_", 0) == 0;
    if (!check && lines[i].find("flow.tensor.dynamic_constant") == std::string::npos) continue;
    // A check's parentheses; a constant's brackets and angle brackets (`dense<` may end
    // its line), the `>` of an arrow left out.
    auto depth = [&](const std::string& l) {
      int d = 0;
      for (size_t k = 0; k < l.size(); ++k) {
        const char c = l[k];
        if (check) d += c == '(' ? 1 : c == ')' ? -1 : 0;
        else d += c == '[' || c == '<' ? 1 : c == ']' || (c == '>' && (k == 0 || l[k - 1] != '-')) ? -1 : 0;
      }
      return d;
    };
    size_t j = i + 1;
    // A dynamic constant whose value starts on the next line (`flow.tensor.dynamic_constant`
    // alone, then `dense<..>`, then `: T -> T'`) runs to its arrow.
    auto valueBelow = [&](const std::string& l) {
      const size_t op = l.find("= flow.tensor.dynamic_constant");
      return !check && op != std::string::npos && trimmed(l).rfind("//", 0) != 0 && l.find("->", op) == std::string::npos;
    };
    for (; j < lines.size() && (depth(lines[i]) > 0 || (valueBelow(lines[i]) && j < i + 64)); ++j) {
      lines[i] += " " + trimmed(lines[j]);
      lines[j].clear();
    }
    // The type may stand on a line of its own: `check.expect_eq_const(%r, ..)` or
    // `flow.tensor.dynamic_constant dense<..>`, then `: tensor<..>`.
    // Or the line ends at the colon, the type on the next.
    const bool typeBelow = j < lines.size() && !trimmed(lines[i]).empty() && trimmed(lines[i]).back() == ':';
    if (typeBelow || (j < lines.size() && !trimmed(lines[i]).empty() && trimmed(lines[j]).rfind(':', 0) == 0 &&
                      (check ? trimmed(lines[i]).back() == ')' : trimmed(lines[i]).back() == '>'))) {
      lines[i] += " " + trimmed(lines[j]);
      lines[j].clear();
    }
  }
  // A check names its type by a module's alias (`!out = tensor<16x16xi8>`) as often as
  // written out; the result type built from it is spelled out.
  static const std::regex aliasDef(R"(^\s*(![\w.$-]+)\s*=\s*(tensor<[^>]*>)\s*$)");
  std::map<std::string, std::string> typeAliases;
  for (const std::string& l : lines)
    if (std::smatch m; l.find('!') != std::string::npos && std::regex_match(l, m, aliasDef)) typeAliases[m[1]] = m[2];
  auto inName = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || std::string("_$.-").find(c) != std::string::npos; };
  if (!typeAliases.empty())
    for (std::string& l : lines) {
      if (trimmed(l).rfind("check.expect_", 0) != 0) continue;
      for (const auto& [name, type] : typeAliases)
        for (size_t at = l.find(name); at != std::string::npos; at = l.find(name, at + 1)) {
          const size_t end = at + name.size();
          const bool whole = (end == l.size() || !inName(l[end])) && (at == 0 || !inName(l[at - 1]));
          if (whole) l.replace(at, name.size(), type);
        }
    }
  std::set<std::string> applied;
  dropEncodings(lines, applied);
  readTppOps(lines, applied);
  inlineDispatchRegions(lines, applied);
  static const std::regex utilCall(R"(\butil\.call\b)");
  std::vector<size_t> calls;  // lines of util.call (a dropped stub may hold them all)
  for (std::string& l : lines) {
    if (l.find("util.global") != std::string::npos) {
      std::string g = utilGlobal(l);
      if (g != l) applied.insert("util.global, util.global.load and util.global.store are ml_program's");
      l = std::move(g);
    } else if (l.find("util.call") != std::string::npos) {
      l = std::regex_replace(l, utilCall, "func.call");
      calls.push_back(size_t(&l - lines.data()));
    }
  }
  // IREE's `util.initializer { .. }` runs once when the module loads, before any call:
  // a function of its own, called first by each public function. Its stores set the
  // globals' values (marked, so that they are not read as the entry's results).
  static const std::regex initializer(R"(^(\s*)util\.initializer\s*(?:attributes\s*\{[^}]*\}\s*)?\{\s*$)");
  std::set<size_t> initializerHeaders;
  std::vector<std::string> initializers;
  for (size_t i = 0; i < lines.size(); ++i)
    if (std::smatch m; lines[i].find("util.initializer") != std::string::npos && std::regex_match(lines[i], m, initializer)) {
      initializers.push_back("@pf_initializer_" + std::to_string(initializers.size()));
      lines[i] = m[1].str() + "func.func private " + initializers.back() + "() {";
      initializerHeaders.insert(i);
      applied.insert("util.initializer runs before the entry, its stores the globals' values");
    }
  std::vector<Function> fns;
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find("func") != std::string::npos && std::regex_search(lines[i], header)) {
      if (!fns.empty()) fns.back().end = i;
      fns.push_back(Function{i, lines.size(), {}, {}, {}});
    }
  for (const Function& f : fns)
    if (initializerHeaders.count(f.header))
      for (size_t i = f.header + 1; i < f.end; ++i)
        if (lines[i].find("ml_program.global_store") != std::string::npos) lines[i] += " {polyfuse.initializer}";
  asyncAbi(lines, fns, applied);
  for (size_t i : calls)
    if (!lines[i].empty()) applied.insert("util.call is func.call");
  int reshapes = 0;
  for (Function& f : fns) {
    for (size_t i = f.header + 1; i < f.end; ++i) {
      std::string& l = lines[i];
      std::smatch m;
      const AliasRule* rule = nullptr;
      for (const AliasRule& r : aliasRules())
        if (l.find(r.marker) != std::string::npos && std::regex_search(l, m, r.pattern)) {
          rule = &r;
          break;
        }
      if (rule) {
        if (rule->recorded) f.types[m[rule->recorded]] = m[3];
        l = m.prefix().str() + alias(m[1], m[2], m[3]) + m.suffix().str();
        applied.insert(rule->note);
      } else if (l.find("flow.tensor.reshape") != std::string::npos && std::regex_search(l, m, flowReshape)) {
        if (std::string r = reshape(m[1], m[2], m[3], m[4], reshapes); !r.empty()) {
          l = m.prefix().str() + r + m.suffix().str();
          applied.insert("flow.tensor.reshape of static shapes is a collapse and an expansion");
        }
      } else if (l.find("flow.tensor.bitcast") != std::string::npos && std::regex_search(l, m, flowBitcast)) {
        if (std::string r = bitcast(m[1], m[2], m[3], m[4], reshapes); !r.empty()) {
          l = m.prefix().str() + r + m.suffix().str();
          applied.insert("flow.tensor.bitcast between integer types takes each element's bits apart, or puts them together");
        }
      } else if (l.find("flow.tensor.dynamic_constant") != std::string::npos) {
        std::string d = dynamicConstant(l);
        if (d != l) applied.insert("flow.tensor.dynamic_constant is a constant, cast to its dynamic type");
        l = std::move(d);
      } else if (std::vector<std::pair<std::string, std::string>> c = checked(l); !c.empty()) {
        // The tensors compared, less the constants they are compared with (the first
        // where every one is a constant).
        size_t kept = 0;
        for (auto& vt : c)
          if (!definedAsConstant(lines, f.header + 1, i, vt.first)) f.checked.push_back(vt), ++kept;
        if (!kept) f.checked.push_back(c.front());
        l = std::string(l.size(), ' ');
        applied.insert("the values check.expect_* tests are the function's results");
      } else if (std::optional<PrintedRead> r = printedRead(l, i + 1 < f.end ? lines[i + 1] : std::string())) {
        // Kept where the vector has another reader than vector.print.
        const std::string& vec = r->vector;
        bool onlyPrinted = true;
        for (size_t j = i + 1; j < f.end && onlyPrinted; ++j) {
          const size_t at = lines[j].find(vec);
          const size_t after = at == std::string::npos ? at : at + vec.size();
          const bool named = at != std::string::npos && (after == lines[j].size() || !(std::isalnum(static_cast<unsigned char>(lines[j][after])) || lines[j][after] == '_'));
          if (named && trimmed(lines[j]).rfind("vector.print", 0) != 0) onlyPrinted = false;
        }
        if (onlyPrinted) {
          f.checked.push_back({r->tensor, r->type});
          l = std::string(l.size(), ' ');
          if (r->twoLines) lines[i + 1] = std::string(lines[i + 1].size(), ' ');
          applied.insert("a tensor read only to be printed (vector.transfer_read, vector.print) is a result");
        }
      } else if (trimmed(l).rfind("vector.print", 0) == 0) {
        l = std::string(l.size(), ' ');
      } else if (l.find("bufferization.alloc_tensor") != std::string::npos && l.find("copy(") == std::string::npos) {
        static const std::regex allocTensor(R"(\bbufferization\.alloc_tensor\b)");
        l = std::regex_replace(l, allocTensor, "tensor.empty");
        applied.insert("bufferization.alloc_tensor is tensor.empty");
      } else if (l.find("util.unfoldable_constant") != std::string::npos) {
        static const std::regex unfoldable(R"(\butil\.unfoldable_constant\b)");
        // Marked, so that a splat one stays an input (what "unfoldable" asks): read as one
        // value it would fold into every reader, and a reduction over it would lose its loop.
        l = std::regex_replace(l, unfoldable, "arith.constant {polyfuse.unfoldable}");
        applied.insert("util.unfoldable_constant is a constant the program takes as an input");
      } else if (l.find("util.return") != std::string::npos && std::regex_search(l, utilReturn)) {
        // util.return %a, %b : !hal.buffer_view, ..: the types of what it returns.
        l = std::regex_replace(l, utilReturn, "return");
        size_t colon = l.find(':');
        if (colon != std::string::npos && l.find("!hal.buffer_view") != std::string::npos) {
          std::string ops = l.substr(0, colon), types;
          static const std::regex ssa(PF_SSA);
          for (auto it = std::sregex_iterator(ops.begin(), ops.end(), ssa); it != std::sregex_iterator(); ++it)
            types += (types.empty() ? "" : ", ") + (f.types.count((*it)[1]) ? f.types[(*it)[1]] : "!hal.buffer_view");
          l = ops + ": " + types;
        }
      } else if (!f.checked.empty() && std::regex_search(l, m, emptyReturn())) {
        const auto [values, types] = checkedResults(f);
        l = m[1].str() + "return " + values + " : " + types;
      }
    }
    // The extents of an imported buffer view are those of its tensor:
    //   %d = hal.buffer_view.dim<%v : !hal.buffer_view>[k] : index  ->  tensor.dim %v, k
    static const std::regex viewDim(PF_SSA R"(\s*=\s*hal\.buffer_view\.dim\s*<\s*)" PF_SSA
                                    R"(\s*:\s*!hal\.buffer_view\s*>\s*\[\s*(\d+)\s*\]\s*:\s*index)");
    for (size_t i = f.header + 1; i < f.end; ++i) {
      std::string& l = lines[i];
      std::smatch m;
      if (l.find("hal.buffer_view.dim") == std::string::npos || !std::regex_search(l, m, viewDim) || !f.types.count(m[2]))
        continue;
      const std::string k = "%pf_dim_" + std::to_string(i);
      l = m.prefix().str() + k + " = arith.constant " + m[3].str() + " : index " + m[1].str() + " = tensor.dim " + m[2].str() +
          ", " + k + " : " + f.types[m[2]] + m.suffix().str();
      applied.insert("hal.buffer_view.dim is tensor.dim of the tensor imported");
    }
    // The header: util.func is func.func; buffer views take the types imported.
    std::string& h = lines[f.header];
    const bool util = h.find("util.func") != std::string::npos;
    if (util) {
      static const std::regex publicFunc(R"(\butil\.func(\s+)public\s+)"), utilFunc(R"(\butil\.func\b)");
      h = std::regex_replace(std::regex_replace(h, publicFunc, "func.func$1"), utilFunc, "func.func");
      applied.insert("util.func and util.return are func.func and return");
    }
    h = std::regex_replace(h, fence, "");
    // A buffer IREE hands the function as scratch storage (`!hal.buffer
    // {iree.abi.transients}`) holds no value the program reads.
    // Its comma goes with it: the one before, or the one after when it comes first.
    static const std::regex transients(R"(,\s*%[\w.$#-]+\s*:\s*!hal\.buffer\s*\{[^}]*\biree\.abi\.transients\b[^}]*\}|%[\w.$#-]+\s*:\s*!hal\.buffer\s*\{[^}]*\biree\.abi\.transients\b[^}]*\}\s*,?)");
    if (h.find("iree.abi.transients") != std::string::npos) {
      const std::string dropped = std::regex_replace(h, transients, "");
      if (dropped != h) applied.insert("a transient buffer argument (!hal.buffer {iree.abi.transients}: scratch storage) is dropped");
      h = dropped;
    }
    size_t open = h.find('(', h.find('@')), close = open == std::string::npos ? open : closing(h, open);
    if (close == std::string::npos) continue;
    std::string args = h.substr(open, close + 1 - open), rest = h.substr(close + 1);
    static const std::regex view(PF_SSA R"(\s*:\s*!hal\.buffer_view)");
    std::string typed;
    size_t last = 0;
    for (auto it = std::sregex_iterator(args.begin(), args.end(), view); it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[1];
      typed += args.substr(last, size_t(it->position(0)) - last) + name + ": " +
               (f.types.count(name) ? f.types[name] : "!hal.buffer_view");
      last = size_t(it->position(0) + it->length(0));
    }
    args = typed + args.substr(last);
    // Results: those of the return, when the header names buffer views or nothing.
    std::string results;
    for (size_t i = f.header + 1; i < f.end && results.empty(); ++i) results = returnedTypes(lines[i]);
    const size_t arrow = rest.find("->");
    if (arrow != std::string::npos && rest.find("!hal.buffer_view") != std::string::npos && !results.empty()) {
      size_t stop = std::min(rest.find(" attributes"), rest.find('{', arrow));
      rest = rest.substr(0, arrow) + "-> (" + results + ")" + (stop == std::string::npos ? "" : " " + rest.substr(stop));
    } else if (arrow == std::string::npos && !f.checked.empty()) {
      rest = " -> (" + results + ")" + rest;
      std::smatch nm;
      if (std::regex_search(h, nm, symbolName())) f.results = {nm[1].str(), results};
    }
    h = h.substr(0, open) + args + rest;
  }
  resultsToCallers(lines, fns, applied);
  static const std::regex privateHeader(R"(^\s*func\.func\s+private\b)");
  if (!initializers.empty())
    for (const Function& f : fns)
      if (!initializerHeaders.count(f.header) && !lines[f.header].empty() && !std::regex_search(lines[f.header], privateHeader) &&
          trimmed(lines[f.header]).back() == '{')
        for (const std::string& init : initializers) lines[f.header] += " func.call " + init + "() : () -> ()";
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += lines[i] + (i + 1 < lines.size() ? "\n" : "");
  if (!applied.empty()) {
    std::string n = "read the boundary and test-harness ops (IREE's, tpp-mlir's): ";
    bool first = true;
    for (const std::string& a : applied) {
      n += (first ? "" : "; ") + a;
      first = false;
    }
    notes.push_back(n);
  }
  return out;
}

#undef PF_SSA
#undef PF_TENSOR
#undef PF_BUFFER_OR_TENSOR

}  // namespace polyfuse
