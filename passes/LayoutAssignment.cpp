// Placeholder for the LayoutAssignmentPass (to be written).
#include "passes/Passes.h"

namespace tilec::passes {

namespace {
class LayoutAssignmentPass : public Pass {
public:
  const char *name() const override { return "LayoutAssignment"; }
  const char *description() const override { return ""; }
  void run(ir::Module &, PassContext &) override {}
};
} // namespace

std::unique_ptr<Pass> createLayoutAssignmentPass() { return std::make_unique<LayoutAssignmentPass>(); }

} // namespace tilec::passes
