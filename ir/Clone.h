#pragma once
/// \file Deep copies of kernels and modules.
///
/// Copying an ir::Module with its copy constructor shares the variables (`Var` is a shared pointer
/// to the one mutable node, whose type layout assignment sets in place): passes run on the copy
/// would change the original's variables. `clone` gives the copy variables of its own; everything
/// else in the IR is immutable and stays shared.

#include "ir/IR.h"

namespace tilec::ir {

/// `k` with a fresh VarNode (same name, type, kind, location and id) for every variable its
/// parameters, body and grid settings refer to.
Kernel clone(const Kernel &k);
/// `m` with every kernel cloned.
Module clone(const Module &m);

} // namespace tilec::ir
