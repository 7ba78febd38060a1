// Placeholder for the LowerReductionsPass (to be written).
#include "passes/Passes.h"

namespace tilec::passes {

namespace {
class LowerReductionsPass : public Pass {
public:
  const char *name() const override { return "LowerReductions"; }
  const char *description() const override { return ""; }
  void run(ir::Module &, PassContext &) override {}
};
} // namespace

std::unique_ptr<Pass> createLowerReductionsPass() { return std::make_unique<LowerReductionsPass>(); }

} // namespace tilec::passes
