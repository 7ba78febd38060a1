// Aligned variants chosen at launch (see AlignedVariants.h).
#include "driver/AlignedVariants.h"

#include "emitters/CodeWriter.h"
#include "emitters/KernelEmitter.h"
#include "ir/Clone.h"
#include "ir/Diagnostics.h"
#include "passes/Passes.h"

#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>

namespace tilec {

namespace {

/// Parameters an aligned variant may assume divisible by 16: pointers, and integer arguments wide
/// enough to be strides or sizes.
std::set<int> candidates(const ir::Kernel &k) {
  std::set<int> ids;
  for (const ir::Var &p : k.params) {
    const ir::Type &t = p->type;
    if (t.pointer || t.elem == ir::ScalarType::I32 || t.elem == ir::ScalarType::I64)
      ids.insert(p->id);
  }
  return ids;
}

/// The kernel's emitted text (its namespace), the launcher aside.
std::string kernelText(const ir::Module &m, const ir::Kernel &k, const emitters::EmitOptions &opts) {
  emitters::KernelEmitter ke(m, k, opts);
  emitters::CodeWriter w;
  ke.emit(w);
  return w.str();
}

struct Trial {
  std::shared_ptr<ir::Kernel> kernel;
  std::string text;
};

/// Kernel `index` of `pristine` compiled assuming `assumed` divisible by 16; nothing when the
/// pipeline reports an error (the general kernel compiled, so this is not expected).
std::optional<Trial> compileAssuming(const ir::Module &pristine, size_t index, const std::set<int> &assumed,
                                     const ir::Target &target, const emitters::EmitOptions &opts) {
  ir::Module single;
  single.files = pristine.files;
  single.globalNames = pristine.globalNames;
  single.sourceMacros = pristine.sourceMacros;
  single.kernels.push_back(ir::clone(pristine.kernels[index]));
  single.kernels[0].divisibleBy16 = assumed;
  std::ostringstream quiet; // the general kernel's compilation reported whatever there is to say
  DiagnosticEngine diags(quiet);
  passes::PassContext ctx{diags, target};
  if (!passes::runPipeline(single, ctx, passes::PipelineOptions{}) || diags.hasErrors())
    return std::nullopt;
  Trial t;
  t.text = kernelText(single, single.kernels[0], opts);
  t.kernel = std::make_shared<ir::Kernel>(std::move(single.kernels[0]));
  return t;
}

} // namespace

void addAlignedVariants(const ir::Module &pristine, ir::Module &compiled, const ir::Target &target,
                        const emitters::EmitOptions &opts) {
  for (size_t i = 0; i < compiled.kernels.size(); ++i) {
    ir::Kernel &k = compiled.kernels[i];
    std::set<int> assumed = candidates(pristine.kernels[i]);
    if (assumed.empty())
      continue;
    std::optional<Trial> best = compileAssuming(pristine, i, assumed, target, opts);
    if (!best || best->text == kernelText(compiled, k, opts))
      continue;
    // The fewest assumptions with the same code: drop each in turn where the code stays the same.
    for (int id : std::set<int>(assumed)) {
      std::set<int> fewer = assumed;
      fewer.erase(id);
      if (fewer.empty())
        continue;
      std::optional<Trial> t = compileAssuming(pristine, i, fewer, target, opts);
      if (t && t->text == best->text) {
        assumed = std::move(fewer);
        best = std::move(t);
      }
    }
    k.alignedVariant = std::move(best->kernel);
  }
}

} // namespace tilec
