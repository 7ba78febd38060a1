// Aligned variants chosen at launch (see AlignedVariants.h).
#include "driver/AlignedVariants.h"

#include "emitters/CodeWriter.h"
#include "emitters/KernelEmitter.h"
#include "ir/Clone.h"
#include "ir/Diagnostics.h"
#include "ir/IRVisitor.h"
#include "passes/Passes.h"

#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>

namespace tilec {

namespace {

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

/// Integer parameters wide enough to be strides or sizes: an aligned variant may assume them
/// divisible by 16, or equal to 1.
std::set<int> integers(const ir::Kernel &k) {
  std::set<int> ids;
  for (const ir::Var &p : k.params)
    if (!p->type.pointer && (p->type.elem == ir::ScalarType::I32 || p->type.elem == ir::ScalarType::I64))
      ids.insert(p->id);
  return ids;
}

/// Parameters an aligned variant may assume divisible by 16: pointers, and the integers above.
std::set<int> candidates(const ir::Kernel &k) {
  std::set<int> ids = integers(k);
  for (const ir::Var &p : k.params)
    if (p->type.pointer)
      ids.insert(p->id);
  return ids;
}

/// The bytes the kernel's loads and stores move per access, summed over its accesses: all of
/// them, and those whose vectors lie along the last dim of their tiles.
struct VectorBytes {
  int64_t all = 0, lastDim = 0;
};
VectorBytes vectorBytes(const ir::Kernel &k) {
  struct Walk : ir::IRVisitor {
    VectorBytes r;
    void add(const ir::Type &t, int vec, ir::ScalarType elem) {
      const ir::Layout *l = t.layout.get();
      const int64_t bytes = vec * ir::byteSize(elem);
      r.all += bytes;
      if (t.rank() < 2 || (l && l->kind == ir::Layout::Kind::Blocked && l->order[0] == t.rank() - 1))
        r.lastDim += bytes;
    }
    using ir::IRVisitor::visit;
    void visit(const ir::Load *n) override {
      add(n->type, n->vec, n->type.elem);
      ir::IRVisitor::visit(n);
    }
    void visit(const ir::Store *s) override {
      add(s->ptr->type, s->vec, s->value->type.elem);
      ir::IRVisitor::visit(s);
    }
    // A load that pipeline-dots made asynchronous copies (before the loop and in it): once.
    std::set<int> copied;
    // A TMA copy moves whole rows: counted as 16-byte vectors along them, as cp.async's best.
    std::set<int> copiedByTma;
    void visit(const ir::AsyncCopy *c) override {
      if (c->tma()) {
        if (copiedByTma.insert(c->buffer).second)
          r.all += 16, r.lastDim += 16;
      } else if (copied.insert(c->buffer).second) {
        add(c->ptr->type, c->vec, c->ptr->type.elem);
      }
      ir::IRVisitor::visit(c);
    }
  } walk;
  walk.visit(k.body);
  return walk.r;
}

/// Whether assuming a parameter equal to 1 (`b`) gains over not (`a`): wider accesses in all, and
/// wider along the last dim. Tiles are taken as row-major, as C++ and PyTorch lay them out: a
/// unit stride of a matmul's `stride_ak` (A's rows contiguous) is assumed, not one of `stride_am`
/// (a column-major A), nor a transpose's output row stride, which only moves its vectors from one
/// dim to the other.
bool unitStrideGains(const VectorBytes &a, const VectorBytes &b) {
  return b.all > a.all && b.lastDim > a.lastDim;
}

/// Kernel `index` of `pristine` compiled assuming `assumed` divisible by 16 and `ones` equal to 1;
/// nothing when the pipeline reports an error (the general kernel compiled, so this is not
/// expected).
std::optional<Trial> compileAssuming(const ir::Module &pristine, size_t index,
                                     const std::set<int> &assumed, const std::set<int> &ones,
                                     const ir::Target &target, const emitters::EmitOptions &opts) {
  ir::Module single;
  single.files = pristine.files;
  single.globalNames = pristine.globalNames;
  single.sourceMacros = pristine.sourceMacros;
  single.kernels.push_back(ir::clone(pristine.kernels[index]));
  single.kernels[0].divisibleBy16 = assumed;
  single.kernels[0].equalToOne = ones;
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
    std::set<int> ones;
    std::optional<Trial> best = compileAssuming(pristine, i, assumed, ones, target, opts);
    // Unit strides: an integer assumed equal to 1 rather than a multiple of 16 where that widens
    // the vector accesses (Triton specializes arguments equal to 1 alike, at run time; tilec
    // decides ahead of time, for row-major tiles: unitStrideGains).
    for (int id : integers(pristine.kernels[i])) {
      if (!best)
        break;
      std::set<int> fewer = assumed, more = ones;
      fewer.erase(id);
      more.insert(id);
      std::optional<Trial> t = compileAssuming(pristine, i, fewer, more, target, opts);
      if (t && unitStrideGains(vectorBytes(*best->kernel), vectorBytes(*t->kernel))) {
        assumed = std::move(fewer);
        ones = std::move(more);
        best = std::move(t);
      }
    }
    if (!best || best->text == kernelText(compiled, k, opts))
      continue;
    // The fewest assumptions with the same code: drop each in turn where the code stays the same.
    for (int id : std::set<int>(assumed)) {
      std::set<int> fewer = assumed;
      fewer.erase(id);
      if (fewer.empty() && ones.empty())
        continue;
      std::optional<Trial> t = compileAssuming(pristine, i, fewer, ones, target, opts);
      if (t && t->text == best->text) {
        assumed = std::move(fewer);
        best = std::move(t);
      }
    }
    for (int id : std::set<int>(ones)) {
      std::set<int> fewer = ones;
      fewer.erase(id);
      if (fewer.empty() && assumed.empty())
        continue;
      std::optional<Trial> t = compileAssuming(pristine, i, assumed, fewer, target, opts);
      if (t && t->text == best->text) {
        ones = std::move(fewer);
        best = std::move(t);
      }
    }
    k.alignedVariant = std::move(best->kernel);
  }
}

} // namespace tilec
