// lower-layout-conversions: every `ConvertLayout` becomes a round trip through shared memory
// (docs/internals.md invariant 6).
//
// Runs after: layout-assignment (which inserts the conversions) and lower-reductions.
// Gathers (tl::gather, tl::flip) take the same round trip: `y = gather(src, index)` becomes
//   shared_write B, src ; barrier ; decl y = shared_read(B, gather axis=a at index)
// with B the source's shape, unpadded (the reads go where the indices say).
//
// Histograms (tl::histogram) count into int32 counters in shared memory:
//   shared_write B, splat(0) ; barrier ; shared_write_count B, x, mask=m ; barrier ;
//   decl y = shared_read(B)
// the counting an atomic add per element of x (its owner's) that lies in [0, bins).
//
// Reshapes (tl::reshape, ravel, join, split, interleave, cat) stage their operands row-major and
// unpadded, each in its own layout, and read the result back in its layout by the reshape's rule:
//   shared_write A, a ; [shared_write B, b ;] barrier ; decl y = shared_read(A[, B], interleave)
//
// Sorts (tl::sort, tl::topk) stage their operand alike, sort its rows in place (all threads, with
// barriers between the network's steps) and read back each row's first elements:
//   shared_write_sort B, a [descending] ; barrier ; decl y = shared_read(B[, prefix])
//
// Guarantees: no ConvertLayout, no Gather, no Histogram, no Reshape and no Sort remains. A
// conversion that is not the whole init of a Decl / value of an Assign is first hoisted to
// `decl <var>_cvt = convert_layout(...)` just before its statement. Each `y = convert_layout(x)`
// becomes
//   shared_write B, x                 every element of x at B[row * rowStride + col] (owners only)
//   barrier                           read-after-write (insert-barriers keeps it, adds WAR ones)
//   decl y = shared_read(B) : T       (or `y = shared_read(B)` for an Assign)
// with B a new SharedBuffer `<y>_smem` of the tile's shape and element type, row-major.
//
//   before: decl %t: tile<64x64xf32, #B> = convert_layout(%x) : tile<64x64xf32, #B>
//   after:  shared 0 t_smem: f32[64x64] row_stride=65 bytes=16640
//           shared_write 0, %x
//           barrier
//           decl %t: tile<64x64xf32, #B> = shared_read(0) : tile<64x64xf32, #B>
//
// Padding rule (32 banks of 4 bytes): a side "walks columns" when consecutive lanes lie along dim 0
// of the rank-2 tile (the first dim in the root layout's `order` with tpw > 1 is dim 0), i.e. they
// touch consecutive rows of one column. If exactly that happens on one side and not the other (a
// transpose-like conversion), rows are padded by one bank: rowStride = cols + max(1, 4 / elemBytes)
// elements, so the elements of one column fall into consecutive banks. Otherwise (rank 1, or both
// sides walking rows, or both walking columns) rowStride = cols. Emitters vectorizing shared
// accesses must check that `rowStride * elemBytes` keeps their vector alignment.
// From an #mma accumulator (the epilogue of a dot) to a layout walking rows: each lane of the mma
// side writes a pair of elements in each of eight rows (g = lane / 4) at the same columns, which
// with unpadded rows of 128 bytes or more fall in the same banks; the rows are XOR-swizzled in
// 16-byte chunks instead (lowering::chunkSwizzle, as lower-dots' operands), which keeps each
// row's chunks whole for the reading side.
#include "passes/LoweringUtil.h"
#include "passes/Passes.h"

namespace tilec::passes {

namespace {

using namespace ir;
using lowering::internalError;

/// The tile dim along which consecutive lanes lie (the first dim in the root's `order` with more
/// than one lane), or -1 when that dim was sliced away.
int laneFastestTileDim(const Layout &l, const std::vector<int64_t> &shape) {
  lowering::RootView v = lowering::rootView(l, shape);
  for (int o : v.root->order) {
    if (v.root->threadsPerWarp[o] == 1)
      continue;
    for (size_t d = 0; d < v.rootDim.size(); ++d)
      if (v.rootDim[d] == o)
        return static_cast<int>(d);
    return -1;
  }
  return -1;
}

class ConversionLowering {
public:
  explicit ConversionLowering(Kernel &k) : k(k) {}

  void run() {
    lowering::HoistingRewriter rw(
        k, [](const Expr &e) { return e && e->kind == ExprKind::ConvertLayout; },
        [this](const Expr &node, const Var &dest, bool isDecl, SourceLoc loc,
               std::vector<Stmt> &out) { lower(*as<ConvertLayout>(node), dest, isDecl, loc, out); },
        [](const Expr &) { return std::string("cvt"); });
    k.body = rw.rewriteBody(k.body);
    lowering::HoistingRewriter gathers(
        k, [](const Expr &e) { return e && e->kind == ExprKind::Gather; },
        [this](const Expr &node, const Var &dest, bool isDecl, SourceLoc loc,
               std::vector<Stmt> &out) { lowerGather(*as<Gather>(node), dest, isDecl, loc, out); },
        [](const Expr &) { return std::string("gather"); });
    k.body = gathers.rewriteBody(k.body);
    lowering::HoistingRewriter histograms(
        k, [](const Expr &e) { return e && e->kind == ExprKind::Histogram; },
        [this](const Expr &node, const Var &dest, bool isDecl, SourceLoc loc,
               std::vector<Stmt> &out) {
          lowerHistogram(*as<Histogram>(node), dest, isDecl, loc, out);
        },
        [](const Expr &) { return std::string("histogram"); });
    k.body = histograms.rewriteBody(k.body);
    lowering::HoistingRewriter reshapes(
        k, [](const Expr &e) { return e && e->kind == ExprKind::Reshape; },
        [this](const Expr &node, const Var &dest, bool isDecl, SourceLoc loc,
               std::vector<Stmt> &out) {
          lowerReshape(*as<Reshape>(node), dest, isDecl, loc, out);
        },
        [](const Expr &) { return std::string("reshape"); });
    k.body = reshapes.rewriteBody(k.body);
    lowering::HoistingRewriter sorts(
        k, [](const Expr &e) { return e && e->kind == ExprKind::Sort; },
        [this](const Expr &node, const Var &dest, bool isDecl, SourceLoc loc,
               std::vector<Stmt> &out) { lowerSort(*as<Sort>(node), dest, isDecl, loc, out); },
        [](const Expr &) { return std::string("sort"); });
    k.body = sorts.rewriteBody(k.body);
  }

  /// `y = sort(a)`: a staged row-major and sorted in place by the block, the rows' first elements
  /// read back.
  void lowerSort(const Sort &so, const Var &dest, bool isDecl, SourceLoc loc,
                 std::vector<Stmt> &out) {
    const Type &from = so.a->type;
    if (!from.layout || !so.type.layout || from.rank() < 1 || from.rank() > 2)
      internalError("lower-layout-conversions: sort into '" + dest->name +
                    "' without layouts, or of rank " + std::to_string(from.rank()));
    const int b = lowering::addBuffer(k, dest->name + "_smem", from, from.shape);
    out.push_back(SharedWrite::makeSort(b, so.a, so.descending, loc));
    out.push_back(Barrier::make(loc));
    Expr read = so.type.shape == from.shape ? SharedRead::makeTile(b, so.type, loc)
                                            : SharedRead::makePrefix(b, so.type, loc);
    out.push_back(assignLike(dest, isDecl, read, loc));
  }

  /// `y = reshape(a[, b])`: the operands staged row-major as a conversion stages them, read back
  /// by the reshape's rule. A reshape of the variable that the statement just before staged for
  /// one (tl::split's second half) reads that buffer again.
  void lowerReshape(const Reshape &r, const Var &dest, bool isDecl, SourceLoc loc,
                    std::vector<Stmt> &out) {
    const Type &from = r.a->type;
    if (!from.layout || !r.type.layout || from.rank() < 1 || from.rank() > 3)
      internalError("lower-layout-conversions: reshape into '" + dest->name +
                    "' without layouts, or of rank " + std::to_string(from.rank()));
    auto *ref = as<VarRef>(r.a);
    Stmt read;
    if (ref && !r.b && last_.read && !out.empty() && out.back() == last_.read &&
        last_.var == ref->var.get() && sameLayout(last_.layout, from.layout)) {
      read = assignLike(dest, isDecl, SharedRead::makeReshape(r.how, last_.buffer, -1, r.type, loc),
                        loc);
    } else {
      const bool two = r.b != nullptr;
      // Named after the result, or after the pairs that tl::split's two halves share (`a_b`).
      const bool half = r.how == ReshapeKind::Even || r.how == ReshapeKind::Odd;
      const std::string name = half && ref ? ref->var->name + "_split_smem"
                               : two       ? dest->name + "_a_smem"
                                           : dest->name + "_smem";
      const int a = lowering::addBuffer(k, name, from, from.shape);
      out.push_back(SharedWrite::makeTile(a, r.a, loc));
      int b = -1;
      if (two) {
        b = lowering::addBuffer(k, dest->name + "_b_smem", from, from.shape);
        out.push_back(SharedWrite::makeTile(b, r.b, loc));
      }
      out.push_back(Barrier::make(loc));
      read = assignLike(dest, isDecl, SharedRead::makeReshape(r.how, a, b, r.type, loc), loc);
      last_ = {};
      if (ref && !two)
        last_ = {ref->var.get(), from.layout, a, nullptr};
    }
    out.push_back(read);
    // The buffer holds the variable's value until the variable changes: here, if it is `dest`.
    last_.read = last_.var && last_.var != dest.get() ? read : nullptr;
  }

  /// `y = histogram(x, mask)`: counters in shared memory, zeroed, counted into, read back.
  void lowerHistogram(const Histogram &h, const Var &dest, bool isDecl, SourceLoc loc,
                      std::vector<Stmt> &out) {
    if (!h.type.layout || !h.a->type.layout)
      internalError("lower-layout-conversions: histogram into '" + dest->name +
                    "' without layouts");
    const int idx = lowering::addBuffer(k, dest->name + "_counts", h.type, {h.numBins});
    // A new node, shared by nothing yet: its layout is the counts'.
    auto zeros = std::const_pointer_cast<ExprNode>(
        Splat::make(IntImm::make(ScalarType::I32, 0, loc), {h.numBins}, loc));
    zeros->type.layout = h.type.layout;
    out.push_back(SharedWrite::makeTile(idx, zeros, loc));
    out.push_back(Barrier::make(loc));
    out.push_back(SharedWrite::makeCount(idx, h.a, h.mask, loc));
    out.push_back(Barrier::make(loc));
    Expr read = SharedRead::makeTile(idx, h.type, loc);
    out.push_back(isDecl ? Decl::make(dest, read, loc) : Assign::make(dest, read, loc));
  }

private:
  static Stmt assignLike(const Var &dest, bool isDecl, Expr value, SourceLoc loc) {
    return isDecl ? Decl::make(dest, value, loc) : Assign::make(dest, value, loc);
  }

  /// The last reshape's staging of a variable (lowerReshape), while it may be read again.
  struct Staged {
    const VarNode *var = nullptr;
    LayoutRef layout;
    int buffer = -1;
    Stmt read; ///< the statement that read it, which must be the one just before
  } last_;

  /// `y = gather(src, index)`: src staged as a conversion stages it, read back at the indices.
  void lowerGather(const Gather &g, const Var &dest, bool isDecl, SourceLoc loc,
                   std::vector<Stmt> &out) {
    const Type &from = g.src->type;
    if (!from.layout || !g.type.layout || from.rank() < 1 || from.rank() > 2)
      internalError("lower-layout-conversions: gather into '" + dest->name +
                    "' without layouts, or of rank " + std::to_string(from.rank()));
    const int idx = lowering::addBuffer(k, dest->name + "_smem", from, from.shape);
    out.push_back(SharedWrite::makeTile(idx, g.src, loc));
    out.push_back(Barrier::make(loc));
    Expr read = SharedRead::makeGather(idx, g.type, g.index, g.axis, loc);
    out.push_back(isDecl ? Decl::make(dest, read, loc) : Assign::make(dest, read, loc));
  }

  void lower(const ConvertLayout &c, const Var &dest, bool isDecl, SourceLoc loc,
             std::vector<Stmt> &out) {
    const Type &from = c.a->type, &to = c.type;
    if (!from.layout || !to.layout)
      internalError("lower-layout-conversions: convert_layout without layouts for '" + dest->name +
                    "'");
    if (from.rank() < 1 || from.rank() > 3)
      internalError("lower-layout-conversions: tile of rank " + std::to_string(from.rank()));
    SharedBuffer b;
    b.name = dest->name + "_smem";
    b.elemType = from.scalarOf();
    b.elemType.layout = nullptr;
    b.shape = from.shape;
    b.rowStride = from.shape.back();
    if (from.rank() == 2 && from.layout->kind == Layout::Kind::Mma &&
        laneFastestTileDim(*to.layout, to.shape) != 0) {
      b.swizzle = lowering::chunkSwizzle(b.rowStride, byteSize(from.elem));
    } else if (from.rank() >= 2) {
      // A side whose lanes walk another dim than the rows' (the last) reads or writes down the
      // columns: a row padded by a word puts those on different banks.
      auto walksColumns = [](const Type &t) {
        const int d = laneFastestTileDim(*t.layout, t.shape);
        return d >= 0 && d != t.rank() - 1;
      };
      if (walksColumns(from) != walksColumns(to))
        b.rowStride += std::max(1, 4 / byteSize(from.elem));
    }
    b.sizeBytes = lowering::bufferBytes(b);
    int idx = static_cast<int>(k.buffers.size());
    k.buffers.push_back(b);
    out.push_back(SharedWrite::makeTile(idx, c.a, loc));
    out.push_back(Barrier::make(loc));
    Expr read = SharedRead::makeTile(idx, to, loc);
    out.push_back(isDecl ? Decl::make(dest, read, loc) : Assign::make(dest, read, loc));
  }

  Kernel &k;
};

class LowerLayoutConversionsPass : public Pass {
public:
  const char *name() const override { return "lower-layout-conversions"; }
  void run(Module &m, PassContext &) override {
    for (auto &k : m.kernels)
      ConversionLowering(k).run();
  }
};

} // namespace

std::unique_ptr<Pass> createLowerLayoutConversionsPass() {
  return std::make_unique<LowerLayoutConversionsPass>();
}

} // namespace tilec::passes
