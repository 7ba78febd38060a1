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
#include "ir/IRVisitor.h"
#include "passes/Passes.h"
#include "passes/analysis/AxisInfo.h"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

namespace tilec::passes {

using namespace ir;

namespace {

constexpr int64_t kMaxElemsPerThread = 256;
constexpr int kVectorBytes = 16;

[[noreturn]] void internalError(const std::string &what) {
  throw std::logic_error("internal error: layout-assignment: " + what);
}

int64_t pow2Floor(int64_t v) {
  int64_t p = 1;
  while (p * 2 <= v)
    p *= 2;
  return p;
}

int elemBytesOf(const Type &t) { return byteSize(t.elem); }

/// Triton's BlockedEncodingAttr::get: lanes and warps along `order`, fastest dim first; whatever
/// is left goes to the slowest dim.
LayoutRef blockedFill(const std::vector<int64_t> &shape, std::vector<int> spt,
                      const std::vector<int> &order, int warpSize, int numWarps) {
  int rank = static_cast<int>(shape.size());
  std::vector<int> tpw(rank, 1), wpb(rank, 1);
  int64_t remainingLanes = warpSize, remainingThreads = int64_t(numWarps) * warpSize,
          remainingWarps = numWarps, prevLanes = 1, prevWarps = 1;
  for (int d = 0; d < rank - 1; ++d) {
    int i = order[d];
    int64_t threadsPerCTA = std::clamp<int64_t>(remainingThreads, 1, shape[i] / spt[i]);
    tpw[i] = static_cast<int>(std::clamp<int64_t>(threadsPerCTA, 1, remainingLanes));
    wpb[i] = static_cast<int>(std::clamp<int64_t>(threadsPerCTA / tpw[i], 1, remainingWarps));
    remainingWarps /= wpb[i];
    remainingLanes /= tpw[i];
    remainingThreads /= threadsPerCTA;
    prevLanes *= tpw[i];
    prevWarps *= wpb[i];
  }
  tpw[order[rank - 1]] = static_cast<int>(warpSize / prevLanes);
  wpb[order[rank - 1]] = static_cast<int>(numWarps / prevWarps);
  return Layout::blocked(std::move(spt), std::move(tpw), std::move(wpb), order);
}

struct Demand {
  LayoutRef layout;
  int pos;
  std::string tag;
  int seq; ///< when `pos` was last lowered: ties go to the demand recorded first at that position
};

struct VarState {
  bool tile = false;
  bool flexible = false; ///< cheap, assigned once: re-materialized per demanded layout
  int assignments = 0;
  LayoutRef layout;            ///< the variable's layout once decided
  std::string tag;             ///< how this variable's layout is called in copy names
  std::vector<Demand> demands; ///< layouts its users want (flexible/undecided vars)
  std::vector<std::pair<LayoutRef, Var>> copies; ///< flexible: re-materialized copies
};

class Assigner {
public:
  Assigner(Kernel &k, PassContext &ctx)
      : k(k), ctx(ctx), axis(k), warpSize(ctx.target.warpSize()),
        numWarps(k.settings.numWarps), threads(int64_t(numWarps) * warpSize) {}

  void run() {
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
    k.body = rewrite(k.body);
    checkRegisters();
  }

private:
  // ---- analysis ----------------------------------------------------------------------------------
  void number(const Stmt &s, int &pos) {
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

  VarState &state(const Var &v) {
    auto it = vars.find(v.get());
    if (it == vars.end()) {
      order.push_back(v);
      it = vars.emplace(v.get(), VarState{}).first;
      it->second.tile = v->type.isTile();
    }
    return it->second;
  }

  bool cheap(const Expr &e) {
    if (!e)
      return true;
    if (e->type.isScalar() && e->kind != ExprKind::Load && e->kind != ExprKind::Reduce)
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
  /// A scalar expression that still holds a load or reduction (not cheap to duplicate).
  static bool containsKind(const Expr &e) {
    bool found = false;
    struct F : IRVisitor {
      bool &f;
      explicit F(bool &f) : f(f) {}
      using IRVisitor::visit;
      void visit(const Load *) override { f = true; }
      void visit(const Reduce *) override { f = true; }
    } v(found);
    v.visit(e);
    return found;
  }

  /// Counts assignments, then marks the flexible variables (program order: definitions first).
  void classify(const Stmt &body) {
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

  LayoutRef defaultLayout(const Type &t) {
    int bytes = t.pointer ? 8 : elemBytesOf(t);
    int64_t v = std::min<int64_t>(kVectorBytes / bytes, std::max<int64_t>(1, t.numElements() / threads));
    int rank = t.rank();
    std::vector<int> order, spt(rank, 1);
    for (int d = rank - 1; d >= 0; --d)
      order.push_back(d);
    spt[order[0]] = static_cast<int>(std::min<int64_t>(pow2Floor(v), t.shape[order[0]]));
    return blockedFill(t.shape, spt, order, warpSize, numWarps);
  }

  /// The coalesced layout for a tile access through pointer tile `ptr` (Triton's coalesce).
  LayoutRef anchorFor(const Expr &ptr) {
    auto it = anchors.find(ptr.get());
    if (it != anchors.end())
      return it->second;
    const AxisInfo &ai = axis.get(ptr);
    const auto &shape = ptr->type.shape;
    int rank = ptr->type.rank();
    std::vector<int> order;
    for (int d = rank - 1; d >= 0; --d)
      order.push_back(d);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return ai.contiguity[a] > ai.contiguity[b]; });
    int64_t contig = std::min<int64_t>(ai.contiguity[order[0]], shape[order[0]]);
    int64_t perThread = std::max<int64_t>(1, ptr->type.numElements() / threads);
    int64_t v = std::min({contig, int64_t(kVectorBytes / elemBytesOf(ptr->type)), perThread});
    std::vector<int> spt(rank, 1);
    spt[order[0]] = static_cast<int>(pow2Floor(std::max<int64_t>(1, v)));
    LayoutRef l = blockedFill(shape, spt, order, warpSize, numWarps);
    anchorKeep.push_back(ptr);
    anchors[ptr.get()] = l;
    return l;
  }

  /// The layout an expression has by itself (from loads, reductions and strong variables); null
  /// when it can take any layout.
  LayoutRef natural(const Expr &e) {
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
  LayoutRef reduceParent(const Reduce *r, const LayoutRef &want) {
    if (want && want->kind == Layout::Kind::Slice && want->sliceDim == r->axis &&
        want->parent->rank() == r->a->type.rank())
      return want->parent;
    if (LayoutRef p = natural(r->a))
      return p;
    return defaultLayout(r->a->type);
  }

  /// The layout of a Decl/Assign root: loads keep their anchor, reductions a slice.
  LayoutRef rootLayout(const Expr &init, const LayoutRef &cand) {
    if (auto *l = as<Load>(init))
      return anchorFor(l->ptr);
    if (auto *r = as<Reduce>(init))
      return Layout::slice(reduceParent(r, cand), r->axis);
    return cand;
  }

  void decideStrong(const Stmt &s, bool &changed) {
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

  size_t signature() {
    size_t n = 0;
    for (auto &[v, st] : vars) {
      n = n * 31 + st.demands.size() * 7 + (st.layout ? 1 : 0);
      for (auto &d : st.demands)
        n = n * 17 + static_cast<size_t>(d.pos);
    }
    return n;
  }

  void addDemand(VarState &st, const LayoutRef &l, int pos, const std::string &tag) {
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
  std::vector<Demand> sortedDemands(const VarState &st) {
    std::vector<Demand> d = st.demands;
    std::stable_sort(d.begin(), d.end(), [](const Demand &a, const Demand &b) {
      return a.pos != b.pos ? a.pos < b.pos : a.seq < b.seq;
    });
    return d;
  }

  void demand(const Expr &e, const LayoutRef &want, int pos, const std::string &tag) {
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
    default:
      internalError(std::string("unexpected ") + name(e->kind) + " before layout assignment");
    }
  }

  void demandScalar(const Expr &e, int pos) {
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

  void walkBack(const Stmt &s) {
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
      LayoutRef a = anchorFor(st->ptr);
      demand(st->ptr, a, pos, "store");
      demand(st->value, a, pos, "store");
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
    case StmtKind::If:
      walkBack(as<If>(s)->elseS);
      walkBack(as<If>(s)->thenS);
      return demandScalar(as<If>(s)->cond, pos);
    default:
      return;
    }
  }

  /// Fixes every tile variable's layout, creates the copies of flexible variables.
  void finalize() {
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

  // ---- rewriting ---------------------------------------------------------------------------------
  template <class T> static std::shared_ptr<T> copyWith(const T *n, const LayoutRef &l) {
    auto c = std::make_shared<T>(*n);
    c->type.layout = l;
    return c;
  }

  void setVec(int &vec, bool &aligned, const Expr &ptr, const LayoutRef &l) {
    const AxisInfo &ai = axis.get(ptr);
    int o0 = l->order[0];
    int64_t spt = l->sizePerThread[o0];
    int64_t v = pow2Floor(std::max<int64_t>(1, std::min(spt, ai.contiguity[o0])));
    while (spt % v)
      v /= 2;
    vec = static_cast<int>(v);
    aligned = ai.divisibility[o0] % (v * elemBytesOf(ptr->type)) == 0;
  }

  Expr emitLoad(const Load *n, LayoutRef &resultLayout) {
    LayoutRef a = anchorFor(n->ptr);
    auto c = copyWith(n, a);
    c->ptr = emit(n->ptr, a);
    c->mask = emit(n->mask, a);
    c->other = emit(n->other, a);
    setVec(c->vec, c->aligned, n->ptr, a);
    resultLayout = a;
    return c;
  }

  Expr emitReduce(const Reduce *n, const LayoutRef &want, LayoutRef &resultLayout) {
    LayoutRef p = reduceParent(n, want);
    auto c = std::make_shared<Reduce>(*n);
    c->a = emit(n->a, p);
    if (c->type.isTile())
      c->type.layout = Layout::slice(p, n->axis);
    resultLayout = c->type.layout;
    return c;
  }

  Expr emit(const Expr &e, const LayoutRef &want) {
    if (!e)
      return e;
    if (e->type.isScalar())
      return emitScalar(e);
    if (!want)
      internalError("tile without a wanted layout");
    switch (e->kind) {
    case ExprKind::VarRef: {
      auto &v = as<VarRef>(e)->var;
      auto &st = state(v);
      if (!st.layout)
        internalError("tile variable '" + v->name + "' used but never declared");
      if (*st.layout == *want)
        return VarRef::make(v, e->loc);
      for (auto &[l, c] : st.copies)
        if (*l == *want)
          return VarRef::make(c, e->loc);
      return ConvertLayout::make(VarRef::make(v, e->loc), want, e->loc);
    }
    case ExprKind::Arange:
      return copyWith(as<Arange>(e), want);
    case ExprKind::Splat: {
      auto c = copyWith(as<Splat>(e), want);
      c->a = emitScalar(c->a);
      return c;
    }
    case ExprKind::Unary: {
      auto c = copyWith(as<Unary>(e), want);
      c->a = emit(c->a, want);
      return c;
    }
    case ExprKind::Cast: {
      auto c = copyWith(as<Cast>(e), want);
      c->a = emit(c->a, want);
      return c;
    }
    case ExprKind::Hint: {
      auto c = copyWith(as<Hint>(e), want);
      c->a = emit(c->a, want);
      return c;
    }
    case ExprKind::Broadcast: {
      auto c = copyWith(as<Broadcast>(e), want);
      c->a = emit(c->a, want);
      return c;
    }
    case ExprKind::ExpandDims: {
      auto c = copyWith(as<ExpandDims>(e), want);
      c->a = emit(c->a, Layout::slice(want, c->axis));
      return c;
    }
    case ExprKind::Binary: {
      auto c = copyWith(as<Binary>(e), want);
      c->a = emit(c->a, want);
      c->b = emit(c->b, want);
      return c;
    }
    case ExprKind::Select: {
      auto c = copyWith(as<Select>(e), want);
      c->cond = emit(c->cond, want);
      c->a = emit(c->a, want);
      c->b = emit(c->b, want);
      return c;
    }
    case ExprKind::Math: {
      auto c = copyWith(as<Math>(e), want);
      for (auto &a : c->args)
        a = emit(a, want);
      return c;
    }
    case ExprKind::ConvertLayout:
      return emit(as<ConvertLayout>(e)->a, want);
    case ExprKind::Load: {
      LayoutRef got;
      Expr l = emitLoad(as<Load>(e), got);
      return *got == *want ? l : ConvertLayout::make(l, want, e->loc);
    }
    case ExprKind::Reduce: {
      LayoutRef got;
      Expr r = emitReduce(as<Reduce>(e), want, got);
      return *got == *want ? r : ConvertLayout::make(r, want, e->loc);
    }
    default:
      internalError(std::string("unexpected ") + name(e->kind) + " before layout assignment");
    }
  }

  /// Scalar expressions: only reductions (of tiles) and loads change.
  Expr emitScalar(const Expr &e) {
    if (!e)
      return e;
    struct M : IRMutator {
      Assigner &self;
      explicit M(Assigner &s) : self(s) {}
      using IRMutator::mutate;
      Expr mutate(const Reduce *n, const Expr &) override {
        LayoutRef got;
        return self.emitReduce(n, nullptr, got);
      }
    } m(*this);
    return m.mutate(e);
  }

  /// The value of a Decl/Assign of tile variable `v`; a root Load/Reduce in another layout than
  /// `v`'s is bound to a new variable first and converted.
  Expr emitRoot(const Var &v, const Expr &init, std::vector<Stmt> &pre) {
    LayoutRef want = v->type.layout;
    LayoutRef got;
    Expr r;
    std::string suffix;
    if (auto *l = as<Load>(init)) {
      r = emitLoad(l, got);
      suffix = "load";
    } else if (auto *red = as<Reduce>(init)) {
      r = emitReduce(red, want, got);
      suffix = name(red->op);
    } else {
      return emit(init, want);
    }
    if (*got == *want)
      return r;
    Var tmp = k.newVar(v->name + "_" + suffix, r->type, VarKind::Local, init->loc);
    pre.push_back(Decl::make(tmp, r, init->loc));
    return ConvertLayout::make(VarRef::make(tmp, init->loc), want, init->loc);
  }

  void rewriteInto(const Stmt &s, std::vector<Stmt> &out) {
    switch (s->kind) {
    case StmtKind::Decl: {
      auto *d = as<Decl>(s);
      if (!d->var->type.isTile()) {
        out.push_back(d->init ? Decl::make(d->var, emitScalar(d->init), s->loc) : s);
        return;
      }
      Expr init = d->init ? emitRoot(d->var, d->init, out) : nullptr;
      out.push_back(Decl::make(d->var, init, s->loc));
      for (auto &[l, c] : state(d->var).copies)
        out.push_back(Decl::make(c, emit(d->init, l), s->loc));
      return;
    }
    case StmtKind::Assign: {
      auto *a = as<Assign>(s);
      Expr v = a->var->type.isTile() ? emitRoot(a->var, a->value, out) : emitScalar(a->value);
      out.push_back(Assign::make(a->var, v, s->loc));
      return;
    }
    default:
      out.push_back(rewrite(s));
    }
  }

  Stmt rewrite(const Stmt &s) {
    if (!s)
      return s;
    switch (s->kind) {
    case StmtKind::Block: {
      std::vector<Stmt> out;
      for (auto &c : as<Block>(s)->stmts)
        rewriteInto(c, out);
      return Block::make(std::move(out), s->loc);
    }
    case StmtKind::Decl:
    case StmtKind::Assign: {
      std::vector<Stmt> out;
      rewriteInto(s, out);
      return out.size() == 1 ? out[0] : Block::make(std::move(out), s->loc);
    }
    case StmtKind::Store: {
      auto *st = as<Store>(s);
      auto c = std::make_shared<Store>(*st);
      if (!st->ptr->type.isTile()) {
        c->ptr = emitScalar(st->ptr);
        c->value = emitScalar(st->value);
        c->mask = emitScalar(st->mask);
        c->vec = 1;
        c->aligned = false;
        return c;
      }
      LayoutRef a = anchorFor(st->ptr);
      c->ptr = emit(st->ptr, a);
      c->value = emit(st->value, a);
      c->mask = emit(st->mask, a);
      setVec(c->vec, c->aligned, st->ptr, a);
      return c;
    }
    case StmtKind::For: {
      auto c = std::make_shared<For>(*as<For>(s));
      c->begin = emitScalar(c->begin);
      c->end = emitScalar(c->end);
      c->step = emitScalar(c->step);
      c->body = rewrite(c->body);
      return c;
    }
    case StmtKind::While: {
      auto *w = as<While>(s);
      return While::make(emitScalar(w->cond), rewrite(w->body), s->loc);
    }
    case StmtKind::If: {
      auto *i = as<If>(s);
      return If::make(emitScalar(i->cond), rewrite(i->thenS), rewrite(i->elseS), s->loc);
    }
    default:
      return s;
    }
  }

  void checkRegisters() {
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

  Kernel &k;
  PassContext &ctx;
  AxisAnalysis axis;
  const int warpSize;
  const int numWarps;
  const int64_t threads;
  std::map<const StmtNode *, int> posOf;
  int nextSeq = 0;
  std::map<const VarNode *, VarState> vars;
  std::vector<Var> order; // insertion order of `vars`, for deterministic output
  std::map<const ExprNode *, LayoutRef> anchors;
  std::vector<Expr> anchorKeep;
};

class LayoutAssignmentPass : public Pass {
public:
  const char *name() const override { return "layout-assignment"; }
  void run(Module &m, PassContext &ctx) override {
    for (auto &k : m.kernels)
      Assigner(k, ctx).run();
  }
};

} // namespace

std::unique_ptr<Pass> createLayoutAssignmentPass() {
  return std::make_unique<LayoutAssignmentPass>();
}

} // namespace tilec::passes
