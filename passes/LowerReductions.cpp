// lower-reductions: every `Reduce` becomes the in-thread / warp-shuffle / shared-memory sequence of
// docs/internals.md invariant 5.
//
// Runs after: layout-assignment (every tile has a layout; a tile-valued Reduce has the layout
// Slice(operand layout, axis)). `materialize` normally made each Reduce the whole init of a Decl;
// any other Reduce is hoisted here to its own Decl (`<var>_<op>`, e.g. `y_max`).
// Guarantees: no Reduce remains; each became
//   decl P = thread_reduce.OP(x, axis=a)            P: reduced shape, Slice(L, a) (scalar if 1-D)
//   P = warp_reduce.OP(P, lanes=[...], warp_size=W) only if some lane bits of dim a hold distinct data
//   shared_write_partials B, P axis=a of S L        only if n > 1 warps hold distinct data along a
//   barrier
//   decl R = shared_combine.OP(B, parts=n)
// P is the user's variable when it can be (a Decl, no shared step, not argmax/argmin), else a new
// `<var>_part`. ArgMax/ArgMin partials are argPairs (value, index); the result is
// `decl r = pair_index(<pair>)` where the pair is `<var>_part` or the combined `<var>_pair`.
// Assign targets always go through `<var>_part` (the operand may read the target). Sum of i1/i8
// reduces `cast<i32>(x)`. B is a new SharedBuffer `<var>_smem` of shape [n, reduced shape...],
// elemType the partial's type, rowStride the last dim (no padding: partials are tiny).
//
//   before: decl %m: f32 = reduce.max(%x, axis=0)        %x: tile<1024xf32, #blocked<[4],[32],[4],[0]>>
//   after:  decl %m_part: f32 = thread_reduce.max(%x, axis=0)
//           %m_part = warp_reduce.max(%m_part, lanes=[16,8,4,2,1], warp_size=32)
//           shared_write_partials 0, %m_part axis=0 of [1024] #blocked<...>
//           barrier
//           decl %m: f32 = shared_combine.max(0, parts=4)
//
// Lane masks and part counts (LoweringUtil.h axisDistribution): along root dim d of shape S the
// distinct thread positions are D = ceil(S[d]/spt[d]); the low log2(min(tpw[d], D)) lane bits of d
// hold distinct data (fewer with replication) and min(wpb[d], ceil(D/tpw[d])) warps do. The warp
// size comes from ctx.target.
//
// A reduction with the kernel's own combine function (op Combine) takes the same steps, its
// combine function (Kernel::combines) named by each.
//
// Scans (`Scan` of part Whole, hoisted to their own Decl alike, `<var>_cumsum`) become
//   decl Y = warp_scan.OP(x, axis=a)                  the whole scan when one warp holds the axis
//   shared_write_scan_totals B, Y axis=a              only if n > 1 warps hold distinct data along a
//   barrier
//   Y = scan_carry.OP(Y, totals=B, axis=a)
// in Y's layout (a blocked one or a slice of one: layout-assignment saw to it). B holds each warp's
// total per repetition of the layout along a: [R * n] for a 1-D tile, [R * n, other dim] for a
// 2-D one, where R = S[a] / (spt * tpw * wpb) along the root dim (1 when the tile is smaller);
// tilec/rt/scan.hpp's ScanShape derives the same R and n from the layout's constants.
//
//   before: decl %c: tile<2048xf32> = scan.sum(%x, axis=0)          (4 warps, 4 elements a thread)
//   after:  decl %c = warp_scan.sum(%x, axis=0)
//           shared_write_scan_totals 1, %c axis=0
//           barrier
//           %c = scan_carry.sum(%c, totals=1, axis=0)
#include "passes/LoweringUtil.h"
#include "passes/Passes.h"

namespace tilec::passes {

namespace {

using namespace ir;
using lowering::internalError;

class ReductionLowering {
public:
  ReductionLowering(Kernel &k, int warpSize) : k(k), warpSize(warpSize) {}

  void run() {
    lowering::HoistingRewriter rw(
        k, [](const Expr &e) { return e && e->kind == ExprKind::Reduce; },
        [this](const Expr &node, const Var &dest, bool isDecl, SourceLoc loc,
               std::vector<Stmt> &out) { lower(*as<Reduce>(node), dest, isDecl, loc, out); },
        [](const Expr &e) { return resultStem(as<Reduce>(e)->op); });
    k.body = rw.rewriteBody(k.body);
    lowering::HoistingRewriter scans(
        k,
        [](const Expr &e) {
          return e && e->kind == ExprKind::Scan && as<Scan>(e)->part == ScanPart::Whole;
        },
        [this](const Expr &node, const Var &dest, bool isDecl, SourceLoc loc,
               std::vector<Stmt> &out) { lowerScan(*as<Scan>(node), dest, isDecl, loc, out); },
        [](const Expr &e) { return resultStem(as<Scan>(e)->op); });
    k.body = scans.rewriteBody(k.body);
  }

private:
  void lowerScan(const Scan &s, const Var &dest, bool isDecl, SourceLoc loc,
                 std::vector<Stmt> &out) {
    const Type &t = s.type;
    if (!t.layout || !sameLayout(t.layout, dest->type.layout) ||
        t.layout->root().kind != Layout::Kind::Blocked)
      internalError("lower-reductions: scan." + std::string(name(s.op)) + " into '" + dest->name +
                    "' is not in its variable's blocked layout");
    // The InWarp part writes its variable in place after copying its operand, which is elementwise
    // (materialize bound the rest), so `x = cumsum(x)` needs no temporary either.
    Expr inWarp = Scan::makePart(s, ScanPart::InWarp, s.a);
    out.push_back(isDecl ? Decl::make(dest, inWarp, loc) : Assign::make(dest, inWarp, loc));
    lowering::AxisDistribution dist = lowering::axisDistribution(*t.layout, t.shape, s.axis);
    if (dist.numParts == 1)
      return;
    lowering::RootView v = lowering::rootView(*t.layout, t.shape);
    const Layout &root = *v.root;
    const int d = dist.rootAxis;
    const int64_t cov =
        int64_t(root.sizePerThread[d]) * root.threadsPerWarp[d] * root.warpsPerBlock[d];
    const int64_t reps = v.rootShape[d] >= cov ? v.rootShape[d] / cov : 1;
    std::vector<int64_t> shape{reps * dist.numParts};
    if (t.rank() == 2)
      shape.push_back(t.shape[1 - s.axis]);
    const int idx = lowering::addBuffer(k, dest->name + "_totals", t, shape);
    out.push_back(
        SharedWrite::makeScanTotals(idx, VarRef::make(dest, loc), s.axis, s.reverse, loc));
    out.push_back(Barrier::make(loc));
    out.push_back(
        Assign::make(dest, Scan::makePart(s, ScanPart::Carry, VarRef::make(dest, loc), idx), loc));
  }

  void lower(const Reduce &r, const Var &dest, bool isDecl, SourceLoc loc,
             std::vector<Stmt> &out) {
    const Type &inT = r.a->type;
    if (!inT.layout)
      internalError("lower-reductions: operand of reduce." + std::string(name(r.op)) +
                    " has no layout (layout-assignment must run first)");
    bool arg = r.op == ReduceOp::ArgMax || r.op == ReduceOp::ArgMin;
    Expr x = r.a;
    if (r.op == ReduceOp::Sum && (inT.elem == ScalarType::Bool || inT.elem == ScalarType::I8))
      x = Cast::make(ScalarType::I32, x, loc);

    // The partial: reduced shape in Slice(L, axis), argPair for argmax/argmin.
    Type partT = x->type;
    partT.shape.erase(partT.shape.begin() + r.axis);
    partT.layout = partT.shape.empty() ? nullptr : Layout::slice(inT.layout, r.axis);
    partT.argPair = arg;
    Type resT = partT;
    resT.argPair = false;
    if (arg)
      resT.elem = ScalarType::I32;
    if (!sameShapeAndElem(resT, dest->type) || !sameLayout(resT.layout, dest->type.layout))
      internalError("lower-reductions: '" + dest->name + "' has type " + dest->type.str() +
                    " but its reduction gives " + resT.str());

    lowering::AxisDistribution dist = lowering::axisDistribution(*inT.layout, inT.shape, r.axis);
    bool crossWarp = dist.numParts > 1;
    Var part = isDecl && !crossWarp && !arg
                   ? dest
                   : k.newVar(dest->name + "_part", partT, VarKind::Local, loc);
    out.push_back(
        Decl::make(part, ThreadReduce::make(r.op, r.axis, x, partT, loc, r.combineFn), loc));
    if (!dist.laneMasks.empty())
      out.push_back(Assign::make(part,
                                 WarpReduce::make(r.op, VarRef::make(part, loc), dist.laneMasks,
                                                  warpSize, loc, r.combineFn),
                                 loc));

    Var combined = part;
    if (crossWarp) {
      std::vector<int64_t> shape{dist.numParts};
      shape.insert(shape.end(), partT.shape.begin(), partT.shape.end());
      const int idx = lowering::addBuffer(k, dest->name + "_smem", partT, shape);
      out.push_back(SharedWrite::makePartials(idx, VarRef::make(part, loc), r.axis, inT.layout,
                                              inT.shape, loc));
      out.push_back(Barrier::make(loc));
      Expr comb = SharedRead::makeCombine(idx, r.op, dist.numParts, partT, loc, r.combineFn);
      if (!arg) {
        out.push_back(isDecl ? Decl::make(dest, comb, loc) : Assign::make(dest, comb, loc));
        return;
      }
      combined = k.newVar(dest->name + "_pair", partT, VarKind::Local, loc);
      out.push_back(Decl::make(combined, comb, loc));
    }
    if (combined == dest)
      return;
    Expr fin = VarRef::make(combined, loc);
    if (arg)
      fin = PairValue::make(fin, true, loc);
    out.push_back(isDecl ? Decl::make(dest, fin, loc) : Assign::make(dest, fin, loc));
  }

  Kernel &k;
  int warpSize;
};

class LowerReductionsPass : public Pass {
public:
  const char *name() const override { return "lower-reductions"; }
  void run(Module &m, PassContext &ctx) override {
    for (auto &k : m.kernels)
      ReductionLowering(k, ctx.target.warpSize()).run();
  }
};

} // namespace

std::unique_ptr<Pass> createLowerReductionsPass() { return std::make_unique<LowerReductionsPass>(); }

} // namespace tilec::passes
