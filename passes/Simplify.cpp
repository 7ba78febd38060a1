// Placeholder for the SimplifyPass (to be written).
#include "passes/Passes.h"

namespace tilec::passes {

namespace {
class SimplifyPass : public Pass {
public:
  const char *name() const override { return "Simplify"; }
  const char *description() const override { return ""; }
  void run(ir::Module &, PassContext &) override {}
};
} // namespace

std::unique_ptr<Pass> createSimplifyPass() { return std::make_unique<SimplifyPass>(); }

} // namespace tilec::passes
