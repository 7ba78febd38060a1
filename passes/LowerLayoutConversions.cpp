// Placeholder for the LowerLayoutConversionsPass (to be written).
#include "passes/Passes.h"

namespace tilec::passes {

namespace {
class LowerLayoutConversionsPass : public Pass {
public:
  const char *name() const override { return "LowerLayoutConversions"; }
  const char *description() const override { return ""; }
  void run(ir::Module &, PassContext &) override {}
};
} // namespace

std::unique_ptr<Pass> createLowerLayoutConversionsPass() { return std::make_unique<LowerLayoutConversionsPass>(); }

} // namespace tilec::passes
