#pragma once
/// \file The pass interface and pass manager. Every pass is listed once in PassRegistry.def.

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "ir/Target.h"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace tilec::passes {

struct PassContext {
  DiagnosticEngine &diags;
  ir::Target target;
};

class Pass {
public:
  virtual ~Pass() = default;
  /// The pass's name in PassRegistry.def (which also holds its description).
  virtual const char *name() const = 0;
  /// Transform `m`. User errors go to ctx.diags (the pipeline stops after a pass that reported
  /// one); broken invariants are internal errors (exceptions), never diagnostics.
  virtual void run(ir::Module &m, PassContext &ctx) = 0;
};

struct PassInfo {
  const char *name;
  const char *description;
};
/// Every registered pass, in pipeline order.
const std::vector<PassInfo> &registeredPasses();
std::unique_ptr<Pass> createPass(const std::string &name); // null if unknown

struct PipelineOptions {
  std::string stopAfter;               ///< empty: run all
  std::vector<std::string> printAfter; ///< pass names, or "all"
  bool verifyEach = true;              ///< run the verifier after every pass
  std::ostream *printStream = nullptr; ///< where --print-after output goes
};

/// Run the registered pipeline on `m`. Returns false if a pass reported an error.
bool runPipeline(ir::Module &m, PassContext &ctx, const PipelineOptions &opts);

} // namespace tilec::passes
