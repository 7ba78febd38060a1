#include "emitters/NameTable.h"

#include "ir/Identifier.h"

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
    // Beside ir::namesTheOutputUses: the kernel's shared-memory array, and names a reader would
    // take for the standard library's or CUDA's.
    "smem", "std", "main", "warpSize", "NAN", "int32_t", "uint32_t", "uint64_t", "uintptr_t",
    "size_t", "expf", "exp2f", "abs", "llabs", "min", "max"};
} // namespace

NameTable::NameTable() {
  for (const char *r : kReserved)
    taken_.insert(r);
  for (const std::string &r : ir::namesTheOutputUses())
    taken_.insert(r);
}

std::string NameTable::unique(const std::string &hint) {
  const std::string base = ir::asciiIdentifier(hint);
  std::string name = base;
  for (int n = 1; taken_.count(name); ++n)
    name = base + "_" + std::to_string(n);
  taken_.insert(name);
  return name;
}

} // namespace tilec::emitters
