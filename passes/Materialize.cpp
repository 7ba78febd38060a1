// Placeholder for the MaterializePass (to be written).
#include "passes/Passes.h"

namespace tilec::passes {

namespace {
class MaterializePass : public Pass {
public:
  const char *name() const override { return "Materialize"; }
  const char *description() const override { return ""; }
  void run(ir::Module &, PassContext &) override {}
};
} // namespace

std::unique_ptr<Pass> createMaterializePass() { return std::make_unique<MaterializePass>(); }

} // namespace tilec::passes
