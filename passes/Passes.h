#pragma once
/// \file Factories of every pass in PassRegistry.def (one per pass file).

#include "passes/Pass.h"

namespace tilec::passes {

#define TILEC_PASS(Name, Class, Description) std::unique_ptr<Pass> create##Class();
#include "passes/PassRegistry.def"

/// `body` without the declarations of variables that nothing reads (nor assignments to them): the
/// dead-decls pass, for passes that can leave a declaration unread (DeadDecls.cpp).
ir::Stmt removeDeadDecls(const ir::Stmt &body);

/// `e` with constants folded and identities removed as the simplify pass does (Simplify.cpp), for
/// passes that substitute values into expressions.
ir::Expr foldConstants(const ir::Expr &e);

/// Whether some loop of `k` has two or more stages (the kernel's `num_stages`, or a loop's own
/// `tl::range<S>`): the loops prefetch-loads and pipeline-dots may change (PrefetchLoads.cpp).
bool hasStagedLoops(const ir::Kernel &k);

} // namespace tilec::passes
