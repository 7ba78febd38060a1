// Placeholder for the AllocateSharedPass (to be written).
#include "passes/Passes.h"

namespace tilec::passes {

namespace {
class AllocateSharedPass : public Pass {
public:
  const char *name() const override { return "AllocateShared"; }
  const char *description() const override { return ""; }
  void run(ir::Module &, PassContext &) override {}
};
} // namespace

std::unique_ptr<Pass> createAllocateSharedPass() { return std::make_unique<AllocateSharedPass>(); }

} // namespace tilec::passes
