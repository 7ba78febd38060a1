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

/// The macros of CUDA's and HIP's headers (tools/vendor-macros.sh): a name the preprocessor replaces.
const char *const kVendorMacros[] = {
#include "emitters/VendorMacros.inc"
};
} // namespace

NameTable::NameTable() {
  for (const char *r : kReserved)
    taken_.insert(r);
  for (const std::string &r : ir::namesTheOutputUses())
    taken_.insert(r);
  for (const char *r : kVendorMacros)
    taken_.insert(r);
}

bool NameTable::isTaken(const std::string &name) const {
  // Every TILEC_ name is the runtime's or the emulator's (macros among them).
  return taken_.count(name) != 0 || name.rfind("TILEC_", 0) == 0;
}

std::string NameTable::identifier(const std::string &hint) {
  std::string base = ir::asciiIdentifier(hint);
  // No suffix frees a TILEC_ name: put something in front.
  if (base.rfind("TILEC_", 0) == 0)
    base = "v_" + base;
  return base;
}

std::string NameTable::unique(const std::string &hint) {
  const std::string base = identifier(hint);
  std::string name = base;
  for (int n = 1; isTaken(name); ++n)
    name = base + "_" + std::to_string(n);
  taken_.insert(name);
  return name;
}

} // namespace tilec::emitters
