#pragma once
/// \file Factories of every pass in PassRegistry.def (one per pass file).

#include "passes/Pass.h"

namespace tilec::passes {

#define TILEC_PASS(Name, Class, Description) std::unique_ptr<Pass> create##Class();
#include "passes/PassRegistry.def"

} // namespace tilec::passes
