// materialize: bind every load (tile or scalar), reduction, scan, gather, reshape and dot to its
// own variable.
//
// Before: simplify (optional). After: a `Load`, `Reduce`, `Scan`, `Gather`, `Reshape` or `Dot`
// occurs only as the whole `init` of a `Decl` or the whole `value` of an `Assign`; every other
// occurrence is replaced by a reference to a new local declared right before the statement that
// used it, in evaluation order (operands first). New variables are named from the user's names:
// `<pointer>_load` for a load through pointer variable `<pointer>` (e.g. `in_load`),
// `<op>_<operand>` for a reduction (`max_x`, `reduce_x` with a combine function),
// `cum<op>_<operand>` for a scan (`cumsum_x`, `scan_x`; ir::resultStem), `gather_<src>` for a
// gather (and tl::flip), `sorted_<a>` / `topk_<a>` for tl::sort / tl::topk, `<how>_<a>` for a
// reshape (`reshape_x`, `cat_x`, `interleave_x`: ir::name of ReshapeKind), `dot_<a>_<b>` for a dot
// of tiles a and b (`acc += tl::dot(a, b)`). Conditions: loads/reductions in an `if` condition or a
// `for` begin are bound before the statement; in a `while` condition they are bound before the loop
// and re-evaluated (assigned again) at the end of the body, so every test of the condition sees
// fresh values. A load or reduction in a `for` end or step is reported (LoadInLoopBound).
//
//   store(add(splat(%out), %offs), load(add(splat(%x), %offs)))      // before
//   decl %x_load: tile<1024xf32> = load(add(splat(%x), %offs))       // after
//   store(add(splat(%out), %offs), %x_load)
//
//   decl %shifted = sub(%x, splat(reduce.max(%x)))                    // before
//   decl %max_x: f32 = reduce.max(%x)                                 // after
//   decl %shifted = sub(%x, splat(%max_x))
#include "ir/IRVisitor.h"
#include "passes/Passes.h"

#include <map>

namespace tilec::passes {

using namespace ir;

namespace {

/// The user-facing name a pointer expression is built from: `in + row * stride + cols` -> "in".
std::string pointerName(const Expr &e) {
  if (!e)
    return "ptr";
  switch (e->kind) {
  case ExprKind::VarRef:
    return as<VarRef>(e)->var->name;
  case ExprKind::Binary: {
    auto *b = as<Binary>(e);
    return pointerName(b->a->type.pointer || !b->b->type.pointer ? b->a : b->b);
  }
  case ExprKind::Splat:
    return pointerName(as<Splat>(e)->a);
  case ExprKind::Broadcast:
    return pointerName(as<Broadcast>(e)->a);
  case ExprKind::ExpandDims:
    return pointerName(as<ExpandDims>(e)->a);
  case ExprKind::Trans:
    return pointerName(as<Trans>(e)->a);
  case ExprKind::Hint:
    return pointerName(as<Hint>(e)->a);
  default:
    return "ptr";
  }
}

/// A short name for the operand of a reduction: its variable, or the first variable it reads.
std::string operandName(const Expr &e) {
  if (auto *v = as<VarRef>(e))
    return v->var->name;
  std::string found;
  struct Finder : IRVisitor {
    std::string &found;
    explicit Finder(std::string &f) : found(f) {}
    using IRVisitor::visit;
    void visit(const VarRef *v) override {
      if (found.empty() && v->type.isTile())
        found = v->var->name;
    }
  } f(found);
  f.visit(e);
  return found.empty() ? "tile" : found;
}

bool containsLoadOrReduce(const Expr &e) {
  bool found = false;
  struct Finder : IRVisitor {
    bool &found;
    explicit Finder(bool &f) : found(f) {}
    using IRVisitor::visit;
    void visit(const Load *) override { found = true; }
    void visit(const Reduce *) override { found = true; }
    void visit(const Scan *) override { found = true; }
    void visit(const Gather *) override { found = true; }
    void visit(const Reshape *) override { found = true; }
    void visit(const Sort *) override { found = true; }
    void visit(const Histogram *) override { found = true; }
  } f(found);
  f.visit(e);
  return found;
}

/// Replaces non-root loads/reductions of one expression by fresh variables; collects their Decls.
class Extractor : public IRMutator {
public:
  Extractor(Kernel &k, std::vector<Stmt> &decls) : k(k), decls(decls) {}
  /// Rewrite `e`; when `keepRoot`, a Load/Reduce at the root of `e` stays (only its operands are
  /// bound).
  Expr run(const Expr &e, bool keepRoot) {
    root = keepRoot ? e.get() : nullptr;
    bound.clear();
    return mutate(e);
  }

protected:
  using IRMutator::mutate;
  Expr mutate(const Load *n, const Expr &self) override {
    return bindUnlessRoot(n, self, [&](const Expr &) { return pointerName(n->ptr) + "_load"; });
  }
  Expr mutate(const Reduce *n, const Expr &self) override {
    return bindUnlessRoot(n, self, [&](const Expr &e) {
      return resultStem(n->op) + "_" + operandName(as<Reduce>(e)->a);
    });
  }
  Expr mutate(const Histogram *n, const Expr &self) override {
    return bindUnlessRoot(
        n, self, [&](const Expr &e) { return "histogram_" + operandName(as<Histogram>(e)->a); });
  }
  Expr mutate(const Gather *n, const Expr &self) override {
    return bindUnlessRoot(
        n, self, [&](const Expr &e) { return "gather_" + operandName(as<Gather>(e)->src); });
  }
  Expr mutate(const Sort *n, const Expr &self) override {
    return bindUnlessRoot(n, self, [&](const Expr &e) {
      auto *so = as<Sort>(e);
      const bool all = so->type.shape.back() == so->a->type.shape.back();
      return std::string(all ? "sorted_" : "topk_") + operandName(so->a);
    });
  }
  Expr mutate(const Reshape *n, const Expr &self) override {
    return bindUnlessRoot(n, self, [&](const Expr &e) {
      return std::string(name(n->how)) + "_" + operandName(as<Reshape>(e)->a);
    });
  }
  Expr mutate(const Scan *n, const Expr &self) override {
    return bindUnlessRoot(n, self, [&](const Expr &e) {
      return resultStem(n->op) + "_" + operandName(as<Scan>(e)->a);
    });
  }
  Expr mutate(const Dot *n, const Expr &self) override {
    return bindUnlessRoot(n, self, [](const Expr &e) {
      return "dot_" + operandName(as<Dot>(e)->a) + "_" + operandName(as<Dot>(e)->b);
    });
  }

private:
  /// `n` with its operands rewritten; bound to a new variable named `nameOf(rewritten)` unless it
  /// is the root the caller keeps (a node seen before in this expression is the same variable).
  template <class N, class NameOf> Expr bindUnlessRoot(const N *n, const Expr &self, NameOf nameOf) {
    const bool isRoot = n == root;
    if (auto it = bound.find(n); !isRoot && it != bound.end())
      return it->second;
    Expr e = IRMutator::mutate(n, self);
    if (isRoot)
      return e;
    return bound[n] = bind(e, nameOf(e));
  }
  Expr bind(const Expr &e, const std::string &nm) {
    Var v = k.newVar(nm, e->type, VarKind::Local, e->loc);
    decls.push_back(Decl::make(v, e, e->loc));
    return VarRef::make(v, e->loc);
  }
  Kernel &k;
  std::vector<Stmt> &decls;
  const ExprNode *root = nullptr;
  /// A node that occurs more than once in the expression (one shared subtree, as the translator
  /// builds tl::argmax of a 2-D tile) is one value: it is bound once.
  std::map<const ExprNode *, Expr> bound;
};

class Materializer {
public:
  Materializer(Kernel &k, PassContext &ctx) : k(k), ctx(ctx) {}

  /// Rewrites `s`; declarations it needs before it go to `pre`.
  Stmt stmt(const Stmt &s, std::vector<Stmt> &pre) {
    if (!s)
      return s;
    Extractor ex(k, pre);
    switch (s->kind) {
    case StmtKind::Block: {
      auto *b = as<Block>(s);
      std::vector<Stmt> out;
      bool changed = false;
      for (auto &c : b->stmts) {
        size_t before = out.size();
        Stmt c2 = stmt(c, out);
        changed |= c2 != c || out.size() != before;
        out.push_back(c2);
      }
      return changed ? Block::make(std::move(out), s->loc) : s;
    }
    case StmtKind::Decl: {
      auto *d = as<Decl>(s);
      if (!d->init)
        return s;
      Expr init = ex.run(d->init, true);
      return init == d->init ? s : Decl::make(d->var, init, s->loc);
    }
    case StmtKind::Assign: {
      auto *a = as<Assign>(s);
      Expr v = ex.run(a->value, true);
      return v == a->value ? s : Assign::make(a->var, v, s->loc);
    }
    case StmtKind::Store: {
      auto *st = as<Store>(s);
      Expr p = ex.run(st->ptr, false), v = ex.run(st->value, false), m = ex.run(st->mask, false),
           q = ex.run(st->cmp, false);
      if (p == st->ptr && v == st->value && m == st->mask && q == st->cmp)
        return s;
      auto c = std::make_shared<Store>(*st);
      c->ptr = p;
      c->value = v;
      c->mask = m;
      c->cmp = q;
      return c;
    }
    case StmtKind::For: {
      auto *f = as<For>(s);
      Expr begin = ex.run(f->begin, false);
      if (containsLoadOrReduce(f->end))
        ctx.diags.report(DiagId::LoadInLoopBound, f->end->loc.valid() ? f->end->loc : s->loc,
                         {"bound"});
      if (containsLoadOrReduce(f->step))
        ctx.diags.report(DiagId::LoadInLoopBound, f->step->loc.valid() ? f->step->loc : s->loc,
                         {"step"});
      Stmt body = block(f->body);
      if (begin == f->begin && body == f->body)
        return s;
      auto c = std::make_shared<For>(*f);
      c->begin = begin;
      c->body = body;
      return c;
    }
    case StmtKind::While: {
      auto *w = as<While>(s);
      std::vector<Stmt> condDecls;
      Extractor cex(k, condDecls);
      Expr cond = cex.run(w->cond, false);
      Stmt body = block(w->body);
      if (condDecls.empty())
        return body == w->body ? s : While::make(w->cond, body, s->loc);
      // Bind before the loop; assign the same values again at the end of every iteration.
      std::vector<Stmt> bodyStmts;
      if (auto *b = as<Block>(body))
        bodyStmts = b->stmts;
      else
        bodyStmts.push_back(body);
      for (auto &d : condDecls) {
        auto *decl = as<Decl>(d);
        pre.push_back(d);
        bodyStmts.push_back(Assign::make(decl->var, decl->init, decl->loc));
      }
      return While::make(cond, Block::make(std::move(bodyStmts), body->loc), s->loc);
    }
    case StmtKind::If: {
      auto *i = as<If>(s);
      Expr cond = ex.run(i->cond, false);
      Stmt t = block(i->thenS), e = block(i->elseS);
      if (cond == i->cond && t == i->thenS && e == i->elseS)
        return s;
      auto c = std::make_shared<If>(*i);
      c->cond = cond;
      c->thenS = t;
      c->elseS = e;
      return c;
    }
    case StmtKind::Assert: {
      auto *a = as<Assert>(s);
      Expr cond = ex.run(a->cond, false);
      if (cond == a->cond)
        return s;
      auto c = std::make_shared<Assert>(*a);
      c->cond = cond;
      return c;
    }
    case StmtKind::Print: {
      auto *p = as<Print>(s);
      if (!p->value)
        return s;
      Expr v = ex.run(p->value, false);
      if (v == p->value)
        return s;
      auto c = std::make_shared<Print>(*p);
      c->value = v;
      return c;
    }
    default: // Barrier, SharedWrite: not present before lowering
      return s;
    }
  }

  /// A nested body: declarations stay inside it.
  Stmt block(const Stmt &s) {
    if (!s)
      return s;
    std::vector<Stmt> pre;
    Stmt r = stmt(s, pre);
    if (pre.empty())
      return r;
    pre.push_back(r);
    return Block::make(std::move(pre), s->loc);
  }

private:
  Kernel &k;
  PassContext &ctx;
};

class MaterializePass : public Pass {
public:
  const char *name() const override { return "materialize"; }
  void run(Module &m, PassContext &ctx) override {
    for (auto &k : m.kernels) {
      Materializer mat(k, ctx);
      k.body = mat.block(k.body);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createMaterializePass() { return std::make_unique<MaterializePass>(); }

} // namespace tilec::passes
