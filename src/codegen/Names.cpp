#include "codegen/Names.h"

#include <regex>
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
      "printf", "fprintf", "malloc", "calloc", "free", "exit", "atoi", "strtoull", "fnv", "next_uniform"};
  if (words.count(n)) return true;
  // Float spellings of the math functions (CUDA's expf, ...).
  if (n.size() > 1 && n.back() == 'f' && words.count(n.substr(0, n.size() - 1))) return true;
  // Reserved for the implementation in C; typedef names (size_t, uint64_t, image2d_t);
  // OpenCL and CUDA vector types (float4, uchar16); builtins (get_local_id, __syncthreads).
  static const std::regex pattern(
      "_[A-Z_].*|.*_t|(u?char|u?short|u?int|u?long|half|float|double|longlong|ulonglong)[0-9]+|get_.*|atomic_.*|"
      "cuda.*|mem_fence|native_.*|half_.*|convert_.*|as_.*");
  return std::regex_match(n, pattern);
}

}  // namespace

std::string cName(const std::string& name) {
  if (name.rfind("pf_", 0) == 0 || reserved(name)) return "pf_u_" + name;
  return name;
}

}  // namespace polyfuse
