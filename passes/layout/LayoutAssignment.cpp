// layout-assignment: axis analysis, coalesced blocked layouts (Triton's coalesce pass), propagation
// to every tile, layout conversions where values meet in two layouts, vector widths.
//
// Before: materialize (Load/Reduce only at the roots of Decl/Assign). Tiles have no layouts.
// After: every tile-typed Expr and Var has a layout and the elementwise invariants of
// docs/internals.md hold (operands in the result's layout, ExpandDims operand in the slice of its
// result, Broadcast operand in the result's layout); every Load/Store has `vec` and `aligned`.
// `ConvertLayout` appears only around a `VarRef` of a variable whose value is not cheap to
// recompute (loaded or reduced data), as the whole or part of an initializer/value/store operand,
// e.g. `store(..., convert_layout(%tile), ...)`. A Load or Reduce whose result must be in another
// layout than its own is first bound to `<var>_<load|op>` and then converted.
//
// Algorithm.
// 1. Anchors: each tile Load/Store picks a blocked layout from its pointer's axis info: `order` by
//    decreasing contiguity (ties: last dim first); `spt[order[0]]` = min(contiguity, 16 bytes /
//    element, elements per thread if spread evenly), powers of two; lanes and warps filled from
//    order[0] outwards as Triton's BlockedEncodingAttr (threadsPerWarp from ctx.target.warpSize()).
// 2. Variables whose value comes from loads or reductions ("strong") take the layout of their
//    first assignment that has one (the anchor of a load, the slice of a reduction's operand, an
//    elementwise op's strong operand).
// 3. Cheap index arithmetic (arange, splat, constants, scalars, elementwise/expand/broadcast of
//    those; a variable assigned exactly once) takes the layouts its users demand. The first demand
//    in program order is the variable's layout; each further demanded layout gets a copy declared
//    right after the original, named `<name>_<use>` (`rm_store`: rm in the store's layout;
//    `_load`: a load's; `_<var>`: the layout of that variable; `_blocked`: a default layout).
// 4. Tiles without an anchor or demand get a default blocked layout (spt from the element size).
// 5. vec = the largest power of two <= min(spt[order[0]], pointer contiguity along order[0])
//    dividing spt[order[0]]; aligned = pointer divisibility (bytes) is a multiple of vec * elem.
// 6. TooManyRegisters when a tile needs more than 256 elements per thread.
//
//   decl %offs: tile<1024xi32> = add(splat(%o), arange(0, 1024))                       // before
//   decl %a: tile<1024xf32> = load(add(splat(%x), %offs))
//   decl %offs: tile<1024xi32, #blocked<spt=[4], tpw=[32], wpb=[4], order=[0]>> = ...   // after
//   decl %a: tile<1024xf32, #blocked<...>> = load(...) {vec=4}
//
// Transpose: the load is contiguous along dim 1 (order [1,0]), the store along dim 0 (order [0,1]);
// the loaded tile is converted before the store and rm, rn, mask are re-declared as rm_store,
// rn_store, mask_store in the store's layout.
//
// Files: Coalesce.cpp (steps 1, 4, 5), Propagate.cpp (steps 2, 3), Rewrite.cpp (the rewritten IR),
// this file (driver, step 6, the pass); Assigner.h is what they share.
#include "ir/IRVisitor.h"
#include "passes/Passes.h"
#include "passes/layout/Assigner.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace tilec::passes {

using namespace ir;

namespace layout {

namespace {

constexpr int64_t kMaxElemsPerThread = 256;

} // namespace

[[noreturn]] void internalError(const std::string &what) {
  throw std::logic_error("internal error: layout-assignment: " + what);
}

void Assigner::run() {
  if (numWarps <= 0 || (numWarps & (numWarps - 1)) != 0)
    internalError("num_warps must be a positive power of two");
  int pos = 0;
  number(k.body, pos);
  classify(k.body);
  // Strong variables from their definitions (forward, to a fixpoint across loops).
  for (int iter = 0; iter < 8; ++iter) {
    bool changed = false;
    decideStrong(k.body, changed);
    if (!changed)
      break;
  }
  // Demands of users (backward, to a fixpoint).
  for (int iter = 0; iter < 16; ++iter) {
    size_t before = signature();
    walkBack(k.body);
    if (signature() == before)
      break;
  }
  finalize();
  // A value whose every use took a copy in another layout (step 3) is left unread.
  k.body = removeDeadDecls(rewrite(k.body));
  checkRegisters();
}

void Assigner::checkRegisters() {
  for (auto &v : order) {
    auto &st = vars[v.get()];
    if (!st.tile || !v->type.layout)
      continue;
    int64_t n = geometry(*v->type.layout, v->type.shape).totalElemsPerThread();
    if (n > kMaxElemsPerThread)
      ctx.diags.report(DiagId::TooManyRegisters, v->loc,
                       {v->name, std::to_string(n), std::to_string(kMaxElemsPerThread)});
  }
}

} // namespace layout

namespace {

class LayoutAssignmentPass : public Pass {
public:
  const char *name() const override { return "layout-assignment"; }
  void run(Module &m, PassContext &ctx) override {
    for (auto &k : m.kernels) {
      layout::Assigner(k, ctx).run();
    }
  }
};

} // namespace

std::unique_ptr<Pass> createLayoutAssignmentPass() {
  return std::make_unique<LayoutAssignmentPass>();
}

} // namespace tilec::passes
