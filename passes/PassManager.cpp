// Placeholder: replaced by the pass manager.
#include "passes/Pass.h"
namespace tilec::passes {
const std::vector<PassInfo> &registeredPasses() {
  static const std::vector<PassInfo> all = {
#define TILEC_PASS(Name, Class, Description) {Name, Description},
#include "passes/PassRegistry.def"
  };
  return all;
}
std::unique_ptr<Pass> createPass(const std::string &) { return nullptr; }
bool runPipeline(ir::Module &, PassContext &, const PipelineOptions &) { return false; }
} // namespace tilec::passes
