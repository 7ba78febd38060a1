// layout-assignment, rewriting: rebuilds the kernel body with the decided layouts on every tile
// expression; a use of a variable in another layout reads the matching copy or gets a
// ConvertLayout; a root Load/Reduce in another layout than its variable is bound to
// `<var>_<load|op>` and converted; copies are declared right after the original; Load/Store get
// vec and aligned. See LayoutAssignment.cpp.
#include "ir/IRVisitor.h"
#include "passes/layout/Assigner.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tilec::passes::layout {

using namespace ir;

namespace {

template <class T> std::shared_ptr<T> copyWith(const T *n, const LayoutRef &l) {
  auto c = std::make_shared<T>(*n);
  c->type.layout = l;
  return c;
}

} // namespace

Expr Assigner::emitLoad(const Load *n, LayoutRef &resultLayout) {
  LayoutRef a = anchorFor(n->ptr);
  auto c = copyWith(n, a);
  c->ptr = emit(n->ptr, a);
  c->mask = emit(n->mask, a);
  c->other = emit(n->other, a);
  setVec(c->vec, c->aligned, c->maskAtLast, c->maskAllOrNone, n->ptr, n->mask, a);
  resultLayout = a;
  return c;
}

Expr Assigner::emitReduce(const Reduce *n, const LayoutRef &want, LayoutRef &resultLayout) {
  LayoutRef p = reduceParent(n, want);
  auto c = std::make_shared<Reduce>(*n);
  c->a = emit(n->a, p);
  if (c->type.isTile())
    c->type.layout = Layout::slice(p, n->axis);
  resultLayout = c->type.layout;
  return c;
}

Expr Assigner::emitDot(const Dot *n, LayoutRef &resultLayout) {
  resultLayout = dotLayout(n);
  auto c = copyWith(n, resultLayout);
  c->a = emit(n->a, dotOperandLayout(n->a));
  c->b = emit(n->b, dotOperandLayout(n->b));
  c->acc = emit(n->acc, resultLayout);
  return c;
}

Expr Assigner::emit(const Expr &e, const LayoutRef &want) {
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
    // A narrowing cast of variables held in another layout (`store(p, cast<half>(acc))`, a store
    // into an int8 pointer of `rint(y)`): compute and cast where the variables are, then convert
    // the narrower values (a quarter of the shared memory for fp32 to int8), as a variable holding
    // the cast would be.
    auto *cast = as<Cast>(e);
    int bytes = 0;
    if (LayoutRef held = commonVarLayout(cast->a, want, bytes);
        held && byteSize(cast->type.elem) < bytes) {
      auto c = copyWith(cast, held);
      c->a = emit(cast->a, held);
      return ConvertLayout::make(c, want, e->loc);
    }
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
  case ExprKind::Trans: {
    // A view of a blocked operand: built in `want` when it is blocked, else (an mma accumulator's
    // layout) in the default blocked layout and converted.
    LayoutRef l = transWant(want, e->type);
    auto c = copyWith(as<Trans>(e), l);
    c->a = emit(c->a, Layout::permuted(l, inversePermutation(c->perm)));
    return *l == *want ? Expr(c) : ConvertLayout::make(c, want, e->loc);
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
  case ExprKind::Histogram: {
    auto c = copyWith(as<Histogram>(e), want);
    LayoutRef l = histogramInputLayout(as<Histogram>(e));
    c->a = emit(c->a, l);
    c->mask = emit(c->mask, l);
    return c;
  }
  case ExprKind::Sort: {
    auto c = copyWith(as<Sort>(e), want);
    LayoutRef l = natural(c->a);
    c->a = emit(c->a, l ? l : defaultLayout(c->a->type));
    return c;
  }
  case ExprKind::Reshape: {
    auto c = copyWith(as<Reshape>(e), want);
    LayoutRef l = reshapeSourceLayout(as<Reshape>(e));
    c->a = emit(c->a, l);
    c->b = emit(c->b, l);
    return c;
  }
  case ExprKind::Gather: {
    auto c = copyWith(as<Gather>(e), want);
    c->index = emit(c->index, want);
    c->src = emit(c->src, gatherSourceLayout(as<Gather>(e)));
    return c;
  }
  case ExprKind::Scan: {
    LayoutRef l = scanLayout(as<Scan>(e), want);
    auto c = copyWith(as<Scan>(e), l);
    c->a = emit(c->a, l);
    return *l == *want ? Expr(c) : ConvertLayout::make(c, want, e->loc);
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
  case ExprKind::Dot: {
    LayoutRef got;
    Expr r = emitDot(as<Dot>(e), got);
    return *got == *want ? r : ConvertLayout::make(r, want, e->loc);
  }
  default:
    internalError(std::string("unexpected ") + name(e->kind) + " before layout assignment");
  }
}

LayoutRef Assigner::commonVarLayout(const Expr &e, const LayoutRef &want, int &bytes) {
  LayoutRef held;
  bool ok = true;
  bytes = 0;
  std::set<const VarNode *> seen;
  std::function<void(const Expr &)> walk = [&](const Expr &x) {
    if (!ok || !x || x->type.isScalar())
      return; // (scalars: in any layout)
    switch (x->kind) {
    case ExprKind::VarRef: {
      VarState &st = state(as<VarRef>(x)->var);
      for (auto &[l, c] : st.copies)
        ok = ok && *l != *want;
      ok = ok && st.layout && *st.layout != *want && (!held || *held == *st.layout);
      held = st.layout;
      if (seen.insert(as<VarRef>(x)->var.get()).second)
        bytes += byteSize(x->type.elem);
      return;
    }
    case ExprKind::Splat:
      return;
    case ExprKind::Unary:
      return walk(as<Unary>(x)->a);
    case ExprKind::Cast:
      return walk(as<Cast>(x)->a);
    case ExprKind::Binary:
      walk(as<Binary>(x)->a);
      return walk(as<Binary>(x)->b);
    case ExprKind::Select:
      walk(as<Select>(x)->cond);
      walk(as<Select>(x)->a);
      return walk(as<Select>(x)->b);
    case ExprKind::Math: // (inline assembly runs where it is written: each owner once)
      ok = ok && as<Math>(x)->op != MathOp::InlineAsm;
      for (const Expr &a : as<Math>(x)->args)
        walk(a);
      return;
    default:
      ok = false;
      return;
    }
  };
  walk(e);
  return ok ? held : nullptr;
}

/// Scalar expressions: only reductions (of tiles) and loads change.
Expr Assigner::emitScalar(const Expr &e) {
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

/// The value of a Decl/Assign of tile variable `v`; a root Load/Reduce/Dot in another layout than
/// `v`'s is bound to a new variable first and converted.
Expr Assigner::emitRoot(const Var &v, const Expr &init, std::vector<Stmt> &pre) {
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
  } else if (auto *d = as<Dot>(init)) {
    r = emitDot(d, got);
    suffix = "dot";
  } else {
    return emit(init, want);
  }
  if (*got == *want)
    return r;
  Var tmp = k.newVar(v->name + "_" + suffix, r->type, VarKind::Local, init->loc);
  pre.push_back(Decl::make(tmp, r, init->loc));
  return ConvertLayout::make(VarRef::make(tmp, init->loc), want, init->loc);
}

void Assigner::rewriteInto(const Stmt &s, std::vector<Stmt> &out) {
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

Stmt Assigner::rewrite(const Stmt &s) {
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
      c->cmp = emitScalar(st->cmp);
      c->vec = 1;
      c->aligned = false;
      c->maskAtLast = false;
      c->maskAllOrNone = false;
      return c;
    }
    LayoutRef a = st->atomic != AtomicOp::None ? atomicAnchor(st) : anchorFor(st->ptr);
    c->ptr = emit(st->ptr, a);
    c->value = emit(st->value, a);
    c->mask = emit(st->mask, a);
    c->cmp = emit(st->cmp, a);
    // An atomic add of float or 16-bit float elements whose old values are not kept updates a
    // vector at once where the pointers are contiguous (the runtime's atomic_add_vec: one vector
    // atom on sm_90, as Triton's atom.add.v4.f32).
    const ScalarType e = st->value->type.elem;
    const bool vectorAtomic =
        st->atomic == AtomicOp::Add && !st->result &&
        (e == ScalarType::F32 || e == ScalarType::F16 || e == ScalarType::BF16);
    if (st->atomic == AtomicOp::None || vectorAtomic)
      setVec(c->vec, c->aligned, c->maskAtLast, c->maskAllOrNone, st->ptr, st->mask, a);
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
    auto c = std::make_shared<If>(*as<If>(s));
    c->cond = emitScalar(c->cond);
    c->thenS = rewrite(c->thenS);
    c->elseS = rewrite(c->elseS);
    return c;
  }
  case StmtKind::Assert: { // tested in the layout its condition has (no demand of its own)
    auto c = std::make_shared<Assert>(*as<Assert>(s));
    if (c->cond->type.isScalar()) {
      c->cond = emitScalar(c->cond);
      return c;
    }
    LayoutRef l = natural(c->cond);
    c->cond = emit(c->cond, l ? l : defaultLayout(c->cond->type));
    return c;
  }
  case StmtKind::Print: { // printed in the layout its value has (no demand of its own)
    auto c = std::make_shared<Print>(*as<Print>(s));
    if (!c->value)
      return c;
    if (c->value->type.isScalar()) {
      c->value = emitScalar(c->value);
      return c;
    }
    LayoutRef l = natural(c->value);
    c->value = emit(c->value, l ? l : defaultLayout(c->value->type));
    return c;
  }
  default:
    return s;
  }
}

} // namespace tilec::passes::layout
