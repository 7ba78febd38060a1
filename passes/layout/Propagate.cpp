// layout-assignment, propagation and conflict resolution: numbers statements in program order,
// classifies variables (strong: loaded or reduced; flexible: cheap, assigned once), gives strong
// variables the layout of their definition (step 2, forward to a fixpoint), collects the layouts
// users demand (step 3, backward to a fixpoint) and fixes every tile variable's layout, declaring
// one copy of a flexible variable per further demanded layout. See LayoutAssignment.cpp.
#include "ir/IRVisitor.h"
#include "passes/layout/Assigner.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <string>

namespace tilec::passes::layout {

using namespace ir;

namespace {

/// A scalar expression that still holds a load or reduction (not cheap to duplicate).
bool containsKind(const Expr &e) {
  bool found = false;
  struct F : IRVisitor {
    bool &f;
    explicit F(bool &f) : f(f) {}
    using IRVisitor::visit;
    void visit(const Load *) override { f = true; }
    void visit(const Reduce *) override { f = true; }
    void visit(const Dot *) override { f = true; }
  } v(found);
  v.visit(e);
  return found;
}

} // namespace

void Assigner::number(const Stmt &s, int &pos) {
  if (!s)
    return;
  posOf[s.get()] = pos++;
  switch (s->kind) {
  case StmtKind::Block:
    for (auto &c : as<Block>(s)->stmts)
      number(c, pos);
    break;
  case StmtKind::For:
    number(as<For>(s)->body, pos);
    break;
  case StmtKind::While:
    number(as<While>(s)->body, pos);
    break;
  case StmtKind::If:
    number(as<If>(s)->thenS, pos);
    number(as<If>(s)->elseS, pos);
    break;
  default:
    break;
  }
}

VarState &Assigner::state(const Var &v) {
  auto it = vars.find(v.get());
  if (it == vars.end()) {
    order.push_back(v);
    it = vars.emplace(v.get(), VarState{}).first;
    it->second.tile = v->type.isTile();
  }
  return it->second;
}

bool Assigner::cheap(const Expr &e) {
  if (!e)
    return true;
  if (e->type.isScalar() && e->kind != ExprKind::Load && e->kind != ExprKind::Reduce &&
      e->kind != ExprKind::Dot)
    return !containsKind(e);
  switch (e->kind) {
  case ExprKind::Arange:
  case ExprKind::Splat:
    return e->kind == ExprKind::Arange || cheap(as<Splat>(e)->a);
  case ExprKind::VarRef: {
    auto &st = state(as<VarRef>(e)->var);
    return st.flexible;
  }
  case ExprKind::Unary:
    return cheap(as<Unary>(e)->a);
  case ExprKind::Cast:
    return cheap(as<Cast>(e)->a);
  case ExprKind::Hint:
    return cheap(as<Hint>(e)->a);
  case ExprKind::ExpandDims:
    return cheap(as<ExpandDims>(e)->a);
  case ExprKind::Broadcast:
    return cheap(as<Broadcast>(e)->a);
  case ExprKind::Trans:
    return cheap(as<Trans>(e)->a);
  case ExprKind::Binary:
    return cheap(as<Binary>(e)->a) && cheap(as<Binary>(e)->b);
  case ExprKind::Select:
    return cheap(as<Select>(e)->cond) && cheap(as<Select>(e)->a) && cheap(as<Select>(e)->b);
  case ExprKind::Math:
    for (auto &a : as<Math>(e)->args)
      if (!cheap(a))
        return false;
    return true;
  default:
    return false;
  }
}

/// Counts assignments, then marks the flexible variables (program order: definitions first).
void Assigner::classify(const Stmt &body) {
  std::vector<std::pair<Var, Expr>> decls;
  std::function<void(const Stmt &)> walk = [&](const Stmt &s) {
    if (!s)
      return;
    switch (s->kind) {
    case StmtKind::Block:
      for (auto &c : as<Block>(s)->stmts)
        walk(c);
      break;
    case StmtKind::Decl: {
      auto *d = as<Decl>(s);
      auto &st = state(d->var);
      if (d->init)
        ++st.assignments;
      decls.push_back({d->var, d->init});
      break;
    }
    case StmtKind::Assign:
      state(as<Assign>(s)->var).assignments++;
      break;
    case StmtKind::Store: // an atomic's old values
      if (const Var &r = as<Store>(s)->result)
        state(r).assignments++;
      break;
    case StmtKind::For:
      walk(as<For>(s)->body);
      break;
    case StmtKind::While:
      walk(as<While>(s)->body);
      break;
    case StmtKind::If:
      walk(as<If>(s)->thenS);
      walk(as<If>(s)->elseS);
      break;
    default:
      break;
    }
  };
  walk(body);
  for (auto &[v, init] : decls) {
    auto &st = state(v);
    st.flexible = st.tile && init && st.assignments == 1 && cheap(init);
    if (!st.flexible)
      st.tag = v->name;
  }
}

/// The layout an expression has by itself (from loads, reductions and strong variables); null
/// when it can take any layout.
LayoutRef Assigner::natural(const Expr &e) {
  if (!e || e->type.isScalar())
    return nullptr;
  switch (e->kind) {
  case ExprKind::VarRef: {
    auto &st = state(as<VarRef>(e)->var);
    return st.flexible ? nullptr : st.layout;
  }
  case ExprKind::Load:
    return anchorFor(as<Load>(e)->ptr);
  case ExprKind::Reduce: {
    auto *r = as<Reduce>(e);
    LayoutRef p = natural(r->a);
    return p ? Layout::slice(p, r->axis) : nullptr;
  }
  case ExprKind::Dot:
    return dotLayout(as<Dot>(e));
  case ExprKind::Gather: // the indices' layout
    return natural(as<Gather>(e)->index);
  case ExprKind::Histogram: // any: the counts are read back from shared memory
  case ExprKind::Reshape:   // any: read back from shared memory
  case ExprKind::Sort:
    return nullptr;
  case ExprKind::Scan: { // scans lower on blocked layouts (and their slices)
    LayoutRef p = natural(as<Scan>(e)->a);
    return p && p->root().kind != Layout::Kind::Mma ? p : nullptr;
  }
  case ExprKind::ConvertLayout:
    return e->type.layout;
  case ExprKind::ExpandDims: {
    auto *x = as<ExpandDims>(e);
    LayoutRef a = natural(x->a);
    if (a && a->kind == Layout::Kind::Slice && a->sliceDim == x->axis &&
        a->parent->rank() == e->type.rank())
      return a->parent;
    return nullptr;
  }
  case ExprKind::Broadcast:
    return natural(as<Broadcast>(e)->a);
  case ExprKind::Trans: // a view: the operand's blocked layout, permuted
    return Layout::permuted(natural(as<Trans>(e)->a), as<Trans>(e)->perm);
  case ExprKind::Unary:
    return natural(as<Unary>(e)->a);
  case ExprKind::Cast:
    return natural(as<Cast>(e)->a);
  case ExprKind::Hint:
    return natural(as<Hint>(e)->a);
  case ExprKind::Binary: {
    LayoutRef a = natural(as<Binary>(e)->a);
    return a ? a : natural(as<Binary>(e)->b);
  }
  case ExprKind::Select: {
    auto *s = as<Select>(e);
    for (auto *x : {&s->a, &s->b, &s->cond})
      if (LayoutRef l = natural(*x))
        return l;
    return nullptr;
  }
  case ExprKind::Math:
    for (auto &a : as<Math>(e)->args)
      if (LayoutRef l = natural(a))
        return l;
    return nullptr;
  default:
    return nullptr;
  }
}

/// The parent layout the operand of `r` takes when the result is wanted in `want`.
LayoutRef Assigner::reduceParent(const Reduce *r, const LayoutRef &want) {
  if (want && want->kind == Layout::Kind::Slice && want->sliceDim == r->axis &&
      want->parent->rank() == r->a->type.rank() && want->parent->kind != Layout::Kind::Mma)
    return want->parent;
  // Reductions lower on blocked layouts: an operand in a tensor-core accumulator layout is
  // converted first.
  if (LayoutRef p = natural(r->a); p && p->root().kind != Layout::Kind::Mma)
    return p;
  return defaultLayout(r->a->type);
}

/// The layout a scan is computed in when its result is wanted in `want`: that one, unless it is a
/// tensor-core accumulator's (or none is wanted), whose elements are not runs along an axis; then
/// its operand's own, or the default blocked layout.
LayoutRef Assigner::scanLayout(const Scan *s, const LayoutRef &want) {
  if (want && want->root().kind != Layout::Kind::Mma)
    return want;
  if (LayoutRef p = natural(s->a); p && p->root().kind != Layout::Kind::Mma)
    return p;
  return defaultLayout(s->type);
}

/// The layout a histogram's values (and mask) are counted in: their own.
LayoutRef Assigner::histogramInputLayout(const Histogram *h) {
  LayoutRef l = natural(h->a);
  return l ? l : defaultLayout(h->a->type);
}

/// The layout a reshape's operands are staged in shared memory from: their own (the first's).
LayoutRef Assigner::reshapeSourceLayout(const Reshape *r) {
  LayoutRef l = natural(r->a);
  if (!l && r->b)
    l = natural(r->b);
  return l ? l : defaultLayout(r->a->type);
}

/// The layout a gather's source is staged in shared memory from: its own.
LayoutRef Assigner::gatherSourceLayout(const Gather *g) {
  LayoutRef l = natural(g->src);
  return l ? l : defaultLayout(g->src->type);
}

/// The layout a dot's result takes: the accumulator layout of the tensor-core instruction that
/// computes it (mmaLayout), else the default blocked layout of [M, N], whose elements each thread
/// computes from the operands staged in shared memory (lower-dots).
LayoutRef Assigner::dotLayout(const Dot *d) {
  if (LayoutRef l = mmaLayout(d))
    return l;
  return defaultLayout(d->type);
}

/// `mma.sync.m16n8k16` (CUDA, sm_80 and later) and MFMA (HIP, gfx90a and later: 32x32x8 where
/// both M and N are at least 32, else 16x16x16) compute fp16 x fp16 and bf16 x bf16 dots with an
/// fp32 result, and int8 x int8 -> int32 (`m16n8k32`, MFMA's i8 forms) where K is a multiple of 32
/// and the staged rows of B and a transposed A (N and M bytes) hold two 16-byte chunks; on CUDA
/// also fp32 dots with tl::tf32 or tl::tf32x3 (`m16n8k8`, three products for tf32x3). The
/// accumulators of one family are laid out alike. Warps per tile as Triton's (warpsPerTileV2), with
/// a unit of 16 x 16 per warp for mma.sync (one ldmatrix_x4 feeds two n8 blocks) and N x N for
/// MFMA: double the warps along M while M has more units per warp than N has, else along N. Null
/// (the portable path) where no instruction applies or the tile has fewer units than the kernel has
/// warps. On sm_90a, fp16 and bf16 dots whose tile a warpgroup instruction covers take wgmma
/// instead (wgmmaFits).
LayoutRef Assigner::mmaLayout(const Dot *d) {
  const ScalarType in = d->a->type.elem;
  const int64_t m = d->type.shape[0], n = d->type.shape[1], kDim = d->a->type.shape[1];
  const bool halves =
      (in == ScalarType::F16 || in == ScalarType::BF16) && d->type.elem == ScalarType::F32;
  const bool tf32 = in == ScalarType::F32 && d->precision != DotPrecision::Ieee &&
                    d->type.elem == ScalarType::F32;
  const bool int8 = in == ScalarType::I8 && d->type.elem == ScalarType::I32 && kDim % 32 == 0 &&
                    n >= 32 && m >= 32;
  const bool syncMma = ctx.target.smVersion() >= 80 && (halves || tf32 || int8);
  if (!syncMma && !(ctx.target.hasMfma() && (halves || int8)))
    return nullptr;
  if (halves && ctx.target.hasWgmma() && wgmmaFits(d, numWarps))
    return Layout::mma(numWarps, 1, Layout::MmaInstr::Wgmma);
  auto warps = [&](int64_t unit, Layout::MmaInstr instr) -> LayoutRef {
    if (m < unit || n < unit)
      return nullptr;
    int wm = 1, wn = 1;
    while (wm * wn < numWarps) {
      const int64_t perM = m / (unit * wm), perN = n / (unit * wn);
      if (perM >= perN && perM >= 2)
        wm *= 2;
      else if (perN >= 2)
        wn *= 2;
      else if (perM >= 2)
        wm *= 2;
      else
        return nullptr;
    }
    return Layout::mma(wm, wn, instr);
  };
  if (!ctx.target.hasMfma())
    return warps(16, Layout::MmaInstr::M16N8K16);
  if (LayoutRef l = warps(32, Layout::MmaInstr::Mfma32x32x8))
    return l;
  return warps(16, Layout::MmaInstr::Mfma16x16x16);
}

/// Whether `wgmma.mma_async.m64nNk16` computes the dot `d` (fp16 or bf16 operands, fp32 result)
/// with `numWarps` warps as warpgroups stacked along M (the #mma layout with warps [numWarps, 1]):
/// whole warpgroups, each m64 block of a warpgroup inside the tile (M a multiple of 16 numWarps,
/// itself a multiple of 64), one instruction across N (16 to 256), K in steps of 16, and both
/// operands in a shared layout the instruction reads (lower-dots): a K-contiguous operand (A's [M,
/// K] rows, B's [N, K] ones under tl::trans) in rows of 32, 64 or 128 bytes, the swizzle's own; an
/// M- or N-contiguous one (B's [K, N] rows, A's [K, M] under tl::trans) in such rows, or in column
/// blocks of 64 (128 bytes) when wider.
bool Assigner::wgmmaFits(const Dot *d, int numWarps) {
  const int64_t m = d->type.shape[0], n = d->type.shape[1], kDim = d->a->type.shape[1];
  if (numWarps % 4 != 0 || m % (16 * numWarps) != 0 || n % 16 != 0 || n > 256 || kDim % 16 != 0)
    return false;
  auto kRows = [](int64_t elems) { return elems == 16 || elems == 32 || elems == 64; };
  auto mnRows = [&](int64_t elems) { return kRows(elems) || elems % 64 == 0; };
  const bool transA = as<Trans>(d->a) != nullptr, transB = as<Trans>(d->b) != nullptr;
  return (transA ? mnRows(m) : kRows(kDim)) && (transB ? kRows(kDim) : mnRows(n));
}

/// The layout a dot operand is produced in before lower-dots stages it in shared memory: its own,
/// so that no conversion is added before the staging.
LayoutRef Assigner::dotOperandLayout(const Expr &x) {
  LayoutRef l = natural(x);
  return l ? l : defaultLayout(x->type);
}

LayoutRef Assigner::transWant(const LayoutRef &want, const Type &t) {
  return want && want->kind == Layout::Kind::Blocked ? want : defaultLayout(t);
}

/// The layout of a Decl/Assign root: loads keep their anchor, reductions a slice, dots theirs.
LayoutRef Assigner::rootLayout(const Expr &init, const LayoutRef &cand) {
  if (auto *d = as<Dot>(init))
    return dotLayout(d);
  if (auto *l = as<Load>(init))
    return anchorFor(l->ptr);
  if (auto *r = as<Reduce>(init))
    return Layout::slice(reduceParent(r, cand), r->axis);
  if (auto *sc = as<Scan>(init))
    return scanLayout(sc, cand);
  return cand;
}

void Assigner::decideStrong(const Stmt &s, bool &changed) {
  if (!s)
    return;
  auto consider = [&](const Var &v, const Expr &value) {
    auto &st = state(v);
    if (!st.tile || st.flexible || st.layout || !value)
      return;
    if (LayoutRef l = natural(value)) {
      st.layout = l;
      changed = true;
    }
  };
  switch (s->kind) {
  case StmtKind::Block:
    for (auto &c : as<Block>(s)->stmts)
      decideStrong(c, changed);
    break;
  case StmtKind::Decl:
    consider(as<Decl>(s)->var, as<Decl>(s)->init);
    break;
  case StmtKind::Assign:
    consider(as<Assign>(s)->var, as<Assign>(s)->value);
    break;
  case StmtKind::For:
    decideStrong(as<For>(s)->body, changed);
    break;
  case StmtKind::While:
    decideStrong(as<While>(s)->body, changed);
    break;
  case StmtKind::If:
    decideStrong(as<If>(s)->thenS, changed);
    decideStrong(as<If>(s)->elseS, changed);
    break;
  default:
    break;
  }
}

size_t Assigner::signature() {
  size_t n = 0;
  for (auto &[v, st] : vars) {
    n = n * 31 + st.demands.size() * 7 + (st.layout ? 1 : 0);
    for (auto &d : st.demands)
      n = n * 17 + static_cast<size_t>(d.pos);
  }
  return n;
}

void Assigner::addDemand(VarState &st, const LayoutRef &l, int pos, const std::string &tag) {
  for (auto &d : st.demands)
    if (*d.layout == *l) {
      if (pos < d.pos) {
        d.pos = pos;
        d.seq = nextSeq++;
      }
      return;
    }
  st.demands.push_back({l, pos, tag, nextSeq++});
}

/// Demands, in program order (earliest first; ties: first recorded).
std::vector<Demand> Assigner::sortedDemands(const VarState &st) {
  std::vector<Demand> d = st.demands;
  std::stable_sort(d.begin(), d.end(), [](const Demand &a, const Demand &b) {
    return a.pos != b.pos ? a.pos < b.pos : a.seq < b.seq;
  });
  return d;
}

void Assigner::demand(const Expr &e, const LayoutRef &want, int pos, const std::string &tag) {
  if (!e)
    return;
  if (e->type.isScalar()) {
    demandScalar(e, pos);
    return;
  }
  switch (e->kind) {
  case ExprKind::VarRef: {
    auto &st = state(as<VarRef>(e)->var);
    if (st.flexible || !st.layout)
      addDemand(st, want, pos, tag);
    return;
  }
  case ExprKind::Arange:
    return;
  case ExprKind::Splat:
    return demandScalar(as<Splat>(e)->a, pos);
  case ExprKind::Unary:
    return demand(as<Unary>(e)->a, want, pos, tag);
  case ExprKind::Cast:
    return demand(as<Cast>(e)->a, want, pos, tag);
  case ExprKind::Hint:
    return demand(as<Hint>(e)->a, want, pos, tag);
  case ExprKind::Broadcast:
    return demand(as<Broadcast>(e)->a, want, pos, tag);
  case ExprKind::Trans:
    return demand(
        as<Trans>(e)->a,
        Layout::permuted(transWant(want, e->type), inversePermutation(as<Trans>(e)->perm)), pos,
        tag);
  case ExprKind::ConvertLayout:
    return demand(as<ConvertLayout>(e)->a, want, pos, tag);
  case ExprKind::ExpandDims:
    return demand(as<ExpandDims>(e)->a, Layout::slice(want, as<ExpandDims>(e)->axis), pos, tag);
  case ExprKind::Binary:
    demand(as<Binary>(e)->a, want, pos, tag);
    return demand(as<Binary>(e)->b, want, pos, tag);
  case ExprKind::Select:
    demand(as<Select>(e)->cond, want, pos, tag);
    demand(as<Select>(e)->a, want, pos, tag);
    return demand(as<Select>(e)->b, want, pos, tag);
  case ExprKind::Math:
    for (auto &a : as<Math>(e)->args)
      demand(a, want, pos, tag);
    return;
  case ExprKind::Load: {
    auto *l = as<Load>(e);
    LayoutRef a = anchorFor(l->ptr);
    demand(l->ptr, a, pos, "load");
    demand(l->mask, a, pos, "load");
    demand(l->other, a, pos, "load");
    return;
  }
  case ExprKind::Reduce: {
    auto *r = as<Reduce>(e);
    LayoutRef p = reduceParent(r, want);
    return demand(r->a, p, pos, natural(r->a) ? tag : "blocked");
  }
  case ExprKind::Histogram: {
    auto *h = as<Histogram>(e);
    LayoutRef l = histogramInputLayout(h);
    demand(h->a, l, pos, "histogram");
    return demand(h->mask, l, pos, "histogram");
  }
  case ExprKind::Sort: { // staged from its own layout, as a reshape's operand
    auto *so = as<Sort>(e);
    LayoutRef l = natural(so->a);
    return demand(so->a, l ? l : defaultLayout(so->a->type), pos, "sort");
  }
  case ExprKind::Reshape: {
    auto *r = as<Reshape>(e);
    LayoutRef l = reshapeSourceLayout(r);
    demand(r->a, l, pos, name(r->how));
    return demand(r->b, l, pos, name(r->how));
  }
  case ExprKind::Gather: {
    auto *g = as<Gather>(e);
    demand(g->index, want, pos, tag);
    return demand(g->src, gatherSourceLayout(g), pos, "gather");
  }
  case ExprKind::Scan: {
    auto *sc = as<Scan>(e);
    LayoutRef l = scanLayout(sc, want);
    return demand(sc->a, l, pos, *l == *want ? tag : "blocked");
  }
  case ExprKind::Dot: {
    auto *d = as<Dot>(e);
    demand(d->a, dotOperandLayout(d->a), pos, "dot");
    demand(d->b, dotOperandLayout(d->b), pos, "dot");
    return demand(d->acc, dotLayout(d), pos, "dot");
  }
  default:
    internalError(std::string("unexpected ") + name(e->kind) + " before layout assignment");
  }
}

void Assigner::demandScalar(const Expr &e, int pos) {
  if (!e)
    return;
  switch (e->kind) {
  case ExprKind::Reduce: {
    auto *r = as<Reduce>(e);
    LayoutRef p = reduceParent(r, nullptr);
    return demand(r->a, p, pos, natural(r->a) ? "" : "blocked");
  }
  case ExprKind::Load:
    demandScalar(as<Load>(e)->ptr, pos);
    demandScalar(as<Load>(e)->mask, pos);
    return demandScalar(as<Load>(e)->other, pos);
  case ExprKind::Unary:
    return demandScalar(as<Unary>(e)->a, pos);
  case ExprKind::Cast:
    return demandScalar(as<Cast>(e)->a, pos);
  case ExprKind::Hint:
    return demandScalar(as<Hint>(e)->a, pos);
  case ExprKind::Binary:
    demandScalar(as<Binary>(e)->a, pos);
    return demandScalar(as<Binary>(e)->b, pos);
  case ExprKind::Select:
    demandScalar(as<Select>(e)->cond, pos);
    demandScalar(as<Select>(e)->a, pos);
    return demandScalar(as<Select>(e)->b, pos);
  case ExprKind::Math:
    for (auto &a : as<Math>(e)->args)
      demandScalar(a, pos);
    return;
  default:
    return;
  }
}

void Assigner::walkBack(const Stmt &s) {
  if (!s)
    return;
  int pos = posOf[s.get()];
  switch (s->kind) {
  case StmtKind::Block: {
    auto &v = as<Block>(s)->stmts;
    for (auto it = v.rbegin(); it != v.rend(); ++it)
      walkBack(*it);
    return;
  }
  case StmtKind::Decl:
  case StmtKind::Assign: {
    bool isDecl = s->kind == StmtKind::Decl;
    const Var &v = isDecl ? as<Decl>(s)->var : as<Assign>(s)->var;
    const Expr &init = isDecl ? as<Decl>(s)->init : as<Assign>(s)->value;
    if (!init)
      return;
    auto &st = state(v);
    if (!st.tile)
      return demandScalar(init, pos);
    if (st.flexible) {
      if (st.demands.empty())
        addDemand(st, defaultLayout(v->type), pos, "blocked");
      for (auto &d : sortedDemands(st))
        demand(init, d.layout, pos, d.tag);
      return;
    }
    if (!st.layout && isDecl) {
      LayoutRef cand = st.demands.empty() ? defaultLayout(v->type)
                                          : sortedDemands(st).front().layout;
      st.layout = rootLayout(init, cand);
    }
    if (st.layout)
      demand(init, st.layout, pos, st.tag);
    return;
  }
  case StmtKind::Store: {
    auto *st = as<Store>(s);
    if (!st->ptr->type.isTile()) {
      demandScalar(st->ptr, pos);
      demandScalar(st->value, pos);
      return demandScalar(st->mask, pos);
    }
    LayoutRef a = st->atomic != AtomicOp::None ? atomicAnchor(st) : anchorFor(st->ptr);
    demand(st->ptr, a, pos, "store");
    demand(st->value, a, pos, "store");
    demand(st->cmp, a, pos, "store");
    // An atomic's old values come in the store's layout: its variable takes that layout (its
    // readers convert), decided here before the declaration (without a value) is reached.
    if (st->result) {
      auto &rs = state(st->result);
      if (!rs.layout)
        rs.layout = a;
    }
    return demand(st->mask, a, pos, "store");
  }
  case StmtKind::For: {
    auto *f = as<For>(s);
    walkBack(f->body);
    demandScalar(f->begin, pos);
    demandScalar(f->end, pos);
    return demandScalar(f->step, pos);
  }
  case StmtKind::While:
    walkBack(as<While>(s)->body);
    return demandScalar(as<While>(s)->cond, pos);
  case StmtKind::Assert: // a tile condition takes the layout its values have (Rewrite)
    if (as<Assert>(s)->cond->type.isScalar())
      demandScalar(as<Assert>(s)->cond, pos);
    return;
  case StmtKind::Print: // a tile is printed in the layout its values have (Rewrite)
    if (as<Print>(s)->value && as<Print>(s)->value->type.isScalar())
      demandScalar(as<Print>(s)->value, pos);
    return;
  case StmtKind::If:
    walkBack(as<If>(s)->elseS);
    walkBack(as<If>(s)->thenS);
    return demandScalar(as<If>(s)->cond, pos);
  default:
    return;
  }
}

/// Fixes every tile variable's layout, creates the copies of flexible variables.
void Assigner::finalize() {
  for (auto &v : order) {
    auto &st = vars[v.get()];
    if (!st.tile)
      continue;
    if (st.flexible) {
      auto ds = sortedDemands(st);
      st.layout = ds.empty() ? defaultLayout(v->type) : ds.front().layout;
      std::map<std::string, int> used;
      for (size_t i = 1; i < ds.size(); ++i) {
        std::string nm = v->name + "_" + (ds[i].tag.empty() ? "copy" : ds[i].tag);
        if (used[nm]++)
          nm += "_" + std::to_string(used[nm]);
        Var c = k.newVar(nm, v->type.withLayout(ds[i].layout), VarKind::Local, v->loc);
        st.copies.push_back({ds[i].layout, c});
      }
    } else if (!st.layout) {
      st.layout = st.demands.empty() ? defaultLayout(v->type) : sortedDemands(st).front().layout;
    }
    v->type.layout = st.layout;
  }
}

} // namespace tilec::passes::layout
