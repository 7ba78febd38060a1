// Placeholder for the InsertBarriersPass (to be written).
#include "passes/Passes.h"

namespace tilec::passes {

namespace {
class InsertBarriersPass : public Pass {
public:
  const char *name() const override { return "InsertBarriers"; }
  const char *description() const override { return ""; }
  void run(ir::Module &, PassContext &) override {}
};
} // namespace

std::unique_ptr<Pass> createInsertBarriersPass() { return std::make_unique<InsertBarriersPass>(); }

} // namespace tilec::passes
