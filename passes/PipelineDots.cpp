// pipeline-dots: in a loop whose dot reads tiles loaded in the same iteration, those loads become
// asynchronous copies (cp.async) into a ring of `num_stages` shared buffers, issued
// num_stages - 1 iterations ahead, so that the global loads of later iterations are in flight
// while this iteration's product runs (Triton's software pipelining of `tl.dot` loops; step 5 of
// docs/plan-tensor-cores.md). Without cp.async (HIP) the buffers get two stages written from
// registers instead: see Pipeliner::doubleBuffer.
//
// Runs after: lower-dots (the operands are staged: `shared_write A, a; shared_write B, b;
// barrier; d = shared_dot(A, B, ...)`), for loops with S >= 2 stages (the kernel's `num_stages =
// S`, or the loop's own `tl::range<S>`), on CUDA sm_80 and later, and on HIP. Before
// lower-layout-conversions and allocate-shared (which sizes the stages).
//
//   before: for %k = b to e step s {
//             decl %a = load(%pa, %ma(%k))
//             decl %b = load(%pb, %mb(%k))
//             shared_write A, %a
//             shared_write B, %b
//             barrier
//             %acc = shared_dot(A, B, acc=%acc)
//             %pa = %pa + %da
//             %pb = %pb + %db
//           }
//   after:  static_for %stage = 0 to S - 1 step 1 {
//             if (b + %stage * s < e) pipeline(first) {
//               async_copy A[%stage], %pa, mask=%ma(b + %stage * s)
//               async_copy B[%stage], %pb, mask=%mb(b + %stage * s)
//             }
//             async_commit
//             %pa = %pa + %da
//             %pb = %pb + %db
//           }
//           decl %read_stage = 0
//           decl %copy_stage = S - 1
//           for %k = b to e step s {
//             async_wait S - 2
//             barrier
//             if (%k + (S - 1) * s < e) pipeline(next) {
//               async_copy A[%copy_stage], %pa, mask=%ma(%k + (S - 1) * s)
//               async_copy B[%copy_stage], %pb, mask=%mb(%k + (S - 1) * s)
//             }
//             async_commit
//             %acc = shared_dot(A, B, stage=%read_stage, acc=%acc)
//             %pa = %pa + %da
//             %pb = %pb + %db
//             %read_stage = (%read_stage + 1) % S
//             %copy_stage = (%copy_stage + 1) % S
//           }
//           async_wait 0
// On wgmma (sm_90a), when the loop reads and assigns the accumulator nowhere but in the product
// (`%acc = shared_dot(..., acc=%acc)` in fp32), the product is left in flight
// (SharedDot::inFlight: the emitter keeps the accumulator in wgmma's registers across the loop,
// waits for all but the newest product in the loop and for that one after it), and the copies
// move behind it and a second barrier (Triton's order on Hopper):
//             async_wait S - 2
//             barrier
//             %acc = shared_dot(A, B, stage=%read_stage, acc=%acc, in_flight)
//             barrier
//             if (%k + (S - 1) * s < e) pipeline(next) { async_copy A[%copy_stage], ... }
//             async_commit
//             ...
// The product's wait retires the last iteration's product in this warpgroup, the barrier in every
// warpgroup, so the stage that product read (%copy_stage) is free for the copies.
// With TMA (CUDA sm_90) and a product in flight, when both loads are boxes of 2-D row-major
// tensors (tmaPlan: the pointer's polynomial form `p + (r0 + i) * s + (c0 + j)`, advanced by a
// constant each iteration, and a mask that is exactly the tensor's edges), the ring is TMA's:
//             tma_copy A[%stage], box at (r0(b + %stage), c0(...))      (prologue, no commit)
//             decl %read_phase = 0
//             for %k {
//               tma_wait ring A stage %read_stage parity %read_phase   (no barrier: each waits)
//               %acc = shared_dot(..., in_flight)
//               barrier
//               if (%k + S - 1 < e) { tma_copy A[%copy_stage], box at (...); tma_copy B[...] }
//               if (%read_stage == S - 1) pipeline(phase) { %read_phase = 1 - %read_phase }
//               ...
//             }
// One thread issues each copy (the emitter), which arrives on the stage's full mbarrier with its
// bytes; the pointers' advances go (the copies read coordinates), and no cp.async wait follows the
// loop (each iteration waited for its own stage). The verifier
// checks the form (ir::productsInFlight), not the timing: its hazard analysis does not model the
// products in flight; the emulator reports a stage overwritten while one reads it.
// Warp specialization (sm_90; the kernel's warp_specialize setting, or by default two consumer
// warpgroups with big accumulators and a ring 96 K elements deep or more: wantsProducer): the
// TMA ring of a loop in the kernel's own block, whose copies' coordinates one thread can compute
// from scalars, gets a producer of its own instead of the prologue and the in-loop copies:
//             producer {  decl %copy_stage = 0; decl %copy_phase = 0
//                         for %k' = b to e step s {
//                           stage_free_wait ring A stage %copy_stage parity 1 - %copy_phase
//                           tma_copy A[%copy_stage], box at (...(%k')); tma_copy B[...]
//                           <%copy_phase flips as %copy_stage wraps; %copy_stage + 1> } }
//             consumers { decl %read_stage = 0; decl %read_phase = 0
//                         for %k { tma_wait ring A stage %read_stage parity %read_phase
//                                  %acc = shared_dot(..., in_flight)
//                                  if (%k > b) stage_free ring A stage (%read_stage + S - 1) % S
//                                  <%read_phase flips as %read_stage wraps; %read_stage + 1> }
//                         if (b < e) stage_free ring A stage (%read_stage + S - 1) % S }
// The product's wait<1> retired the last iteration's product, so its stage is freed (every
// consumer thread arrives on the stage's empty mbarrier); the release after the loop follows the
// emitter's wait<0>. specializeWarps() then makes the kernel persistent around the node.
// One group is committed per iteration (empty past the end), so at the top of iteration k the
// groups of iterations k + 1 .. k + S - 2 may still be in flight: waiting until S - 2 remain lands
// iteration k's tiles, and the barrier after the wait makes every thread's copies visible to all
// and ends every thread's reading of the stage read in iteration k - 1, which this iteration's
// copies then refill. The pointers run S - 1 advances ahead of the loop's own iteration (the
// prologue advances them), so they must be read by nothing but the copies and their advance.
//
// Which loops: not unrolled, a constant positive step; both operands of the dot are variables
// declared at the top of the body as loads and read by nothing but the staging. With cp.async,
// each load copies 16 bytes a vector (the aligned variant's vector width; 4 or 8 for tiles too
// small to give each thread 16), from addresses aligned to that into rows that start aligned to
// it, with a mask alike over each vector and zero (or nothing) as the masked-off value, and is not
// replicated across threads (a double buffer takes any load). Its pointer and mask read only the
// loop index, variables the loop does not assign, declarations before it computed element by
// element from those (computed again for the copied iteration, as `<name>_ahead`), and pointer
// variables the body advances once per iteration by an invariant amount after the load. No store of
// the loop may write a parameter the loads read (the copies run ahead of the stores). Any other
// loop keeps lower-dots' single stage.
#include "ir/IRVisitor.h"
#include "passes/LoweringUtil.h"
#include "passes/Passes.h"
#include "passes/analysis/PointerOrigins.h"
#include "passes/analysis/TileAffine.h"

#include <cmath>
#include <functional>
#include <map>
#include <set>

namespace tilec::passes {

using namespace ir;

namespace {

/// Whether `e` is a zero constant (the masked-off value cp.async fills in), through casts and
/// splats.
bool isZero(const Expr &e) {
  if (auto i = as<IntImm>(e))
    return i->value == 0;
  if (auto f = as<FloatImm>(e))
    return f->value == 0.0 && !std::signbit(f->value);
  if (auto c = as<Cast>(e))
    return isZero(c->a);
  if (auto s = as<Splat>(e))
    return isZero(s->a);
  return false;
}

/// The sizes cp.async copies: 4, 8 or 16 bytes.
bool copyable(int64_t bytes) { return bytes == 4 || bytes == 8 || bytes == 16; }

/// Calls `f` on every node of the expression `e`.
template <class F> void forEachNode(const Expr &e, F &&f) {
  if (e)
    forEachExpr(Decl::make(std::make_shared<VarNode>(), e), f);
}

/// Whether several threads hold one element of a tile of type `t`.
bool replicated(const Type &t) {
  if (!t.layout || t.layout->kind != Layout::Kind::Blocked)
    return true;
  LayoutGeometry g = geometry(*t.layout, t.shape);
  for (size_t d = 0; d < t.shape.size(); ++d)
    if (t.shape[d] < g.coverage[d])
      return true;
  return false;
}

class Pipeliner : public IRMutator {
public:
  /// `asyncCopies`: the target has cp.async (CUDA sm_80 and later): a ring of copies; else two
  /// stages written from registers.
  /// `tma`: the target has TMA (CUDA sm_90): rings of copies whose loads are boxes of a 2-D tensor
  /// become TMA copies.
  /// `specialize`: the kernel may be warp-specialized and persistent (specializable()): a TMA
  /// ring in the kernel body's own block gets a producer warpgroup (WarpSpecialize), which
  /// specializeWarps() then makes persistent.
  Pipeliner(Kernel &k, bool asyncCopies, bool tma, bool specialize)
      : k(k), asyncCopies(asyncCopies), tma(tma), specialize(specialize), origins(k) {
    forEachExpr(k.body, [&](const ExprNode *e) {
      if (e->kind == ExprKind::VarRef)
        ++reads[static_cast<const VarRef *>(e)->var.get()];
    });
  }
  using IRMutator::mutate;

protected:
  Stmt mutate(const Block *b, const Stmt &self) override {
    std::vector<Stmt> stmts;
    bool changed = false;
    const bool top = self == k.body;
    for (const Stmt &c : b->stmts) {
      Stmt m = mutate(c);
      changed |= m != c;
      atTop = top;
      if (auto f = as<For>(m); f && pipeline(f, stmts)) {
        changed = true;
        continue;
      }
      stmts.push_back(m);
    }
    return changed ? Block::make(std::move(stmts), self->loc) : self;
  }

private:
  /// An operand the loop loads and stages: the load's declaration and the staging write.
  struct Operand {
    size_t decl = 0, write = 0;
    const Load *load = nullptr;
    int buffer = -1;
  };

  static int countReads(const Expr &e, const VarNode *v) {
    int n = 0;
    forEachNode(e, [&](const ExprNode *x) {
      n += x->kind == ExprKind::VarRef && static_cast<const VarRef *>(x)->var.get() == v;
    });
    return n;
  }

  /// The statement index of the `shared_write A; shared_write B; barrier; shared_dot` run, or -1.
  static long stagedDot(const std::vector<Stmt> &stmts) {
    for (size_t p = 3; p < stmts.size(); ++p) {
      const Expr *value = nullptr;
      if (auto d = as<Decl>(stmts[p]))
        value = &d->init;
      else if (auto a = as<Assign>(stmts[p]))
        value = &a->value;
      if (!value || !*value || (*value)->kind != ExprKind::SharedDot)
        continue;
      auto dot = as<SharedDot>(*value);
      auto wa = as<SharedWrite>(stmts[p - 3]), wb = as<SharedWrite>(stmts[p - 2]);
      if (!dot->stage && as<Barrier>(stmts[p - 1]) && wa && wb && !wa->partials && !wb->partials &&
          wa->buffer == dot->bufferA && wb->buffer == dot->bufferB && dot->bufferA != dot->bufferB)
        return static_cast<long>(p);
    }
    return -1;
  }

  /// The operand staged by the write at `w`, when it can be copied asynchronously (or, without
  /// asyncCopies, loaded an iteration ahead).
  std::optional<Operand> operand(const std::vector<Stmt> &stmts, size_t w) const {
    auto sw = as<SharedWrite>(stmts[w]);
    auto ref = as<VarRef>(sw->value);
    if (!ref || reads.at(ref->var.get()) != 1)
      return std::nullopt; // computed, or read by something else too
    for (size_t i = 0; i < w; ++i) {
      auto d = as<Decl>(stmts[i]);
      if (!d || d->var != ref->var)
        continue;
      auto ld = as<Load>(d->init);
      const SharedBuffer &b = k.buffers.at(sw->buffer);
      if (!ld || !ld->ptr->type.isTile() || ld->hints.isVolatile) // volatile: read when written
        return std::nullopt;
      const Type &t = ld->type;
      const int64_t bytes = byteSize(t.elem);
      const Layout *l = t.layout.get();
      if (!asyncCopies) { // any load: it only moves an iteration ahead
        if (!l || b.stages != 1 || b.shape != t.shape)
          return std::nullopt;
        return Operand{i, w, ld, sw->buffer};
      }
      if (!l || l->kind != Layout::Kind::Blocked || l->order[0] != t.rank() - 1 ||
          !copyable(ld->vec * bytes) || !ld->aligned || replicated(t) || b.stages != 1 ||
          b.shape != t.shape || (b.rowStride * bytes) % (ld->vec * bytes) != 0 ||
          !sameLayout(ld->ptr->type.layout, t.layout) ||
          (ld->mask && (!ld->maskAllOrNone || !sameLayout(ld->mask->type.layout, t.layout))) ||
          (ld->mask && ld->other && !isZero(ld->other)))
        return std::nullopt;
      return Operand{i, w, ld, sw->buffer};
    }
    return std::nullopt;
  }

  /// A load the TMA form copies: the tensor, and the box's first element in iteration `k` (the
  /// loop's index, which these read) of the loop.
  struct TmaPlan {
    TmaTensor tensor;
    Expr row, col;
  };

  /// The TMA form of operand `o`'s load, when it is a box of a 2-D row-major tensor: its pointer
  /// variable is `p + (r0 + i0) * s + (c0 + i1)` (AffineForm; i0, i1 the element's indices) at the
  /// loop's entry, advanced by a constant-per-iteration amount each iteration (a loop from 0 by 1),
  /// or its pointer is that form computed in the iteration, r0 and c0 read the loop's index and
  /// scalars the iteration declares before the load (a tensor descriptor's block); p a 16-byte
  /// aligned pointer parameter and s a parameter that is a multiple of 16 (the aligned variant's
  /// assumptions: the launcher checks them, as TMA needs); its mask is `i0 < R` and `i1 < C` (in
  /// either order, and optionally `r0 + i0 >= 0` and `c0 + i1 >= 0`, the lower edges, where TMA
  /// fills zeros as well; nothing else), so that the tensor is (r0 + R) x (c0 + C) with R + r0 and
  /// C + c0 expressions of the parameters alone (the launcher builds the tensor map from them); the
  /// masked value is zero (TMA's fill); the buffer is laid out as a TMA box of a swizzle mode.
  /// `before`: the statements before the loop in its block, where the tile variables the load reads
  /// are declared. nullopt otherwise.
  std::optional<TmaPlan> tmaPlan(const Operand &o, const For *f, const std::vector<Stmt> &before,
                                 const std::map<const VarNode *, size_t> &advance,
                                 const std::set<const VarNode *> &inLoop) const {
    const SharedBuffer &buf = k.buffers[o.buffer];
    const int64_t bytes = byteSize(buf.elemType.elem);
    const int64_t rowElems = buf.colBlock ? buf.colBlock : buf.rowStride;
    const int64_t rowBytes = rowElems * bytes;
    // A box lands as rows of its width, 16-byte chunks swizzled as wgmma's operands are.
    if (buf.shape.size() != 2 || !buf.swizzle.on() || buf.swizzle.vec * bytes != 16 ||
        (rowBytes != 32 && rowBytes != 64 && rowBytes != 128) ||
        buf.swizzle.perPhase != 128 / rowBytes || buf.swizzle.maxPhase != rowBytes / 16 ||
        buf.alignBytes < 8 * rowBytes || buf.shape[0] > 256 || rowElems > 256 ||
        (buf.colBlock && buf.shape[1] % buf.colBlock != 0) ||
        (!buf.colBlock && buf.rowStride != buf.shape[1]))
      return std::nullopt;
    // The pointer: a variable advanced by a constant each iteration (`a_ptrs += BLOCK_K *
    // stride_ak`), or computed in the iteration from its index (a tensor descriptor's block).
    const std::vector<Stmt> &body = as<Block>(f->body)->stmts;
    auto ptr = as<VarRef>(o.load->ptr);
    auto adv = ptr ? advance.find(ptr->var.get()) : advance.end();
    const Binary *step = nullptr;
    if (adv != advance.end()) {
      step = as<Binary>(as<Assign>(body[adv->second])->value);
      auto b0 = as<IntImm>(f->begin), st = as<IntImm>(f->step);
      if (step->op != BinaryOp::Add || !b0 || b0->value != 0 || !st || st->value != 1 ||
          f->inclusive)
        return std::nullopt; // the pointer's advances count the iterations
    }
    const std::set<const VarNode *> reassigned = assignedIn(f->body);
    // Tile variables stand for their declarations before the loop, when nothing else assigns
    // them, and so do the loop's own declarations before the load that nothing assigns; scalars
    // are atoms (the loop's index, or values the loop does not change).
    auto resolve = [&](const VarNode *v) -> Expr {
      if (inLoop.count(v) && (!ptr || v != ptr->var.get())) {
        if (reassigned.count(v))
          return nullptr;
        for (size_t i = 0; i < o.decl; ++i)
          if (auto d = as<Decl>(body[i]); d && d->var.get() == v)
            return d->init;
        return nullptr;
      }
      Expr init;
      for (const Stmt &s : before) {
        if (auto d = as<Decl>(s); d && d->var.get() == v)
          init = d->init;
        else if (auto a = as<Assign>(s); a && a->var.get() == v)
          return nullptr;
      }
      return init;
    };
    auto constantOf = [&](const VarNode *v) -> std::optional<int64_t> {
      if (v->kind == VarKind::Param && k.equalToOne.count(v->id))
        return 1;
      return std::nullopt;
    };
    // Scalars the iteration declares before the load (`offs_k = k * BLOCK_K`) stand for their
    // values: the copies compute them for the iteration they are for.
    std::map<const VarNode *, Expr> scalars;
    for (size_t i = 0; !step && i < o.decl; ++i)
      if (auto d = as<Decl>(body[i]);
          d && d->init && d->var->type.isScalar() && !reassigned.count(d->var.get()))
        scalars[d->var.get()] = substitute(d->init, scalars);
    const Expr loadPtr = substitute(o.load->ptr, scalars);
    const Expr loadMask = o.load->mask ? substitute(o.load->mask, scalars) : nullptr;
    auto entry = affineForm(loadPtr, resolve, constantOf);
    auto perIteration = step ? affineForm(step->b, resolve, constantOf) : AffineForm();
    if (!entry || !perIteration)
      return std::nullopt;
    const std::string index = "v" + std::to_string(f->var->id);
    const std::string i0 = AffineForm::indexKey(0), i1 = AffineForm::indexKey(1);
    if (perIteration->has(i0) || perIteration->has(i1) || perIteration->has(index) ||
        (step && entry->has(index)))
      return std::nullopt;
    const AffineForm address =
        *entry + AffineForm::atom(index, VarRef::make(f->var)) * *perIteration;
    // The base: one pointer parameter, once.
    std::optional<AffineForm> offset;
    const VarNode *base = nullptr;
    for (const std::string &key : address.atomKeys()) {
      if (key[0] != 'p')
        continue;
      AffineForm rest;
      auto coef = address.split(key, &rest);
      if (base || !coef || coef->constantValue() != 1)
        return std::nullopt;
      for (const Var &param : k.params)
        if ("p" + std::to_string(param->id) == key)
          base = param.get();
      offset = rest;
    }
    if (!base || !k.divisibleBy16.count(base->id))
      return std::nullopt;
    // offset = i0 * s + i1 + origin.
    AffineForm noRow, origin;
    auto rowStride = offset->split(i0, &noRow);
    auto colStride = noRow.split(i1, &origin);
    if (!rowStride || !colStride || colStride->constantValue() != 1)
      return std::nullopt;
    std::vector<std::string> strideAtoms = rowStride->atomKeys();
    const VarNode *strideParam = nullptr;
    for (const Var &param : k.params)
      if (strideAtoms.size() == 1 && "v" + std::to_string(param->id) == strideAtoms[0] &&
          k.divisibleBy16.count(param->id) && isInt(param->type.elem))
        strideParam = param.get();
    AffineForm strideRest; // s exactly: one parameter, once, nothing added
    auto strideCoef = strideParam ? rowStride->split(strideAtoms[0], &strideRest) : std::nullopt;
    if (!strideCoef || strideCoef->constantValue() != 1 || !strideRest.isZero())
      return std::nullopt;
    // origin = r0 * s + c0.
    AffineForm c0;
    auto r0 = origin.split(strideAtoms[0], &c0);
    if (!r0 || r0->has(i0) || r0->has(i1) || c0.has(i0) || c0.has(i1))
      return std::nullopt;
    // The mask: i0 + x0 < 0 and i1 + x1 < 0 (as lhs - rhs of `lhs < rhs`), one each, and
    // optionally the lower edges r0 + i0 >= 0 and c0 + i1 >= 0 (a tensor descriptor's mask), where
    // TMA fills zeros too.
    std::optional<AffineForm> bound[2];
    bool lower[2] = {false, false};
    bool ok = loadMask != nullptr;
    std::function<void(const Expr &)> conjuncts = [&](const Expr &m) {
      if (!ok)
        return;
      if (auto bc = as<Broadcast>(m))
        return conjuncts(bc->a);
      auto b = as<Binary>(m);
      if (b && (b->op == BinaryOp::And || b->op == BinaryOp::LAnd)) {
        conjuncts(b->a);
        conjuncts(b->b);
        return;
      }
      const bool lt = b && b->op == BinaryOp::Lt,
                 ge = b && (b->op == BinaryOp::Ge || b->op == BinaryOp::Le);
      auto l = lt || ge ? affineForm(b->a, resolve, constantOf) : std::nullopt;
      auto r = l ? affineForm(b->b, resolve, constantOf) : std::nullopt;
      if (!r) {
        ok = false;
        return;
      }
      // lhs - rhs = k0 i0 + k1 i1 + rest: one of k0, k1 is 1, the other 0 (`up >= lo` and
      // `lo <= up` as up - lo).
      AffineForm noI0, rest;
      auto k0 = (b->op == BinaryOp::Le ? *r - *l : *l - *r).split(i0, &noI0);
      auto k1 = k0 ? noI0.split(i1, &rest) : std::nullopt;
      const int d = !k1                                        ? -1
                    : k0->constantValue() == 1 && k1->isZero() ? 0
                    : k0->isZero() && k1->constantValue() == 1 ? 1
                                                               : -1;
      if (d >= 0 && ge) { // i_d + rest >= 0: the element's row or column is not negative
        ok = !lower[d] && (rest - (d == 0 ? *r0 : c0)).isZero();
        lower[d] = true;
        return;
      }
      if (d < 0 || bound[d]) {
        ok = false;
        return;
      }
      bound[d] = rest; // i_d + rest < 0
    };
    conjuncts(loadMask);
    if (!ok || !bound[0] || !bound[1])
      return std::nullopt;
    // The tensor: rows r0 - bound0, columns c0 - bound1; parameters only.
    const AffineForm rows = *r0 - *bound[0], cols = c0 - *bound[1];
    std::set<std::string> paramAtoms;
    for (const Var &param : k.params)
      paramAtoms.insert("v" + std::to_string(param->id));
    for (const AffineForm *dim : {&rows, &cols})
      for (const std::string &key : dim->atomKeys())
        if (!paramAtoms.count(key))
          return std::nullopt;
    // The origin reads the index, parameters, program ids and variables the loop does not
    // change.
    for (const AffineForm *at : {&*r0, &c0})
      for (const std::string &key : at->atomKeys())
        if (key[0] != 'v' && key[0] != 'g' && key[0] != 'n')
          return std::nullopt;
    std::set<std::string> changed;
    for (const VarNode *v : inLoop)
      if (v != f->var.get())
        changed.insert("v" + std::to_string(v->id));
    for (const AffineForm *at : {&*r0, &c0})
      for (const std::string &key : at->atomKeys())
        if (changed.count(key))
          return std::nullopt;
    const ScalarType it = f->var->type.elem;
    const SourceLoc loc = o.load->loc;
    TmaPlan plan;
    plan.tensor.param = base->id;
    plan.tensor.rows = rows.toExpr(it, loc);
    plan.tensor.cols = cols.toExpr(it, loc);
    for (const Var &param : k.params)
      if (param.get() == strideParam)
        plan.tensor.rowStride = VarRef::make(param, loc);
    plan.row = r0->toExpr(it, loc);
    plan.col = c0.toExpr(it, loc);
    return plan;
  }

  bool pipeline(const For *f, std::vector<Stmt> &out) {
    auto step = as<IntImm>(f->step);
    const Block *body = as<Block>(f->body);
    // The loop's own num_stages (tl::range<S>), else the kernel's; a double buffer has two.
    int stages = f->numStages ? f->numStages : k.settings.numStages;
    if (!asyncCopies && stages > 2)
      stages = 2;
    if (stages < 2 || f->unroll || !step || step->value <= 0 || !body ||
        f->var->type != f->step->type || f->var->type != f->begin->type ||
        f->var->type != f->end->type)
      return false;
    const std::vector<Stmt> &stmts = body->stmts;
    const long p = stagedDot(stmts);
    if (p < 0)
      return false;
    auto a = operand(stmts, p - 3), b = operand(stmts, p - 2);
    if (!a || !b)
      return false;

    // Pointer variables advanced once per iteration, after the loads, by an invariant amount.
    const std::set<const VarNode *> inLoop =
        assignedIn(f->body, {.decls = true, .loopIndices = true});
    // The bound is evaluated again each iteration: it must not change for the lookahead to hold.
    ExprFacts bound;
    bound.add(f->end);
    for (const VarNode *v : bound.reads)
      if (inLoop.count(v))
        return false;
    std::map<const VarNode *, int> assignments;
    forEachStmt(f->body, [&](const Stmt &c) {
      if (auto as_ = as<Assign>(c))
        ++assignments[as_->var.get()];
      if (auto d = as<Decl>(c)) // declared in the loop: a new variable each iteration
        assignments[d->var.get()] += 2;
    });
    std::map<const VarNode *, size_t> advance; // variable -> its advance statement
    for (size_t i = static_cast<size_t>(p) + 1; i < stmts.size(); ++i) {
      auto as_ = as<Assign>(stmts[i]);
      auto bin = as_ ? as<Binary>(as_->value) : nullptr;
      auto self = bin ? as<VarRef>(bin->a) : nullptr;
      if (!self || self->var != as_->var || assignments[as_->var.get()] != 1 ||
          (bin->op != BinaryOp::Add && bin->op != BinaryOp::Sub))
        continue;
      ExprFacts facts;
      facts.add(bin->b);
      bool invariant = facts.elementwise;
      for (const VarNode *v : facts.reads)
        invariant = invariant && !inLoop.count(v);
      if (invariant)
        advance.emplace(as_->var.get(), i);
    }
    // Declarations before the staging computed element by element from the index, invariants and
    // each other (`ka = k0 + arange`): computed again for the iteration a copy is for.
    const std::set<const VarNode *> reassigned = assignedIn(f->body);
    std::map<const VarNode *, size_t> recomputable; // variable -> its declaration
    for (size_t i = 0; i + 3 < static_cast<size_t>(p); ++i) {
      auto d = as<Decl>(stmts[i]);
      if (!d || !d->init || i == a->decl || i == b->decl || reassigned.count(d->var.get()))
        continue;
      ExprFacts facts;
      facts.add(d->init);
      bool ok = facts.elementwise;
      for (const VarNode *v : facts.reads)
        ok = ok && (v == f->var.get() || !inLoop.count(v) || recomputable.count(v));
      if (ok)
        recomputable.emplace(d->var.get(), i);
    }
    // What the copies read: the index, invariants, those declarations (the ones needed, in
    // `needed`), or pointers advanced once per iteration and read by nothing but the loads (they
    // run S - 1 iterations ahead).
    std::set<const VarNode *> advanced;
    std::set<size_t> needed;
    std::map<const VarNode *, int> readByLoads;
    for (const Operand *o : {&*a, &*b})
      for (const Expr &e : {o->load->ptr, o->load->mask})
        forEachNode(e, [&](const ExprNode *x) {
          if (x->kind == ExprKind::VarRef)
            ++readByLoads[static_cast<const VarRef *>(x)->var.get()];
        });
    std::vector<const VarNode *> work;
    for (const auto &[v, n] : readByLoads)
      work.push_back(v);
    while (!work.empty()) {
      const VarNode *v = work.back();
      work.pop_back();
      if (v == f->var.get() || !inLoop.count(v))
        continue;
      if (auto r = recomputable.find(v); r != recomputable.end()) {
        if (!needed.insert(r->second).second)
          continue;
        ExprFacts facts;
        facts.add(as<Decl>(stmts[r->second])->init);
        for (const VarNode *u : facts.reads) {
          if (advance.count(u))
            return false; // an advanced pointer read through a declaration: not followed
          work.push_back(u);
        }
        continue;
      }
      auto adv = advance.find(v);
      if (adv == advance.end())
        return false;
      auto self = as<Assign>(stmts[adv->second]);
      if (reads.at(v) != readByLoads[v] + countReads(self->value, v))
        return false; // read by something else: it cannot run ahead
      advanced.insert(v);
    }
    // The copies run ahead of the loop's stores: none may write what they read.
    std::set<int> stored;
    forEachStmt(f->body, [&](const Stmt &c) {
      if (auto st = as<Store>(c)) {
        std::set<int> ps = origins.paramsOf(st->ptr);
        stored.insert(ps.begin(), ps.end());
      }
    });
    for (const Operand *o : {&*a, &*b})
      for (int param : origins.paramsOf(o->load->ptr))
        if (param < 0 || stored.count(param))
          return false;

    // A wgmma product may stay in flight while the next iteration starts (SharedDot::inFlight)
    // when the loop touches its accumulator nowhere else. Its iteration then issues the copies
    // after the product, once the product's wait has retired the last iteration's and a second
    // barrier has seen every warpgroup's retired: the stage that product read is free for them.
    auto *productStmt = as<Assign>(stmts[p]);
    const bool inFlight = asyncCopies && productStmt && canStayInFlight(*f, *productStmt);
    // With TMA (sm_90) and a product in flight, loads that are boxes of 2-D tensors become TMA
    // copies: one thread issues them, the stage's "full" mbarrier counts their bytes, and every
    // thread waits on it instead of cp.async's wait and barrier (docs/plan-hopper.md, step 3).
    std::optional<TmaPlan> tmaA, tmaB;
    if (tma && inFlight) {
      tmaA = tmaPlan(*a, f, out, advance, inLoop);
      tmaB = tmaA ? tmaPlan(*b, f, out, advance, inLoop) : std::nullopt;
    }
    const bool useTma = tmaA && tmaB;
    // Warp specialization: a producer warpgroup issues the copies of a TMA ring in the kernel's
    // own block (specializeWarps() then makes the kernel persistent), where the setting asks for
    // it or, by default, where the consumers' accumulators are big (wantsProducer), and where the
    // producer can compute the copies' coordinates from scalars alone.
    const bool ws = useTma && specialize && atTop && wantsProducer(*productStmt, stages) &&
                    producerComputes({tmaA->row, tmaA->col, tmaB->row, tmaB->col, f->begin, f->end},
                                     out, stmts, needed);

    // ---- the rewrite
    const SourceLoc loc = f->loc;
    const ScalarType it = f->var->type.elem;
    const Expr numStages =
        k.settings.numStagesName.empty() || f->numStages
            ? IntImm::make(ScalarType::I32, stages, loc)
            : IntImm::makeSymbol(ScalarType::I32, stages, k.settings.numStagesName, loc);
    auto minus = [&](int64_t c) { // NUM_STAGES - c, folded where no name stands for it
      if (!as<IntImm>(numStages)->symbol.empty())
        return Binary::make(BinaryOp::Sub, numStages, IntImm::make(ScalarType::I32, c, loc), loc);
      return IntImm::make(ScalarType::I32, stages - c, loc);
    };
    auto inIndexType = [&](const Expr &e) {
      return it == ScalarType::I32 ? e : Cast::make(it, e, loc);
    };
    auto times = [&](const Expr &x) { // x * step
      if (step->value == 1)
        return x;
      if (auto c = as<IntImm>(x); c && c->value == 1 && c->symbol.empty())
        return f->step;
      return Binary::make(BinaryOp::Mul, x, f->step, loc);
    };
    auto before = [&](const Expr &index) { // index < end (<= for an inclusive loop)
      return Binary::make(f->inclusive ? BinaryOp::Le : BinaryOp::Lt, index, f->end, loc);
    };
    // A TMA ring's position at the end of an iteration: `phase` flips as `stage` wraps around
    // (Prefetch::PhaseFlip), then `stage` moves on.
    auto phaseFlip = [&](const Var &stage, const Var &phase) {
      auto wrap = std::make_shared<If>();
      wrap->loc = loc;
      wrap->cond = Binary::make(BinaryOp::Eq, VarRef::make(stage, loc), minus(1), loc);
      Expr flipped = Binary::make(BinaryOp::Sub, IntImm::make(ScalarType::I32, 1, loc),
                                  VarRef::make(phase, loc), loc);
      wrap->thenS = Block::make({Assign::make(phase, flipped, loc)}, loc);
      wrap->prefetch = Prefetch::PhaseFlip;
      return wrap;
    };
    auto nextStage = [&](const Var &stage) {
      Expr next = Binary::make(BinaryOp::Add, VarRef::make(stage, loc),
                               IntImm::make(ScalarType::I32, 1, loc), loc);
      return Assign::make(stage, Binary::make(BinaryOp::Mod, next, numStages, loc), loc);
    };
    for (const Operand *o : {&*a, &*b}) {
      SharedBuffer &buf = k.buffers[o->buffer];
      buf.stages = stages;
      buf.sizeBytes = lowering::bufferBytes(buf);
      if (useTma) {
        buf.tma = (o == &*a ? tmaA : tmaB)->tensor;
        buf.tma->ring = a->buffer;
      }
    }
    // `if (index < end)`, of kind `which`: the declarations the loads read, computed again for
    // iteration `index` (as `<name>_ahead`, constants folded where `fold`), then what `body` makes
    // of that iteration's loads (`with` substitutes the index and those declarations).
    using Substitution = std::map<const VarNode *, Expr>;
    auto aheadBranch =
        [&](const Expr &index, Prefetch which, bool fold,
            const std::function<void(const Substitution &, std::vector<Stmt> &)> &body) {
          Substitution with{{f->var.get(), index}};
          std::vector<Stmt> c;
          for (size_t i : needed) { // in the body's order
            auto d = as<Decl>(stmts[i]);
            Var v = k.newVar(d->var->name + "_ahead", d->var->type, VarKind::Local, d->var->loc);
            Expr init = substitute(d->init, with);
            c.push_back(Decl::make(v, fold ? foldConstants(init) : init, d->loc));
            with[d->var.get()] = VarRef::make(v, d->loc);
          }
          body(with, c);
          auto branch = std::make_shared<If>();
          branch->loc = loc;
          branch->cond = before(index);
          branch->thenS = Block::make(std::move(c), loc);
          branch->prefetch = which;
          return branch;
        };
    auto copies = [&](const Expr &stage, const Expr &index, Prefetch which) {
      return aheadBranch(index, which, false, [&](const Substitution &with, std::vector<Stmt> &c) {
        if (useTma) {
          for (const Operand *o : {&*a, &*b}) {
            const TmaPlan &plan = o == &*a ? *tmaA : *tmaB;
            c.push_back(AsyncCopy::makeTma(o->buffer, stage, substitute(plan.row, with),
                                           substitute(plan.col, with), stmts[o->decl]->loc));
          }
          return;
        }
        for (const Operand *o : {&*a, &*b}) {
          Expr mask = o->load->mask ? substitute(o->load->mask, with) : nullptr;
          c.push_back(AsyncCopy::make(o->buffer, stage, substitute(o->load->ptr, with), mask,
                                      o->load->vec, stmts[o->decl]->loc));
        }
      });
    };
    auto advances = [&](std::vector<Stmt> &into) {
      for (size_t i = static_cast<size_t>(p) + 1; i < stmts.size(); ++i)
        if (auto as_ = as<Assign>(stmts[i]); as_ && advanced.count(as_->var.get()))
          into.push_back(Assign::make(as_->var, as_->value, as_->loc));
    };
    // The product of this iteration, reading stage `stage` of its buffers.
    auto product = [&](const Stmt &s, const Expr &stage) -> Stmt {
      auto withStage = [&](const Expr &e) {
        auto d = as<SharedDot>(e);
        return SharedDot::make(d->bufferA, d->bufferB, d->acc, d->precision, d->type, d->loc, stage,
                               d->transA, d->transB, inFlight);
      };
      if (auto d = as<Decl>(s))
        return Decl::make(d->var, withStage(d->init), d->loc);
      auto as_ = as<Assign>(s);
      return Assign::make(as_->var, withStage(as_->value), as_->loc);
    };
    if (!asyncCopies)
      return doubleBuffer(f, *a, *b, p, before, aheadBranch, advances, product, out);

    if (ws) {
      // The producer: its own loop over the iterations, each waiting until its stage is free
      // (the phase before the stage's first use counts as complete), then copying the tiles.
      Var copyStage = k.newVar("copy_stage", Type::scalar(ScalarType::I32), VarKind::Local, loc);
      Var copyPhase = k.newVar("copy_phase", Type::scalar(ScalarType::I32), VarKind::Local, loc);
      Var index = k.newVar(f->var->name, f->var->type, VarKind::LoopIndex, f->var->loc);
      auto one = IntImm::make(ScalarType::I32, 1, loc),
           zero = IntImm::make(ScalarType::I32, 0, loc);
      auto moveOn = [&](const Var &stage, const Var &phase, std::vector<Stmt> &into) {
        into.push_back(phaseFlip(stage, phase));
        into.push_back(nextStage(stage));
      };
      std::vector<Stmt> pl;
      pl.push_back(StageFree::makeWait(
          a->buffer, VarRef::make(copyStage, loc),
          Binary::make(BinaryOp::Sub, one, VarRef::make(copyPhase, loc), loc), loc));
      Substitution with{{f->var.get(), VarRef::make(index, loc)}};
      std::set<const VarNode *> coords =
          producerReads({tmaA->row, tmaA->col, tmaB->row, tmaB->col}, stmts, needed);
      for (size_t i : needed) { // in the body's order: the ones the coordinates read
        auto d = as<Decl>(stmts[i]);
        if (!coords.count(d->var.get()))
          continue;
        Var v = k.newVar(d->var->name, d->var->type, VarKind::Local, d->var->loc);
        pl.push_back(Decl::make(v, substitute(d->init, with), d->loc));
        with[d->var.get()] = VarRef::make(v, d->loc);
      }
      for (const Operand *o : {&*a, &*b}) {
        const TmaPlan &plan = o == &*a ? *tmaA : *tmaB;
        pl.push_back(AsyncCopy::makeTma(o->buffer, VarRef::make(copyStage, loc),
                                        substitute(plan.row, with), substitute(plan.col, with),
                                        stmts[o->decl]->loc));
      }
      moveOn(copyStage, copyPhase, pl);
      Stmt producer =
          Block::make({Decl::make(copyStage, zero, loc), Decl::make(copyPhase, zero, loc),
                       For::make(index, f->begin, f->end, f->step, Block::make(std::move(pl), loc),
                                 /*unroll=*/false, loc, f->inclusive)},
                      loc);
      // The consumers: the loop waits for each stage's copies, and frees the stage the last
      // iteration read once this iteration's product has retired that one's; after the loop (and
      // the wait for its last product) the last stage read is freed.
      Var readStage = k.newVar("read_stage", Type::scalar(ScalarType::I32), VarKind::Local, loc);
      Var readPhase = k.newVar("read_phase", Type::scalar(ScalarType::I32), VarKind::Local, loc);
      auto previous = [&] { // (read_stage + S - 1) % S
        return Binary::make(
            BinaryOp::Mod, Binary::make(BinaryOp::Add, VarRef::make(readStage, loc), minus(1), loc),
            numStages, loc);
      };
      std::vector<Stmt> c;
      c.push_back(AsyncWait::makeTma(a->buffer, VarRef::make(readStage, loc),
                                     VarRef::make(readPhase, loc), loc));
      for (size_t i = 0; i < stmts.size(); ++i) {
        if (i == a->decl || i == b->decl || i == a->write || i == b->write ||
            i == static_cast<size_t>(p) - 1)
          continue;
        if (auto as_ = as<Assign>(stmts[i]); as_ && advanced.count(as_->var.get()))
          continue; // a pointer only the copies read
        if (i != static_cast<size_t>(p)) {
          c.push_back(stmts[i]);
          continue;
        }
        c.push_back(product(stmts[i], VarRef::make(readStage, loc)));
        Expr notFirst = Binary::make(BinaryOp::Gt, VarRef::make(f->var, loc), f->begin, loc);
        c.push_back(If::make(notFirst,
                             Block::make({StageFree::make(a->buffer, previous(), loc)}, loc),
                             nullptr, loc));
      }
      moveOn(readStage, readPhase, c);
      auto loop = std::make_shared<For>(*f);
      loop->body = Block::make(std::move(c), body->loc);
      Stmt consumers = Block::make(
          {Decl::make(readStage, zero, loc), Decl::make(readPhase, zero, loc), loop,
           If::make(before(f->begin),
                    Block::make({StageFree::make(a->buffer, previous(), loc)}, loc), nullptr, loc)},
          loc);
      out.push_back(WarpSpecialize::make(producer, consumers, loc));
      tma = false; // one producer: later loops keep cp.async
      return true;
    }

    // A TMA ring in a loop that runs more than once per program (nested in another loop or a
    // branch's loop) carries its position from one run to the next: each stage's barriers count
    // phases across the runs, so the ring starts where the last run left it (`ringState`, declared
    // at the top of the kernel) and the prologue fills the stages from there.
    const bool carried = useTma && !atTop;
    Var readStage = k.newVar("read_stage", Type::scalar(ScalarType::I32), VarKind::Local, loc);
    auto fromRead = [&](const Expr &ahead) -> Expr { // (read_stage + ahead) % S
      if (!carried)
        return ahead;
      return Binary::make(BinaryOp::Mod,
                          Binary::make(BinaryOp::Add, VarRef::make(readStage, loc), ahead, loc),
                          numStages, loc);
    };
    // Prologue: the first S - 1 iterations' copies, one group each, the pointers advanced past
    // them.
    Var pro = k.newVar("stage", Type::scalar(ScalarType::I32), VarKind::LoopIndex, loc);
    {
      Expr s = VarRef::make(pro, loc);
      Expr index = times(inIndexType(s));
      if (auto b0 = as<IntImm>(f->begin); !b0 || b0->value != 0)
        index = Binary::make(BinaryOp::Add, f->begin, index, loc);
      std::vector<Stmt> c{copies(fromRead(s), index, Prefetch::PipelineFirst)};
      if (!useTma) { // TMA copies need no groups, and read no pointers
        c.push_back(AsyncCommit::make(loc));
        advances(c);
      }
      out.push_back(For::make(pro, IntImm::make(ScalarType::I32, 0, loc), minus(1),
                              IntImm::make(ScalarType::I32, 1, loc), Block::make(std::move(c), loc),
                              /*unroll=*/true, loc));
    }
    Var copyStage = k.newVar("copy_stage", Type::scalar(ScalarType::I32), VarKind::Local, loc);
    std::vector<Stmt> &state = carried ? ringState : out;
    state.push_back(Decl::make(readStage, IntImm::make(ScalarType::I32, 0, loc), loc));
    out.push_back(Decl::make(copyStage, fromRead(minus(1)), loc));
    // TMA: the parity of the phase of read_stage's full barrier that this iteration waits for; it
    // flips each time read_stage wraps around.
    Var readPhase;
    if (useTma) {
      readPhase = k.newVar("read_phase", Type::scalar(ScalarType::I32), VarKind::Local, loc);
      state.push_back(Decl::make(readPhase, IntImm::make(ScalarType::I32, 0, loc), loc));
    }

    std::vector<Stmt> c;
    if (useTma) {
      c.push_back(AsyncWait::makeTma(a->buffer, VarRef::make(readStage, loc),
                                     VarRef::make(readPhase, loc), loc));
    } else {
      c.push_back(AsyncWait::make(minus(2), loc));
      c.push_back(Barrier::make(loc));
    }
    Expr ahead =
        Binary::make(BinaryOp::Add, VarRef::make(f->var, loc), times(inIndexType(minus(1))), loc);
    auto nextCopies = [&] {
      c.push_back(copies(VarRef::make(copyStage, loc), ahead, Prefetch::PipelineNext));
      if (!useTma)
        c.push_back(AsyncCommit::make(loc));
    };
    if (!inFlight)
      nextCopies();
    for (size_t i = 0; i < stmts.size(); ++i) {
      if (i == a->decl || i == b->decl || i == a->write || i == b->write ||
          i == static_cast<size_t>(p) - 1)
        continue;
      if (i == static_cast<size_t>(p)) { // the product reads this iteration's stage
        c.push_back(product(stmts[i], VarRef::make(readStage, loc)));
        if (inFlight) {
          c.push_back(Barrier::make(loc));
          nextCopies();
        }
        continue;
      }
      if (auto as_ = as<Assign>(stmts[i]); useTma && as_ && advanced.count(as_->var.get()))
        continue; // a pointer only the copies read: TMA copies read coordinates instead
      c.push_back(stmts[i]);
    }
    if (useTma) // read_stage wraps around at the end of this iteration: the next phase
      c.push_back(phaseFlip(readStage, readPhase));
    for (const Var &v : {readStage, copyStage})
      c.push_back(nextStage(v));
    auto loop = std::make_shared<For>(*f);
    loop->body = Block::make(std::move(c), body->loc);
    out.push_back(loop);
    if (!useTma) // TMA: every copy was waited for (each iteration waits for its own stage)
      out.push_back(AsyncWait::make(IntImm::make(ScalarType::I32, 0, loc), loc));
    return true;
  }

  /// Whether the loop whose product is `product`, with a ring of `stages` stages, gets a producer
  /// warpgroup: as the kernel's warp_specialize setting says, and by default where two consumer
  /// warpgroups each hold 128 or more accumulator elements a thread (128x256 tiles on 8 warps) and
  /// the ring holds 96 or more K elements ahead of the product ((stages - 1) * BLOCK_K: 3 steps of
  /// 32, 2 of 64). On the H100 those gained up to 11% beside the TMA ring with its CTA barrier,
  /// while 128x128 tiles lost 20% (one block per SM instead of two) and 128x256x32 on 3 stages
  /// 1-2% (bench/NOTES.md, Experiment M19, Runs M20 and M21).
  bool wantsProducer(const Assign &product, int stages) const {
    using W = KernelSettings::WarpSpecialization;
    if (k.settings.warpSpecialize != W::Auto)
      return k.settings.warpSpecialize == W::On;
    auto *dot = as<SharedDot>(product.value);
    const std::vector<int64_t> &b = k.buffers.at(dot->bufferB).shape;
    const int64_t blockK = dot->transB ? b[1] : b[0];
    const int threads = k.settings.numWarps * k.warpSize;
    return k.settings.numWarps == 8 && dot->type.numElements() / threads >= 128 &&
           (stages - 1) * blockK >= 96;
  }
  /// The variables `exprs` read, and those the declarations among `needed` (statements of the
  /// loop's body) they read declare read in turn.
  static std::set<const VarNode *> producerReads(const std::vector<Expr> &exprs,
                                                 const std::vector<Stmt> &body,
                                                 const std::set<size_t> &needed) {
    ExprFacts facts;
    for (const Expr &e : exprs)
      facts.add(e);
    std::set<const VarNode *> r = facts.reads;
    for (auto it = needed.rbegin(); it != needed.rend(); ++it) { // later ones read earlier ones
      auto d = as<Decl>(body[*it]);
      if (r.count(d->var.get())) {
        ExprFacts more;
        more.add(d->init);
        r.insert(more.reads.begin(), more.reads.end());
      }
    }
    return r;
  }
  /// Whether one producer thread can compute `exprs` (of a loop): every variable they read,
  /// through the loop's declarations (`needed`) and the statements before the loop in the kernel's
  /// block (`pre`, declarations and assignments only), is a scalar computed without loads.
  bool producerComputes(const std::vector<Expr> &exprs, const std::vector<Stmt> &pre,
                        const std::vector<Stmt> &body, const std::set<size_t> &needed) const {
    auto scalarOnly = [](const Expr &e) {
      bool ok = true;
      forEachNode(e, [&](const ExprNode *n) {
        ok = ok && n->type.isScalar() && !n->type.pointer && n->kind != ExprKind::Load;
      });
      return ok;
    };
    std::set<const VarNode *> want = producerReads(exprs, body, needed);
    for (size_t i : needed) {
      auto d = as<Decl>(body[i]);
      if (want.count(d->var.get()) && (!d->var->type.isScalar() || !scalarOnly(d->init)))
        return false;
    }
    for (const Stmt &s : pre)
      if (s->kind != StmtKind::Decl && s->kind != StmtKind::Assign)
        return false;
    for (auto it = pre.rbegin(); it != pre.rend(); ++it) {
      auto d = as<Decl>(*it);
      auto as_ = as<Assign>(*it);
      const Var &v = d ? d->var : as_->var;
      if (!want.count(v.get()))
        continue;
      const Expr &value = d ? d->init : as_->value;
      if (!v->type.isScalar() || !value || !scalarOnly(value))
        return false;
      ExprFacts facts;
      facts.add(value);
      want.insert(facts.reads.begin(), facts.reads.end());
    }
    return true;
  }

  /// Without cp.async: the operands go through two stages of their buffers, written from
  /// registers. The next iteration's tiles are loaded at the top of an iteration, computed on
  /// while they arrive, and written at its end into the stage the next iteration reads, so one
  /// barrier an iteration orders both stages (Triton's AMD pipeliner at num_stages = 2).
  ///   decl %a_next; decl %b_next
  ///   if (b < e) prefetch(first) { %a_next = load(%pa, %ma(b)); %b_next = load(...);
  ///                                shared_write A[0], %a_next; shared_write B[0], %b_next }
  ///   %pa = %pa + %da; %pb = %pb + %db
  ///   decl %read_stage = 0
  ///   for %k = b to e step s {
  ///     barrier
  ///     if (%k + s < e) prefetch(next) { %a_next = load(%pa, %ma(%k + s)); %b_next = ... }
  ///     %acc = shared_dot(A, B, stage=%read_stage, acc=%acc)
  ///     if (%k + s < e) pipeline(stage) { shared_write A[1 - %read_stage], %a_next; ... }
  ///     %pa = %pa + %da; %pb = %pb + %db
  ///     %read_stage = 1 - %read_stage
  ///   }
  /// The barrier at the top of iteration k makes the stage written in iteration k - 1 visible
  /// and ends every thread's reading of the other one (read in iteration k - 1), which this
  /// iteration then refills.
  template <class Before, class AheadBranch, class Advances, class Product>
  bool doubleBuffer(const For *f, const Operand &a, const Operand &b, long p, Before before,
                    AheadBranch aheadBranch, Advances advances, Product product,
                    std::vector<Stmt> &out) {
    const std::vector<Stmt> &stmts = as<Block>(f->body)->stmts;
    const SourceLoc loc = f->loc;
    std::vector<Var> next;
    for (const Operand *o : {&a, &b}) {
      const Var &v = as<Decl>(stmts[o->decl])->var;
      next.push_back(k.newVar(v->name + "_next", v->type, VarKind::Local, v->loc));
      out.push_back(Decl::make(next.back(), nullptr, v->loc));
      SharedBuffer &buf = k.buffers[o->buffer];
      buf.stages = 2;
      buf.sizeBytes = lowering::bufferBytes(buf);
    }
    // The loads of iteration `index` into the `_next` variables (and the staging writes, `then`).
    using Substitution = std::map<const VarNode *, Expr>;
    auto loads = [&](const Expr &index, Prefetch which, std::vector<Stmt> then) {
      return aheadBranch(index, which, true, [&](const Substitution &with, std::vector<Stmt> &c) {
        for (size_t n = 0; n < 2; ++n) {
          const Operand &o = n ? b : a;
          c.push_back(Assign::make(next[n],
                                   foldConstants(substitute(as<Decl>(stmts[o.decl])->init, with)),
                                   stmts[o.decl]->loc));
        }
        c.insert(c.end(), then.begin(), then.end());
      });
    };
    auto writes = [&](const Expr &stage) {
      std::vector<Stmt> w;
      for (size_t n = 0; n < 2; ++n) {
        const Operand &o = n ? b : a;
        w.push_back(SharedWrite::makeTile(o.buffer, VarRef::make(next[n], loc), stmts[o.write]->loc,
                                          stage));
      }
      return w;
    };
    auto zero = IntImm::make(ScalarType::I32, 0, loc), one = IntImm::make(ScalarType::I32, 1, loc);
    // Prologue: the first iteration's tiles into stage 0; the pointers advanced past them.
    out.push_back(loads(f->begin, Prefetch::FirstIteration, writes(zero)));
    advances(out);
    Var readStage = k.newVar("read_stage", Type::scalar(ScalarType::I32), VarKind::Local, loc);
    out.push_back(Decl::make(readStage, zero, loc));
    const Expr other = Binary::make(BinaryOp::Sub, one, VarRef::make(readStage, loc), loc);

    std::vector<Stmt> c;
    c.push_back(Barrier::make(loc));
    const Expr ahead = Binary::make(BinaryOp::Add, VarRef::make(f->var, loc), f->step, loc);
    c.push_back(loads(ahead, Prefetch::NextIteration, {}));
    for (size_t i = 0; i < stmts.size(); ++i) {
      if (i == a.decl || i == b.decl || i == a.write || i == b.write ||
          i == static_cast<size_t>(p) - 1)
        continue;
      if (i == static_cast<size_t>(p)) {
        c.push_back(product(stmts[i], VarRef::make(readStage, loc)));
        auto store = std::make_shared<If>();
        store->loc = loc;
        store->cond = before(ahead);
        store->thenS = Block::make(writes(other), loc);
        store->prefetch = Prefetch::StageNext;
        c.push_back(store);
        continue;
      }
      c.push_back(stmts[i]);
    }
    c.push_back(Assign::make(readStage, other, loc));
    auto loop = std::make_shared<For>(*f);
    loop->body = Block::make(std::move(c), as<Block>(f->body)->loc);
    out.push_back(loop);
    return true;
  }

  Kernel &k;
  bool asyncCopies, tma, specialize;
  bool atTop = false; // the loop being pipelined is a statement of the kernel body's own block
  PointerOrigins origins;
  std::map<const VarNode *, int> reads; // how many times the kernel reads each variable

public:
  /// Declarations of the position of TMA rings in loops that run several times a program, for the
  /// top of the kernel (pipeline(): `carried`).
  std::vector<Stmt> ringState;
};

/// Whether `k` may be warp-specialized and persistent: CUDA sm_90, not turned off, one grid
/// dimension at most, and programs numbered along axis 0 only (a persistent block loops over
/// them).
bool specializable(const Kernel &k, const Target &target) {
  if (target.kind != TargetKind::Cuda || target.smVersion() < 90 ||
      k.settings.warpSpecialize == KernelSettings::WarpSpecialization::Off ||
      k.settings.grid.size() > 1)
    return false;
  bool axis0 = true;
  forEachExpr(k.body, [&](const ExprNode *e) {
    if (e->kind == ExprKind::ProgramId && static_cast<const ProgramId *>(e)->axis != 0)
      axis0 = false;
  });
  return axis0;
}

/// The kernel's programs run by blocks that loop over them: `program_id(0)` is the loop's
/// program, `num_programs(0)` the launch's count (Kernel::programs).
class PersistentPrograms : public IRMutator {
public:
  PersistentPrograms(Var program, Var programs)
      : program(std::move(program)), programs(std::move(programs)) {}
  using IRMutator::mutate;

protected:
  Expr mutate(const ProgramId *n, const Expr &) override {
    return VarRef::make(n->count ? programs : program, n->loc);
  }

private:
  Var program, programs;
};

/// After pipeline-dots made a WarpSpecialize of a loop in the kernel's own block (the
/// statements before it declarations and assignments only, the producer's loop reading scalars
/// only), the kernel becomes persistent and the node its whole body:
///   producer { decl %copy_stage; decl %copy_phase
///              for %program = program_id(0) to %num_programs step num_programs(0) {
///                <the scalar declarations before the loop that the copies read, again>
///                <the producer's loop> } }
///   consumers { decl %read_stage; decl %read_phase
///               for %program = ... { <the statements before the loop>; <the consumers' loop>;
///                                    <the statements after it> } }
/// The ring's stages and phases run on from one program to the next (declared outside the
/// loops), so the producer fills the next program's first stages while the consumers finish this
/// one's. In the loops program_id(0) is %program and num_programs(0) %num_programs, the launch's
/// count (Kernel::programs), which the launcher passes beside a grid of one block per SM.
void specializeWarps(Kernel &k) {
  auto *top = as<Block>(k.body);
  if (!top)
    return;
  const std::vector<Stmt> &stmts = top->stmts;
  size_t w = 0;
  while (w < stmts.size() && stmts[w]->kind != StmtKind::WarpSpecialize)
    ++w;
  if (w == stmts.size())
    return;
  auto *ws = as<WarpSpecialize>(stmts[w]);
  const SourceLoc loc = ws->loc;
  std::vector<Stmt> pre(stmts.begin(), stmts.begin() + static_cast<long>(w));
  std::vector<Stmt> post(stmts.begin() + static_cast<long>(w) + 1, stmts.end());
  // Each side: its ring state (the leading declarations), then its loop (and the consumers' last
  // release).
  auto split = [](const Stmt &side, std::vector<Stmt> &state, std::vector<Stmt> &rest) {
    for (const Stmt &s : as<Block>(side)->stmts)
      (rest.empty() && s->kind == StmtKind::Decl ? state : rest).push_back(s);
  };
  std::vector<Stmt> producerState, producerLoop, consumerState, consumerLoop;
  split(ws->producer, producerState, producerLoop);
  split(ws->consumers, consumerState, consumerLoop);

  k.producerThreads = 128;
  k.programs = k.newVar("num_programs", Type::scalar(ScalarType::I32), VarKind::Param, loc);
  auto programLoop = [&](std::vector<Stmt> body) {
    Var program = k.newVar("program", Type::scalar(ScalarType::I32), VarKind::LoopIndex, loc);
    Stmt b = PersistentPrograms(program, k.programs).mutate(Block::make(std::move(body), loc));
    return For::make(program, ProgramId::make(0, false, loc), VarRef::make(k.programs, loc),
                     ProgramId::make(0, true, loc), b, /*unroll=*/false, loc);
  };

  // The producer computes again, under variables of its own, the scalars before the loop that
  // its loop reads (pipeline-dots checked that they are scalar declarations and assignments).
  ExprFacts facts;
  for (const Stmt &s : producerLoop)
    forEachExpr(s, [&](const ExprNode *e) {
      if (e->kind == ExprKind::VarRef)
        facts.reads.insert(static_cast<const VarRef *>(e)->var.get());
    });
  std::set<const VarNode *> want = facts.reads;
  std::vector<bool> keep(pre.size(), false);
  for (size_t i = pre.size(); i-- > 0;) {
    auto d = as<Decl>(pre[i]);
    auto as_ = as<Assign>(pre[i]);
    const Var &v = d ? d->var : as_->var;
    if (!want.count(v.get()))
      continue;
    keep[i] = true;
    forEachExpr(pre[i], [&](const ExprNode *e) {
      if (e->kind == ExprKind::VarRef)
        want.insert(static_cast<const VarRef *>(e)->var.get());
    });
  }
  std::map<const VarNode *, Expr> renamed;
  std::vector<Stmt> producerBody;
  for (size_t i = 0; i < pre.size(); ++i) {
    if (!keep[i])
      continue;
    if (auto d = as<Decl>(pre[i])) {
      Var v = k.newVar(d->var->name, d->var->type, VarKind::Local, d->var->loc);
      producerBody.push_back(Decl::make(v, substitute(d->init, renamed), d->loc));
      renamed[d->var.get()] = VarRef::make(v, d->loc);
    } else {
      auto as_ = as<Assign>(pre[i]);
      auto to = as<VarRef>(renamed.at(as_->var.get()));
      producerBody.push_back(Assign::make(to->var, substitute(as_->value, renamed), as_->loc));
    }
  }
  for (const Stmt &s : producerLoop)
    producerBody.push_back(substitute(s, renamed));
  producerState.push_back(programLoop(std::move(producerBody)));

  std::vector<Stmt> consumerBody = pre;
  consumerBody.insert(consumerBody.end(), consumerLoop.begin(), consumerLoop.end());
  consumerBody.insert(consumerBody.end(), post.begin(), post.end());
  consumerState.push_back(programLoop(std::move(consumerBody)));

  k.body = Block::make({WarpSpecialize::make(Block::make(std::move(producerState), loc),
                                             Block::make(std::move(consumerState), loc), loc)},
                       top->loc);
}

class PipelineDotsPass : public Pass {
public:
  const char *name() const override { return "pipeline-dots"; }
  void run(Module &m, PassContext &ctx) override {
    // cp.async: CUDA sm_80 and later; HIP double-buffers from registers (older CUDA keeps the
    // single stage: nothing measured there).
    const bool asyncCopies = ctx.target.smVersion() >= 80;
    if (!asyncCopies && ctx.target.kind != TargetKind::Hip)
      return;
    for (auto &k : m.kernels) {
      if (!hasStagedLoops(k))
        continue;
      Pipeliner p(k, asyncCopies,
                  ctx.target.kind == TargetKind::Cuda && ctx.target.smVersion() >= 90,
                  specializable(k, ctx.target));
      Stmt body = p.mutate(k.body);
      if (!p.ringState.empty()) {
        std::vector<Stmt> stmts = p.ringState;
        for (const Stmt &s : as<Block>(body)->stmts)
          stmts.push_back(s);
        body = Block::make(std::move(stmts), body->loc);
      }
      // A declaration that only fed a copied load is read no more.
      if (body != k.body)
        k.body = removeDeadDecls(body);
      specializeWarps(k);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createPipelineDotsPass() { return std::make_unique<PipelineDotsPass>(); }

} // namespace tilec::passes
