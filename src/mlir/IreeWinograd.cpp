#include "mlir/IreeWinograd.h"

#include <cstdio>
#include <optional>
#include <regex>

#include "mlir/MlirText.h"
#include "mlir/TextRewrite.h"

namespace polyfuse {

namespace {

using namespace mlir_text;

// F(6x6, 3x3): tiles of 8 = 6 + 3 - 1, the interpolation points 0, 1, -1, 1/2, -1/2, 2, -2
// and infinity, in the order IREE's decomposition uses (its WinogradConstants.h).
constexpr int kAlpha = 8, kOutputTile = 6, kKernel = 3;
const double kBT[kAlpha][kAlpha] = {
    {1, 0, -21.0 / 4, 0, 21.0 / 4, 0, -1, 0},       {0, 1, 1, -17.0 / 4, -17.0 / 4, 1, 1, 0},
    {0, -1, 1, 17.0 / 4, -17.0 / 4, -1, 1, 0},      {0, 0.5, 0.25, -2.5, -1.25, 2, 1, 0},
    {0, -0.5, 0.25, 2.5, -1.25, -2, 1, 0},          {0, 2, 4, -2.5, -5, 0.5, 1, 0},
    {0, -2, 4, 2.5, -5, -0.5, 1, 0},                {0, -1, 0, 21.0 / 4, 0, -21.0 / 4, 0, 1}};
const double kAT[kOutputTile][kAlpha] = {{1, 1, 1, 1, 1, 1, 1, 0},          {0, 1, -1, 2, -2, 0.5, -0.5, 0},
                                         {0, 1, 1, 4, 4, 0.25, 0.25, 0},     {0, 1, -1, 8, -8, 0.125, -0.125, 0},
                                         {0, 1, 1, 16, 16, 0.0625, 0.0625, 0}, {0, 1, -1, 32, -32, 0.03125, -0.03125, 1}};
const double kG[kAlpha][kKernel] = {{1, 0, 0},
                                    {-2.0 / 9, -2.0 / 9, -2.0 / 9},
                                    {-2.0 / 9, 2.0 / 9, -2.0 / 9},
                                    {1.0 / 90, 1.0 / 45, 2.0 / 45},
                                    {1.0 / 90, -1.0 / 45, 2.0 / 45},
                                    {32.0 / 45, 16.0 / 45, 8.0 / 45},
                                    {32.0 / 45, -16.0 / 45, 8.0 / 45},
                                    {0, 0, 1}};

std::string tensorType(const std::vector<int64_t>& shape, const std::string& element) {
  std::string t = "tensor<";
  for (int64_t e : shape) t += std::to_string(e) + "x";
  return t + element + ">";
}

// A matrix as a constant of the element type, each entry as that type rounds it.
std::string matrix(const double* m, int rows, int cols, const std::string& element) {
  std::vector<std::string> rowTexts;
  for (int r = 0; r < rows; ++r) {
    std::vector<std::string> entries;
    for (int c = 0; c < cols; ++c) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.9e", element == "f64" ? m[r * cols + c] : double(float(m[r * cols + c])));
      entries.push_back(buf);
    }
    rowTexts.push_back("[" + joined(entries) + "]");
  }
  return "arith.constant dense<[" + joined(rowTexts) + "]> : " + tensorType({rows, cols}, element);
}

std::string loops(int n) {
  std::vector<std::string> d;
  for (int k = 0; k < n; ++k) d.push_back("d" + std::to_string(k));
  return "(" + joined(d) + ")";
}

// out = sum over the last loop of a * b, into a zero fill of `outType`: one contraction.
struct Operand {
  std::string value, type, map;
};
std::string contraction(const std::string& result, int nLoops, const Operand& a, const Operand& b, const std::string& init,
                        const std::string& outType, const std::string& outMap, const std::string& element,
                        const std::string& p) {
  std::vector<std::string> iters(size_t(nLoops - 1), "\"parallel\"");
  iters.push_back("\"reduction\"");
  const std::string d = loops(nLoops);
  return result + " = linalg.generic {indexing_maps = [affine_map<" + d + " -> (" + a.map + ")>, affine_map<" + d + " -> (" +
         b.map + ")>, affine_map<" + d + " -> (" + outMap + ")>], iterator_types = [" + joined(iters) + "]} ins(" +
         a.value + ", " + b.value + " : " + a.type + ", " + b.type + ") outs(" + init + " : " + outType + ") { ^bb0(" + p +
         "a: " + element + ", " + p + "b: " + element + ", " + p + "acc: " + element + "): " + p + "m = arith.mulf " + p +
         "a, " + p + "b : " + element + " " + p + "s = arith.addf " + p + "acc, " + p + "m : " + element +
         " linalg.yield " + p + "s : " + element + " } -> " + outType + " ";
}

std::string zeroFilled(const std::string& name, const std::string& into, const std::string& type, const std::string& p) {
  return name + " = linalg.fill ins(" + p + "zero : " + elementOf(type) + ") outs(" + into + " : " + type + ") -> " + type + " ";
}

std::string emptyFilled(const std::string& name, const std::string& type, const std::string& p) {
  return name + "_e = tensor.empty() : " + type + " " + zeroFilled(name, name + "_e", type, p);
}

// The two contractions of one transform, its constant, and the zero both start from.
std::optional<std::string> transform(const std::string& kind, const std::string& result, const std::vector<int64_t>& dims,
                                     const std::string& in, const std::string& inType, const std::string& out,
                                     const std::string& outType, int id) {
  const std::string element = elementOf(inType);
  const auto x = staticShape(inType), y = staticShape(outType);
  if (!isFloatType(element) || elementOf(outType) != element || !x || !y || dims.size() != 2) return std::nullopt;
  const bool last = dims[0] == 2 && dims[1] == 3;  // NCHW / FCHW; else NHWC / HWCF
  if (!last && !(dims[0] == (kind == "filter" ? 0 : 1) && dims[1] == (kind == "filter" ? 1 : 2))) return std::nullopt;
  const std::string p = "%pf_winograd" + std::to_string(id) + "_";
  std::string text = p + "zero = arith.constant 0.000000e+00 : " + element + " ";
  const std::string t1 = p + "t1", t1Init = p + "t1_init";
  if (kind == "input") {
    // (N, H, W, C) or (N, C, H, W) into (8, 8, N, H', W', C).
    if (x->size() != 4 || y->size() != 6 || (*y)[0] != kAlpha || (*y)[1] != kAlpha) return std::nullopt;
    const int64_t n = (*x)[0], c = last ? (*x)[1] : (*x)[3], h = last ? (*x)[2] : (*x)[1], w = last ? (*x)[3] : (*x)[2];
    const int64_t th = (*y)[3], tw = (*y)[4];
    if ((*y)[2] != n || (*y)[5] != c || th < 1 || tw < 1) return std::nullopt;
    const int64_t hp = std::max(h, (th - 1) * kOutputTile + kAlpha), wp = std::max(w, (tw - 1) * kOutputTile + kAlpha);
    std::string source = in, sourceType = inType;
    if (hp > h || wp > w) {
      const std::vector<int64_t> padded = last ? std::vector<int64_t>{n, c, hp, wp} : std::vector<int64_t>{n, hp, wp, c};
      const std::vector<int64_t> high = last ? std::vector<int64_t>{0, 0, hp - h, wp - w} : std::vector<int64_t>{0, hp - h, wp - w, 0};
      source = p + "padded";
      sourceType = tensorType(padded, element);
      text += source + " = tensor.pad " + in + " low[0, 0, 0, 0] high[" + std::to_string(high[0]) + ", " +
              std::to_string(high[1]) + ", " + std::to_string(high[2]) + ", " + std::to_string(high[3]) + "] { ^bb0(" + p +
              "i0: index, " + p + "i1: index, " + p + "i2: index, " + p + "i3: index): tensor.yield " + p + "zero : " +
              element + " } : " + inType + " to " + sourceType + " ";
    }
    text += p + "bt = " + matrix(&kBT[0][0], kAlpha, kAlpha, element) + " ";
    const std::string btType = tensorType({kAlpha, kAlpha}, element);
    // t1(i, l, n, th, tw, c) = sum_k BT(i, k) * x(n, 6 th + k, 6 tw + l, c)
    const std::string t1Type = tensorType({kAlpha, kAlpha, n, th, tw, c}, element);
    const std::string read = last ? "d2, d5, d3 * 6 + d6, d4 * 6 + d1" : "d2, d3 * 6 + d6, d4 * 6 + d1, d5";
    text += emptyFilled(t1Init, t1Type, p) +
            contraction(t1, 7, {p + "bt", btType, "d0, d6"}, {source, sourceType, read}, t1Init, t1Type,
                        "d0, d1, d2, d3, d4, d5", element, p + "c1");
    // result(i, j, n, th, tw, c) = sum_l t1(i, l, n, th, tw, c) * BT(j, l)
    text += zeroFilled(p + "init", out, outType, p) +
            contraction(result, 7, {t1, t1Type, "d0, d6, d2, d3, d4, d5"}, {p + "bt", btType, "d1, d6"}, p + "init",
                        outType, "d0, d1, d2, d3, d4, d5", element, p + "c2");
    return text;
  }
  if (kind == "filter") {
    // (3, 3, C, F) or (F, C, 3, 3) into (8, 8, C, F).
    if (x->size() != 4) return std::nullopt;
    const int64_t c = (*x)[last ? 1 : 2], f = (*x)[last ? 0 : 3];
    if ((*x)[last ? 2 : 0] != kKernel || (*x)[last ? 3 : 1] != kKernel || *y != std::vector<int64_t>{kAlpha, kAlpha, c, f})
      return std::nullopt;
    text += p + "g = " + matrix(&kG[0][0], kAlpha, kKernel, element) + " ";
    const std::string gType = tensorType({kAlpha, kKernel}, element);
    // t1(i, l, c, f) = sum_k G(i, k) * g(k, l, c, f)
    const std::string t1Type = tensorType({kAlpha, kKernel, c, f}, element);
    text += emptyFilled(t1Init, t1Type, p) +
            contraction(t1, 5, {p + "g", gType, "d0, d4"}, {in, inType, last ? "d3, d2, d4, d1" : "d4, d1, d2, d3"}, t1Init,
                        t1Type, "d0, d1, d2, d3", element, p + "c1");
    // result(i, j, c, f) = sum_l t1(i, l, c, f) * G(j, l)
    text += zeroFilled(p + "init", out, outType, p) +
            contraction(result, 5, {t1, t1Type, "d0, d4, d2, d3"}, {p + "g", gType, "d1, d4"}, p + "init", outType,
                        "d0, d1, d2, d3", element, p + "c2");
    return text;
  }
  // output: (8, 8, N, H', W', C) into (N, H, W, C) or (N, C, H, W), H <= 6 H'.
  const auto& m = x;
  if (m->size() != 6 || (*m)[0] != kAlpha || (*m)[1] != kAlpha || y->size() != 4) return std::nullopt;
  const int64_t n = (*m)[2], th = (*m)[3], tw = (*m)[4], c = (*m)[5];
  const int64_t h = last ? (*y)[2] : (*y)[1], w = last ? (*y)[3] : (*y)[2];
  if ((*y)[0] != n || (last ? (*y)[1] : (*y)[3]) != c || h > th * kOutputTile || w > tw * kOutputTile) return std::nullopt;
  text += p + "at = " + matrix(&kAT[0][0], kOutputTile, kAlpha, element) + " ";
  const std::string atType = tensorType({kOutputTile, kAlpha}, element);
  // t1(a, j, n, th, tw, c) = sum_i AT(a, i) * m(i, j, n, th, tw, c)
  const std::string t1Type = tensorType({kOutputTile, kAlpha, n, th, tw, c}, element);
  text += emptyFilled(t1Init, t1Type, p) +
          contraction(t1, 7, {p + "at", atType, "d0, d6"}, {in, inType, "d6, d1, d2, d3, d4, d5"}, t1Init, t1Type,
                      "d0, d1, d2, d3, d4, d5", element, p + "c1");
  // result(n, h, w, c) = sum_j t1(h mod 6, j, n, h floordiv 6, w floordiv 6, c) * AT(w mod 6, j)
  const std::string hd = last ? "d2" : "d1", wd = last ? "d3" : "d2", cd = last ? "d1" : "d3";
  text += zeroFilled(p + "init", out, outType, p) +
          contraction(result, 5,
                      {t1, t1Type, hd + " mod 6, d4, d0, " + hd + " floordiv 6, " + wd + " floordiv 6, " + cd},
                      {p + "at", atType, wd + " mod 6, d4"}, p + "init", outType, "d0, d1, d2, d3", element, p + "c2");
  return text;
}

}  // namespace

std::string readIreeWinograd(const std::string& text, std::vector<std::string>& notes) {
  if (text.find("iree_linalg_ext.winograd.") == std::string::npos) return text;
  static const std::regex op(
      R"((%[\w.$-]+)\s*=\s*iree_linalg_ext\.winograd\.(input|filter|output)_transform\s+output_tile_size\(\s*(\d+)\s*\)\s*kernel_size\(\s*(\d+)\s*\)\s*(?:image|kernel)_dimensions\(\s*\[([\d,\s]*)\]\s*\))");
  int id = 0;
  return rewriteEach(
      text, op,
      [&](const std::smatch& m, size_t pos) -> std::optional<Rewrite> {
        if (m[3].str() != std::to_string(kOutputTile) || m[4].str() != std::to_string(kKernel)) return std::nullopt;
        std::vector<int64_t> dims;
        for (const std::string& d : commaList(m[5].str())) {
          const std::optional<double> v = literal(trimmed(d));
          if (!v || *v < 0 || *v > 8) return std::nullopt;
          dims.push_back(int64_t(*v));
        }
        const std::optional<OpTail> t = opTail(text, pos, true, false, 1);
        if (!t || t->in.values.size() != 1 || t->outs.values.size() != 1) return std::nullopt;
        return rewritten(transform(m[2].str(), m[1].str(), dims, t->in.values[0], t->in.types[0], t->outs.values[0],
                                   t->outs.types[0], id++),
                         t->end);
      },
      "iree_linalg_ext.winograd transform(s) of F(6x6, 3x3) as the two contractions with the algorithm's constant "
      "matrix that each one is",
      notes);
}

}  // namespace polyfuse
