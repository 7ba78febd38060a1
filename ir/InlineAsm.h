#pragma once
/// \file The constraints of a tl::inline_asm_elementwise (ir::AsmFunction::constraints), as the
/// translator checks them and the CUDA emitter writes them.

#include <string>
#include <vector>

namespace tilec::ir {

/// The constraints one an operand, the result's first: "=r, r,l" is {"=r", "r", "l"}.
inline std::vector<std::string> asmConstraintList(const std::string &constraints) {
  std::vector<std::string> r(1);
  for (char c : constraints)
    if (c == ',')
      r.emplace_back();
    else if (c != ' ')
      r.back() += c;
  return r;
}

} // namespace tilec::ir
