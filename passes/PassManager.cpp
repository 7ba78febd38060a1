// The pass manager: the registry (PassRegistry.def), pass creation and the pipeline driver.
//
// runPipeline runs the registered passes in order. After each pass: if it reported an error
// (ctx.diags.hasErrors()) the pipeline stops and returns false; the IR is printed when the pass is
// named in `printAfter` (or "all") under the header `// -----// IR after <name> //----- //`; with
// `verifyEach` the verifier runs and a failure is an internal error naming the pass. The pipeline
// stops after `stopAfter`. When every pass ran, the stricter `verifyLowered` (the emitter's
// contract, docs/internals.md) runs as well, also as an internal error. Unknown pass names in the
// options (the driver validates them) make it return false before running anything.
#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "passes/Passes.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>

namespace tilec::passes {

const std::vector<PassInfo> &registeredPasses() {
  static const std::vector<PassInfo> all = {
#define TILEC_PASS(Name, Class, Description) {Name, Description},
#include "passes/PassRegistry.def"
  };
  return all;
}

std::unique_ptr<Pass> createPass(const std::string &name) {
#define TILEC_PASS(Name, Class, Description)                                                       \
  if (name == Name)                                                                                \
    return create##Class();
#include "passes/PassRegistry.def"
  return nullptr;
}

namespace {

bool isRegistered(const std::string &name) {
  for (auto &p : registeredPasses())
    if (name == p.name)
      return true;
  return false;
}

} // namespace

bool runPipeline(ir::Module &m, PassContext &ctx, const PipelineOptions &opts) {
  if (!opts.stopAfter.empty() && !isRegistered(opts.stopAfter))
    return false;
  bool printAll = false;
  for (auto &n : opts.printAfter) {
    if (n == "all")
      printAll = true;
    else if (!isRegistered(n))
      return false;
  }
  std::ostream &os = opts.printStream ? *opts.printStream : std::cerr;
  ctx.diags.setModule(&m);

  for (auto &info : registeredPasses()) {
    std::string name = info.name;
    std::unique_ptr<Pass> pass = createPass(name);
    if (!pass)
      return false;
    pass->run(m, ctx);
    if (ctx.diags.hasErrors())
      return false;
    if (printAll ||
        std::find(opts.printAfter.begin(), opts.printAfter.end(), name) != opts.printAfter.end()) {
      os << "// -----// IR after " << name << " //----- //\n";
      ir::print(os, m);
    }
    std::string why;
    if (opts.verifyEach && !ir::verify(m, &why))
      throw std::logic_error("internal error: IR verification failed after pass '" + name +
                             "': " + why);
    if (name == opts.stopAfter)
      return true;
  }
  std::string why;
  if (!ir::verifyLowered(m, &why))
    throw std::logic_error("internal error: the IR at the end of the pipeline breaks the emitter "
                           "contract (docs/internals.md): " +
                           why);
  return true;
}

} // namespace tilec::passes
