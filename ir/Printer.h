#pragma once
/// \file Canonical, deterministic text form of the Tile IR (the format of pass tests).

#include "ir/IR.h"

#include <ostream>
#include <string>

namespace tilec::ir {

struct PrintOptions {
  bool locations = false; ///< append `loc(file:line:col)` to statements
};

void print(std::ostream &os, const Module &m, const PrintOptions &opts = {});
void print(std::ostream &os, const Kernel &k, const Module *m = nullptr,
           const PrintOptions &opts = {});
std::string toString(const Expr &e);
std::string toString(const Stmt &s);

} // namespace tilec::ir
