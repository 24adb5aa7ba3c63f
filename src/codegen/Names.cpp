#include "codegen/Names.h"

#include <cctype>
#include <set>

namespace polyfuse {

namespace {

bool reserved(const std::string& n) {
  // C, C++ (CUDA is C++) and OpenCL C keywords and type names; CUDA and OpenCL
  // builtin variables; macros of the headers harness.cu includes; the math functions
  // the printers call (a local of that name would hide the function).
  static const std::set<std::string> words = {
      // C and C++
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "restrict", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
      "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
      "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      "main",
      // OpenCL C
      "kernel", "global", "local", "constant", "generic", "read_only", "write_only", "read_write", "uniform",
      "pipe", "half", "uchar", "ushort", "uint", "ulong", "quad", "complex", "imaginary", "vec_step",
      // CUDA
      "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3",
      // Macros from cuda_runtime.h, math.h, stdint.h, stdio.h, stdlib.h, string.h and the harness
      "NULL", "EOF", "INFINITY", "NAN", "HUGE_VAL", "HUGE_VALF", "errno", "stdin", "stdout", "stderr", "assert",
      "CHECK", "RAND_MAX", "EXIT_SUCCESS", "EXIT_FAILURE", "BUFSIZ", "FILENAME_MAX", "isnan", "isinf", "isfinite",
      "signbit", "fpclassify", "isnormal", "offsetof", "MAXFLOAT", "FLT_MAX", "DBL_MAX",
      // Functions the printers and the harness call
      "exp", "log", "sqrt", "rsqrt", "tanh", "erf", "fabs", "fmax", "fmin", "pow", "max", "min", "barrier",
      "sin", "cos", "tan", "atan", "atan2", "asin", "acos", "sinh", "cosh", "asinh", "acosh", "atanh", "cbrt", "erfc", "floor", "ceil", "round", "rint", "log1p", "log2", "log10", "exp2", "expm1",
      "copysign", "fmod",
      "printf", "fprintf", "malloc", "calloc", "free", "exit", "atoi", "strtoull", "fnv", "next_uniform"};
  if (words.count(n)) return true;
  // Float spellings of the math functions (CUDA's expf, ...).
  if (n.size() > 1 && n.back() == 'f' && words.count(n.substr(0, n.size() - 1))) return true;
  // Reserved for the implementation in C (_X, __x); typedef names (size_t, uint64_t,
  // image2d_t); builtin families (get_local_id, atomic_add, native_exp, convert_float,
  // as_int, cudaMalloc); OpenCL and CUDA vector types (float4, uchar16, longlong2).
  auto startsWith = [&](const char* p) { return n.rfind(p, 0) == 0; };
  if (n.size() > 1 && n[0] == '_' && (n[1] == '_' || std::isupper(static_cast<unsigned char>(n[1])))) return true;
  if (n.size() > 2 && n.compare(n.size() - 2, 2, "_t") == 0) return true;
  for (const char* p : {"get_", "atomic_", "native_", "half_", "convert_", "as_", "cuda", "mem_fence"})
    if (startsWith(p)) return true;
  size_t digits = n.find_first_of("0123456789");
  if (digits != std::string::npos && digits > 0 &&
      n.find_first_not_of("0123456789", digits) == std::string::npos) {
    static const std::set<std::string> vectorBases = {"char", "uchar", "short", "ushort", "int", "uint", "long",
                                                      "ulong", "half", "float", "double", "longlong", "ulonglong"};
    if (vectorBases.count(n.substr(0, digits))) return true;
  }
  return false;
}

}  // namespace

std::string cName(const std::string& name) {
  if (name.rfind("pf_", 0) == 0 || reserved(name)) return "pf_u_" + name;
  return name;
}

}  // namespace polyfuse
