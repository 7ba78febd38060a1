// lower-dots: every `Dot` becomes its operands staged in shared memory and a `SharedDot` that
// computes each thread's accumulator elements from them (the portable path: any target, any
// operand type; docs/plan-tensor-cores.md replaces it by tensor-core instructions where they
// apply).
//
// Runs after: layout-assignment (the result has its layout, the operands theirs) and
// lower-reductions; before lower-layout-conversions (which lowers conversions inside the
// operands and the accumulator) and allocate-shared. A Dot that is not the whole init of a Decl /
// value of an Assign is first hoisted to `decl <var>_dot = dot(...)`.
// Each `d = dot(a, b, acc)` becomes
//   shared_write A, a          a [M, K] row-major, rows padded by one 4-byte bank (see below)
//   shared_write B, b          b [K, N] row-major
//   barrier                    read-after-write (insert-barriers adds the write-after-read ones)
//   decl d = shared_dot(A, B, acc=acc)
// with A and B new SharedBuffers `<a>_smem` / `<b>_smem` (named after the operand's variable, or
// `<d>_a_smem` / `<d>_b_smem`) in the operands' element type.
//
//   before: decl %c: tile<64x64xf32, #L> = dot(%a, %b, acc=%acc)         (#L blocked, fp16 a, b)
//   after:  shared 0 a_smem: f16[64x32] row_stride=34
//           shared 1 b_smem: f16[32x64] row_stride=64
//           shared_write 0, %a
//           shared_write 1, %b
//           barrier
//           decl %c: tile<64x64xf32, #L> = shared_dot(0, 1, acc=%acc)
//
// With num_stages = N >= 2, pipeline-dots then turns the staging of operands loaded in the same
// loop into a ring of N asynchronous copies.
//
// Padding, per-thread products (a blocked result): the lanes of a warp own different rows of the
// result, and at each k they read A[row][k] of their rows: with rows K elements apart those reads
// fall in few banks when K * elemBytes is a multiple of 128, so A's rows are padded by one bank
// (max(1, 4 / elemBytes) elements). Lanes read B[k][col] along a row, consecutive banks: no
// padding.
// Swizzle, mma.sync (an #mma result): the emitter reads both operands with ldmatrix, eight lanes
// naming eight 16-byte rows (chunks) at one column at once. Unpadded, rows of 128 or more bytes
// would put all eight in the same four banks; instead both buffers' rows are XOR-swizzled in
// 16-byte chunks (lowering::chunkSwizzle, Triton's #shared{vec, perPhase, maxPhase}): chunk c of
// row r at chunk c ^ (r / perPhase % maxPhase), so the eight rows read at one column land in the
// eight groups of four banks. A row of 16 or more 16-bit elements has at least two chunks. The
// same chunks are what cp.async writes (pipeline-dots) and what wgmma's swizzled descriptors read
// (issue 13). tf32 and int8 fragments that ldmatrix cannot transpose are gathered element by
// element through the same swizzle; MFMA (HIP) reads four consecutive k of a row (8 or 4 bytes,
// inside one chunk) or gathers them down a column, from buffers swizzled alike.
// wgmma (sm_90a, an #mma<wgmma> result): the instruction reads both operands from shared memory
// through descriptors, in the swizzle modes of 32-, 64- and 128-byte rows, which chunkSwizzle's
// choice for such rows is when the buffer starts on an 8-row boundary (alignBytes: 256, 512 or
// 1024 bytes, the swizzle's atom). A buffer whose rows are wider (B's [K, N] rows for N > 64
// halves) is stored in column blocks of 128 bytes (colBlock), each an operand of its own rows the
// descriptor's leading byte offset steps over.
// Transposed operands, tensor cores: for `dot(trans(x), b)` or `dot(a, trans(y))` the buffer holds
// x ([K, M]) or y ([N, K]) as loaded, and the shared_dot is marked transA / transB: the emitter
// reads each operand the other way (mma.sync: ldmatrix .trans for A and plain ldmatrix for B, or
// gathers; MFMA: gathers for A, row reads for B; Q K^T in attention loads K's rows). The portable
// path stages the transposed view itself, element by element.
#include "passes/LoweringUtil.h"
#include "passes/Passes.h"

namespace tilec::passes {

namespace {

using namespace ir;
using lowering::internalError;

class DotLowering {
public:
  explicit DotLowering(Kernel &k) : k(k) {}

  void run() {
    lowering::HoistingRewriter rw(
        k, [](const Expr &e) { return e && e->kind == ExprKind::Dot; },
        [this](const Expr &node, const Var &dest, bool isDecl, SourceLoc loc,
               std::vector<Stmt> &out) { lower(*as<Dot>(node), dest, isDecl, loc, out); },
        [](const Expr &) { return std::string("dot"); });
    k.body = rw.rewriteBody(k.body);
  }

private:
  int stage(const Expr &x, const std::string &name, int64_t pad, bool swizzle, bool wgmma = false) {
    if (!x->type.layout)
      internalError("lower-dots: dot operand without a layout (layout-assignment must run first)");
    SharedBuffer b;
    b.name = name;
    b.elemType = x->type.scalarOf();
    b.elemType.layout = nullptr;
    b.shape = x->type.shape;
    b.rowStride = b.shape.back() + pad;
    const int elemBytes = byteSize(b.elemType.elem);
    if (wgmma && b.rowStride * elemBytes > kSwizzleRowBytes) {
      b.colBlock = kSwizzleRowBytes / elemBytes;
      b.swizzle = lowering::chunkSwizzle(b.colBlock, elemBytes);
    } else if (swizzle) {
      b.swizzle = lowering::chunkSwizzle(b.rowStride, elemBytes);
    }
    // The swizzle repeats every 8 rows (an atom of 256, 512 or 1024 bytes), which wgmma reads from
    // the address bits: the buffer, and each stage of a ring, starts on an atom.
    if (wgmma)
      b.alignBytes = 8 * (b.colBlock ? b.colBlock : b.rowStride) * elemBytes;
    b.sizeBytes = lowering::bufferBytes(b);
    k.buffers.push_back(b);
    return static_cast<int>(k.buffers.size()) - 1;
  }

  static std::string operandName(const Expr &x, const Var &dest, const char *which) {
    if (auto *v = as<VarRef>(x))
      return v->var->name + "_smem";
    if (auto *t = as<Trans>(x); t && as<VarRef>(t->a)) // tl::trans(x): x transposed
      return as<VarRef>(t->a)->var->name + "_t_smem";
    return dest->name + "_" + which + "_smem";
  }

  void lower(const Dot &d, const Var &dest, bool isDecl, SourceLoc loc, std::vector<Stmt> &out) {
    if (!d.type.layout || !sameLayout(d.type.layout, dest->type.layout))
      internalError("lower-dots: '" + dest->name + "' and its dot differ in layout");
    const bool mma = d.type.layout->kind == Layout::Kind::Mma;
    const int64_t elemBytes = byteSize(d.a->type.elem);
    // tl::trans(x) operands of an mma product: x is staged as it is (its rows contiguous, so that
    // it can be copied in wide vectors or cp.async) and read transposed by the fragment loads.
    const Trans *ta = mma ? as<Trans>(d.a) : nullptr, *tb = mma ? as<Trans>(d.b) : nullptr;
    const Expr &xa = ta ? ta->a : d.a, &xb = tb ? tb->a : d.b;
    int64_t padA = mma ? 0 : std::max<int64_t>(1, 4 / elemBytes);
    const bool wgmma = mma && d.type.layout->instr == Layout::MmaInstr::Wgmma;
    int a = stage(xa, operandName(d.a, dest, "a"), padA, mma, wgmma);
    int b = stage(xb, operandName(d.b, dest, "b"), 0, mma, wgmma);
    if (mma && (!k.buffers[a].swizzle.on() || !k.buffers[b].swizzle.on()))
      internalError("lower-dots: an mma operand whose rows hold fewer than two 16-byte chunks");
    out.push_back(SharedWrite::makeTile(a, xa, loc));
    out.push_back(SharedWrite::makeTile(b, xb, loc));
    out.push_back(Barrier::make(loc));
    Expr r = SharedDot::make(a, b, d.acc, d.precision, d.type, loc, nullptr, ta != nullptr,
                             tb != nullptr);
    out.push_back(isDecl ? Decl::make(dest, r, loc) : Assign::make(dest, r, loc));
  }

  /// The widest swizzled row of wgmma (and TMA): 128 bytes, whose 8-row atom is 1024 bytes.
  static constexpr int64_t kSwizzleRowBytes = 128;
  Kernel &k;
};

class LowerDotsPass : public Pass {
public:
  const char *name() const override { return "lower-dots"; }
  void run(Module &m, PassContext &) override {
    for (auto &k : m.kernels)
      DotLowering(k).run();
  }
};

} // namespace

std::unique_ptr<Pass> createLowerDotsPass() { return std::make_unique<LowerDotsPass>(); }

} // namespace tilec::passes
