// The linalg front end: each example in examples/linalg/ is the same program as its TC
// form (statements, shapes, roles), and the MLIR constructs the importer takes (named
// ops, fills, multi-result generics, broadcasts, constants, older spellings) read as the
// TC a person would write; what it refuses is refused with the op's line and column.
#include <catch2/catch.hpp>
#include <regex>

#include "Helpers.h"
#include "mlir/LoadProgram.h"
#include "polyir/Printer.h"

using namespace polyfuse;

namespace {

LoadedProgram loadMlir(const std::string& text, const std::string& entry = "") {
  return loadProgramFile({"<test>.mlir", text}, entry, std::make_shared<IslContext>());
}

std::string tcOf(const std::string& mlir) { return programText(*loadMlir(mlir).program); }

test::Failure mlirFailure(const std::string& text) {
  return test::failureOf([&] { loadMlir(text); });
}

// The program with sizes, index variables and float literals named by position and
// value, so that two front ends' spellings of one program compare equal.
std::string canonical(const Program& p) {
  std::string out;
  auto rename = [&](std::string s, const std::vector<std::string>& from, const std::string& prefix) {
    for (size_t k = 0; k < from.size(); ++k)
      s = std::regex_replace(s, std::regex("\\b" + from[k] + "\\b"), prefix + std::to_string(k));
    return s;
  };
  auto numbers = [](std::string s) {
    std::string r;
    std::regex num(R"(\b[0-9]+\.[0-9]*([eE][-+]?[0-9]+)?|\b[0-9]+[eE][-+]?[0-9]+)");
    auto it = std::sregex_iterator(s.begin(), s.end(), num);
    size_t last = 0;
    for (; it != std::sregex_iterator(); ++it) {
      r += s.substr(last, size_t(it->position(0)) - last);
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.9g", double(float(std::stod(it->str()))));
      r += buf;
      last = size_t(it->position(0) + it->length(0));
    }
    return r + s.substr(last);
  };
  for (auto& t : p.tensors) out += std::string(roleName(t.role)) + " " + rename(shapeText(t), p.sizeParams, "@") + " " + t.name + "\n";
  for (auto& s : p.scalars) out += std::string("scalar ") + elemTypeName(s.type) + " " + s.name + "\n";
  for (auto& st : p.statements) {
    std::string text = rename(rename(statementText(p, st), st.dims, "#"), p.sizeParams, "@");
    for (size_t k = 0; k < st.dims.size(); ++k)
      text += " " + rename(rename(st.ranges[k].lo.str() + ":" + st.ranges[k].hi.str(), p.sizeParams, "@"), st.dims, "#");
    out += numbers(text) + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("linalg: each example is its TC program", "[linalg]") {
  for (std::string name : {"softmax", "layernorm", "rmsnorm", "matmul_bias_gelu"}) {
    INFO(name);
    LoadedProgram tc = test::loadExample(name + ".tc");
    LoadedProgram ml = loadProgramFile(readSource(std::string(POLYFUSE_EXAMPLES) + "/linalg/" + name + ".mlir"), "",
                                       std::make_shared<IslContext>());
    CHECK(canonical(*ml.program) == canonical(*tc.program));
    CHECK(ml.program->statements.size() == tc.program->statements.size());
    CHECK(ml.notes.empty());
  }
}

static const char* kRowSum = R"(
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rowsum(%X: tensor<4x?xf32>) -> tensor<4xf32> {
  %init = arith.constant INIT : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%init : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : tensor<4x?xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = COMBINE
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}
)";

static std::string rowSum(const std::string& init, const std::string& combine) {
  std::string t = kRowSum;
  t.replace(t.find("INIT"), 4, init);
  t.replace(t.find("COMBINE"), 7, combine);
  return t;
}

TEST_CASE("linalg: reductions: the combiner read off the body, fills of the identity as the ! forms", "[linalg]") {
  CHECK(tcOf(rowSum("0.0", "arith.addf %x, %a : f32")).find("s(d0) +=! X(d0, d1)") != std::string::npos);
  CHECK(tcOf(rowSum("0.0", "arith.addf %a, %x : f32")).find("s(d0) +=! X(d0, d1)") != std::string::npos);
  CHECK(tcOf(rowSum("1.0", "arith.mulf %x, %a : f32")).find("s(d0) *=! X(d0, d1)") != std::string::npos);
  CHECK(tcOf(rowSum("0xFF800000", "arith.maximumf %x, %a : f32")).find("s(d0) max=! X(d0, d1)") != std::string::npos);
  // maximumf/minimumf propagate NaN (max=, min=); maxnumf/minnumf ignore it (fmax=, fmin=).
  CHECK(tcOf(rowSum("0x7F800000", "arith.minimumf %a, %x : f32")).find("s(d0) min=! X(d0, d1)") != std::string::npos);
  CHECK(tcOf(rowSum("0x7F800000", "arith.minnumf %a, %x : f32")).find("s(d0) fmin=! X(d0, d1)") != std::string::npos);
  CHECK(tcOf(rowSum("0xFF800000", "arith.maxnumf %a, %x : f32")).find("s(d0) fmax=! X(d0, d1)") != std::string::npos);
  // Not the identity: the fill's value is stored first, then updated.
  std::string t = tcOf(rowSum("2.5", "arith.addf %x, %a : f32"));
  CHECK(t.find("s(d0) = 2.5 where d0 in 0:4\n  s(d0) += X(d0, d1)") != std::string::npos);
  // max spelled cmpf + select, in both orders: an ordered compare never takes a NaN in,
  // so the reduction ignores NaN (fmax=, fmin=).
  std::string sel = "arith.select %c, %x, %a : f32";
  std::string k = kRowSum;
  k.replace(k.find("    %r = COMBINE"), 16, "    %c = arith.cmpf ogt, %x, %a : f32\n    %r = " + sel);
  k.replace(k.find("INIT"), 4, "0xFF800000");
  CHECK(tcOf(k).find("s(d0) fmax=! X(d0, d1)") != std::string::npos);
  k = kRowSum;
  k.replace(k.find("    %r = COMBINE"), 16, "    %c = arith.cmpf ogt, %x, %a : f32\n    %r = arith.select %c, %a, %x : f32");
  k.replace(k.find("INIT"), 4, "0x7F800000");
  CHECK(tcOf(k).find("s(d0) fmin=! X(d0, d1)") != std::string::npos);
  // Not a combiner.
  auto f = mlirFailure(rowSum("0.0", "arith.subf %x, %a : f32"));
  CHECK(f.message.find("cannot read the combiner") != std::string::npos);
  CHECK(f.line == 11);
}

TEST_CASE("linalg: named ops, broadcasts, multi-result generics, shared fills, constants", "[linalg]") {
  // A transpose and a reduce (named ops, generalized) and a broadcast needing a where clause.
  std::string t = tcOf(R"(
func.func @f(%A: tensor<3x5xf32>, %b: tensor<5xf32>) -> (tensor<5x3xf32>, tensor<3xf32>, tensor<7x5xf32>) {
  %e = tensor.empty() : tensor<5x3xf32>
  %T = linalg.transpose ins(%A : tensor<3x5xf32>) outs(%e : tensor<5x3xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %r0 = tensor.empty() : tensor<3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%r0 : tensor<3xf32>) -> tensor<3xf32>
  %R = linalg.reduce ins(%A : tensor<3x5xf32>) outs(%acc : tensor<3xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<7x5xf32>
  %B = linalg.broadcast ins(%b : tensor<5xf32>) outs(%e2 : tensor<7x5xf32>) dimensions = [0]
  return %T, %R, %B : tensor<5x3xf32>, tensor<3xf32>, tensor<7x5xf32>
}
)");
  CHECK(t.find("T(d0, d1) = A(d1, d0)") != std::string::npos);
  CHECK(t.find("R(d0) +=! A(d0, d1)") != std::string::npos);
  CHECK(t.find("B(d0, d1) = b(d1) where d0 in 0:7") != std::string::npos);

  // Two results of one generic are two statements; one fill shared by two reductions is
  // two ! forms (separate buffers); a splat constant reads as its value; a dense one is an input.
  t = tcOf(R"(
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @g(%X: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %X, %c0 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : tensor<?x?xf32>) outs(%f, %f : tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%x: f32, %a: f32, %b: f32):
    %sq = arith.mulf %x, %x : f32
    %r = arith.addf %x, %a : f32
    %q = arith.addf %sq, %b : f32
    linalg.yield %r, %q : f32, f32
  } -> (tensor<?xf32>, tensor<?xf32>)
  %two = arith.constant dense<2.0> : tensor<3xf32>
  %w = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %c1 = arith.constant 1 : index
  %m = tensor.dim %X, %c1 : tensor<?x?xf32>
  %e2 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %Y = linalg.generic {indexing_maps = [#rows, affine_map<(d0, d1) -> (2)>, affine_map<(d0, d1) -> (1)>, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%X, %two, %w : tensor<?x?xf32>, tensor<3xf32>, tensor<3xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %t: f32, %v: f32, %o: f32):
    %p = arith.mulf %x, %t : f32
    %y = arith.mulf %p, %v : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %s#0, %s#1, %Y : tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>
}
)");
  CHECK(t.find("def g(float(X_0, X_1) X, float(3) w)") != std::string::npos);
  CHECK(t.find("s_0(d0) +=! X(d0, d1)\n  s_1(d0) +=! X(d0, d1) * X(d0, d1)") != std::string::npos);
  CHECK(t.find("Y(d0, d1) = X(d0, d1) * 2.0 * w(1)") != std::string::npos);
}

TEST_CASE("linalg: older spellings load, with a note", "[linalg]") {
  LoadedProgram lp = loadMlir(R"(
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
builtin.func @old(%X: tensor<8x?xf32>) -> tensor<8xf32> {
  %c1 = arith.constant 1 : index
  %m = tensor.dim %X, %c1 : tensor<8x?xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = linalg.init_tensor [8] : tensor<8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %mx = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%X : tensor<8x?xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%x: f32, %a: f32):
    %r = arith.maxf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %mx : tensor<8xf32>
}
)");
  REQUIRE(lp.notes.size() == 1);
  CHECK(lp.notes[0] == "upgraded older MLIR spellings: linalg.init_tensor is now tensor.empty; "
                       "builtin.func is now func.func; arith.maxf is now arith.maximumf");
  CHECK(programText(*lp.program).find("mx(d0) max=! X(d0, d1)") != std::string::npos);
}

TEST_CASE("linalg: what the importer refuses, located", "[linalg]") {
  auto f = mlirFailure("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %y = \"foo.bar\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %y : tensor<4xf32>\n}\n");
  CHECK(f.message.find("unsupported operation 'foo.bar'") != std::string::npos);
  CHECK(f.line == 2);
  CHECK(f.col == 8);
  f = mlirFailure("func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  return %z : tensor<4xf32>\n}\n");
  CHECK(f.message.find("undeclared SSA value") != std::string::npos);
  CHECK(f.line == 2);
  f = mlirFailure("func.func @f(%x: tensor<4xf80>) -> tensor<4xf80> {\n  return %x : tensor<4xf80>\n}\n");
  CHECK(f.message.find("element type f80 is not supported (f32, f64, f16, bf16, the f8 kinds, and signless integers i1 to i64 are)") != std::string::npos);
  std::string fromEmpty = rowSum("0.0", "arith.addf %x, %a : f32");
  fromEmpty.replace(fromEmpty.find("outs(%f"), 7, "outs(%e");
  f = mlirFailure(fromEmpty);
  CHECK(f.message.find("starts from a tensor.empty") != std::string::npos);
  CHECK(mlirFailure("").message.find("file is empty") != std::string::npos);
  // Pads and inserts: computed amounts, a computed padding value, strides, rank changes.
  const std::string padOf = "func.func @f(%x: tensor<4x?xf32>, %v: f32) -> tensor<6x?xf32> {\n"
                            "  %c1 = arith.constant 1 : index\n  %k = tensor.dim %x, %c1 : tensor<4x?xf32>\n"
                            "  %p = tensor.pad %x low[1, 0] high[1, 0] {\n"
                            "  ^bb0(%i: index, %j: index):\n"
                            "    tensor.yield %v : f32\n"
                            "  } : tensor<4x?xf32> to tensor<6x?xf32>\n"
                            "  return %p : tensor<6x?xf32>\n}\n";
  CHECK(tcOf(padOf).find("p(d0, d1) = v where d0 in 0:6, d1 in 0:x_1") != std::string::npos);
  std::string grown = padOf;
  grown.replace(grown.find("high[1, 0]"), 10, "high[1, 2]");
  f = mlirFailure(grown);
  CHECK(f.message.find("tensor.pad of a dynamic dimension (dimension 1)") != std::string::npos);
  CHECK(f.line == 4);
  CHECK(f.col == 8);
  std::string computed = padOf;
  computed.replace(computed.find("low[1, 0]"), 9, "low[%k, 0]");
  CHECK(mlirFailure(computed).message.find("computed padding amounts") != std::string::npos);
  const std::string insertOf = "func.func @f(%x: tensor<2x4xf32>, %d: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
                               "  %r = tensor.insert_slice %x into %d[1, 0] [2, 4] [STRIDE, 1] : tensor<2x4xf32> into tensor<8x4xf32>\n"
                               "  return %r : tensor<8x4xf32>\n}\n";
  std::string unit = std::regex_replace(insertOf, std::regex("STRIDE"), "1");
  CHECK(tcOf(unit).find("r(d0, d1) = x(d0 - 1, d1) where d0 in 1:3, d1 in 0:4") != std::string::npos);
  // A stride that divides its dimension is read through an expansion (strided_insert.mlir);
  // one that does not is refused.
  CHECK(tcOf(std::regex_replace(insertOf, std::regex("STRIDE"), "2")).find("r(d0, d1, d2) = x(d0, d2) where d0 in 0:2, d1 in 1:2, d2 in 0:4") !=
        std::string::npos);
  f = mlirFailure(std::regex_replace(insertOf, std::regex("STRIDE"), "3"));
  CHECK(f.message.find("stride other than 1") != std::string::npos);
  CHECK(f.line == 2);
  CHECK_THROWS_AS(loadMlir(rowSum("0.0", "arith.addf %x, %a : f32"), "nosuch"), UsageError);
}
