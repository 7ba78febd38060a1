#include "emitters/NameTable.h"

#include <cctype>

namespace tilec::emitters {

namespace {
const char *const kReserved[] = {
    // C++ keywords and alternative tokens
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
    "catch", "char", "char16_t", "char32_t", "char8_t", "class", "compl", "concept", "const",
    "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return",
    "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
    "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int",
    "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
    "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "return",
    "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
    "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    // CUDA / HIP built-ins and names the output relies on
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "tilec", "std", "smem",
    "int8_t", "int64_t", "uintptr_t", "INFINITY", "NAN", "main",
    "__half", "__nv_bfloat16", "hip_bfloat16", "__syncthreads",
    "expf", "exp2f", "logf", "log2f", "sqrtf", "rsqrtf", "tanhf", "erff", "fabsf", "floorf",
    "ceilf", "fmaf", "fminf", "fmaxf", "abs", "llabs", "min", "max"};
} // namespace

NameTable::NameTable() {
  for (const char *r : kReserved)
    taken_.insert(r);
}

std::string NameTable::unique(const std::string &hint) {
  std::string base;
  for (char c : hint)
    base += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0])))
    base = "v" + base;
  // Identifiers with a double underscore or `_Upper` are reserved for the implementation.
  while (base.find("__") != std::string::npos)
    base.erase(base.find("__"), 1);
  if (base[0] == '_')
    base = "v" + base;
  std::string name = base;
  for (int n = 1; taken_.count(name); ++n)
    name = base + "_" + std::to_string(n);
  taken_.insert(name);
  return name;
}

} // namespace tilec::emitters
