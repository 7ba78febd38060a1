#include "ir/IRVisitor.h"

namespace tilec::ir {

void IRVisitor::visit(const Expr &e) {
  if (!e)
    return;
  switch (e->kind) {
#define TILEC_EXPR(N)                                                                              \
  case ExprKind::N:                                                                                \
    visit(static_cast<const N *>(e.get()));                                                        \
    return;
#include "ir/Nodes.def"
  }
}

void IRVisitor::visit(const Stmt &s) {
  if (!s)
    return;
  switch (s->kind) {
#define TILEC_STMT(N)                                                                              \
  case StmtKind::N:                                                                                \
    visit(static_cast<const N *>(s.get()));                                                        \
    return;
#include "ir/Nodes.def"
  }
}

void IRVisitor::visit(const IntImm *) {}
void IRVisitor::visit(const FloatImm *) {}
void IRVisitor::visit(const VarRef *) {}
void IRVisitor::visit(const Unary *n) { visit(n->a); }
void IRVisitor::visit(const Binary *n) {
  visit(n->a);
  visit(n->b);
}
void IRVisitor::visit(const Math *n) {
  for (auto &a : n->args)
    visit(a);
}
void IRVisitor::visit(const Select *n) {
  visit(n->cond);
  visit(n->a);
  visit(n->b);
}
void IRVisitor::visit(const Cast *n) { visit(n->a); }
void IRVisitor::visit(const ProgramId *) {}
void IRVisitor::visit(const Arange *) {}
void IRVisitor::visit(const Splat *n) { visit(n->a); }
void IRVisitor::visit(const ExpandDims *n) { visit(n->a); }
void IRVisitor::visit(const Broadcast *n) { visit(n->a); }
void IRVisitor::visit(const Trans *n) { visit(n->a); }
void IRVisitor::visit(const Load *n) {
  visit(n->ptr);
  visit(n->mask);
  visit(n->other);
}
void IRVisitor::visit(const Reduce *n) { visit(n->a); }
void IRVisitor::visit(const Scan *n) { visit(n->a); }
void IRVisitor::visit(const Dot *n) {
  visit(n->a);
  visit(n->b);
  visit(n->acc);
}
void IRVisitor::visit(const Hint *n) { visit(n->a); }
void IRVisitor::visit(const ConvertLayout *n) { visit(n->a); }
void IRVisitor::visit(const ThreadReduce *n) { visit(n->a); }
void IRVisitor::visit(const WarpReduce *n) { visit(n->a); }
void IRVisitor::visit(const SharedRead *n) { visit(n->index); }
void IRVisitor::visit(const Histogram *n) {
  visit(n->a);
  visit(n->mask);
}
void IRVisitor::visit(const Sort *n) { visit(n->a); }
void IRVisitor::visit(const Reshape *n) {
  visit(n->a);
  visit(n->b);
}
void IRVisitor::visit(const Gather *n) {
  visit(n->src);
  visit(n->index);
}
void IRVisitor::visit(const PairValue *n) { visit(n->a); }
void IRVisitor::visit(const SharedDot *n) {
  visit(n->acc);
  visit(n->stage);
}

void IRVisitor::visit(const Block *n) {
  for (auto &s : n->stmts)
    visit(s);
}
void IRVisitor::visit(const Decl *n) { visit(n->init); }
void IRVisitor::visit(const Assign *n) { visit(n->value); }
void IRVisitor::visit(const Store *n) {
  visit(n->ptr);
  visit(n->value);
  visit(n->mask);
  visit(n->cmp);
}
void IRVisitor::visit(const For *n) {
  visit(n->begin);
  visit(n->end);
  visit(n->step);
  visit(n->body);
}
void IRVisitor::visit(const While *n) {
  visit(n->cond);
  visit(n->body);
}
void IRVisitor::visit(const If *n) {
  visit(n->cond);
  visit(n->thenS);
  visit(n->elseS);
}
void IRVisitor::visit(const Barrier *) {}
void IRVisitor::visit(const Assert *n) { visit(n->cond); }
void IRVisitor::visit(const Print *n) { visit(n->value); }
void IRVisitor::visit(const SharedWrite *n) {
  visit(n->stage);
  visit(n->value);
  visit(n->mask);
}
void IRVisitor::visit(const AsyncCopy *n) {
  visit(n->stage);
  visit(n->ptr);
  visit(n->mask);
  visit(n->row);
  visit(n->col);
}
void IRVisitor::visit(const AsyncCommit *) {}
void IRVisitor::visit(const AsyncWait *n) {
  visit(n->pending);
  visit(n->stage);
  visit(n->phase);
}
void IRVisitor::visit(const StageFree *n) {
  visit(n->stage);
  visit(n->phase);
}
void IRVisitor::visit(const WarpSpecialize *n) {
  visit(n->producer);
  visit(n->consumers);
}

// ---- mutator -------------------------------------------------------------------------------------

Expr IRMutator::mutate(const Expr &e) {
  if (!e)
    return e;
  switch (e->kind) {
#define TILEC_EXPR(N)                                                                              \
  case ExprKind::N:                                                                                \
    return mutate(static_cast<const N *>(e.get()), e);
#include "ir/Nodes.def"
  }
  return e;
}

Stmt IRMutator::mutate(const Stmt &s) {
  if (!s)
    return s;
  switch (s->kind) {
#define TILEC_STMT(N)                                                                              \
  case StmtKind::N:                                                                                \
    return mutate(static_cast<const N *>(s.get()), s);
#include "ir/Nodes.def"
  }
  return s;
}

namespace {
// Copy a node, replace some children, keep type/loc/fields.
template <class T> std::shared_ptr<T> copyOf(const T *n) { return std::make_shared<T>(*n); }
} // namespace

Expr IRMutator::mutate(const IntImm *, const Expr &self) { return self; }
Expr IRMutator::mutate(const FloatImm *, const Expr &self) { return self; }
Expr IRMutator::mutate(const VarRef *, const Expr &self) { return self; }
Expr IRMutator::mutate(const ProgramId *, const Expr &self) { return self; }
Expr IRMutator::mutate(const Arange *, const Expr &self) { return self; }
Expr IRMutator::mutate(const SharedRead *n, const Expr &self) {
  Expr index = mutate(n->index);
  if (index == n->index)
    return self;
  auto c = copyOf(n);
  c->index = index;
  return c;
}
Expr IRMutator::mutate(const Histogram *n, const Expr &self) {
  Expr a = mutate(n->a), mask = mutate(n->mask);
  if (a == n->a && mask == n->mask)
    return self;
  auto c = copyOf(n);
  c->a = a;
  c->mask = mask;
  return c;
}
Expr IRMutator::mutate(const Sort *n, const Expr &self) {
  Expr a = mutate(n->a);
  if (a == n->a)
    return self;
  auto c = copyOf(n);
  c->a = a;
  return c;
}
Expr IRMutator::mutate(const Reshape *n, const Expr &self) {
  Expr a = mutate(n->a), b = mutate(n->b);
  if (a == n->a && b == n->b)
    return self;
  auto c = copyOf(n);
  c->a = a;
  c->b = b;
  return c;
}
Expr IRMutator::mutate(const Gather *n, const Expr &self) {
  Expr src = mutate(n->src), index = mutate(n->index);
  if (src == n->src && index == n->index)
    return self;
  auto c = copyOf(n);
  c->src = src;
  c->index = index;
  return c;
}

#define TILEC_MUTATE_CHILD1(N, F)                                                                  \
  Expr IRMutator::mutate(const N *n, const Expr &self) {                                           \
    Expr a = mutate(n->F);                                                                         \
    if (a == n->F)                                                                                 \
      return self;                                                                                 \
    auto c = copyOf(n);                                                                            \
    c->F = a;                                                                                      \
    return c;                                                                                      \
  }
TILEC_MUTATE_CHILD1(Unary, a)
TILEC_MUTATE_CHILD1(Cast, a)
TILEC_MUTATE_CHILD1(Splat, a)
TILEC_MUTATE_CHILD1(ExpandDims, a)
TILEC_MUTATE_CHILD1(Broadcast, a)
TILEC_MUTATE_CHILD1(Trans, a)
TILEC_MUTATE_CHILD1(Reduce, a)
TILEC_MUTATE_CHILD1(Scan, a)
TILEC_MUTATE_CHILD1(Hint, a)
TILEC_MUTATE_CHILD1(ConvertLayout, a)
TILEC_MUTATE_CHILD1(ThreadReduce, a)
TILEC_MUTATE_CHILD1(WarpReduce, a)
TILEC_MUTATE_CHILD1(PairValue, a)
#undef TILEC_MUTATE_CHILD1

Expr IRMutator::mutate(const Dot *n, const Expr &self) {
  Expr a = mutate(n->a), b = mutate(n->b), acc = mutate(n->acc);
  if (a == n->a && b == n->b && acc == n->acc)
    return self;
  auto c = copyOf(n);
  c->a = a;
  c->b = b;
  c->acc = acc;
  return c;
}

Expr IRMutator::mutate(const SharedDot *n, const Expr &self) {
  Expr acc = mutate(n->acc), stage = mutate(n->stage);
  if (acc == n->acc && stage == n->stage)
    return self;
  auto c = copyOf(n);
  c->acc = acc;
  c->stage = stage;
  return c;
}

Expr IRMutator::mutate(const Binary *n, const Expr &self) {
  Expr a = mutate(n->a), b = mutate(n->b);
  if (a == n->a && b == n->b)
    return self;
  auto c = copyOf(n);
  c->a = a;
  c->b = b;
  return c;
}
Expr IRMutator::mutate(const Math *n, const Expr &self) {
  std::vector<Expr> args;
  bool changed = false;
  for (auto &a : n->args) {
    args.push_back(mutate(a));
    changed |= args.back() != a;
  }
  if (!changed)
    return self;
  auto c = copyOf(n);
  c->args = std::move(args);
  return c;
}
Expr IRMutator::mutate(const Select *n, const Expr &self) {
  Expr cond = mutate(n->cond), a = mutate(n->a), b = mutate(n->b);
  if (cond == n->cond && a == n->a && b == n->b)
    return self;
  auto c = copyOf(n);
  c->cond = cond;
  c->a = a;
  c->b = b;
  return c;
}
Expr IRMutator::mutate(const Load *n, const Expr &self) {
  Expr p = mutate(n->ptr), m = mutate(n->mask), o = mutate(n->other);
  if (p == n->ptr && m == n->mask && o == n->other)
    return self;
  auto c = copyOf(n);
  c->ptr = p;
  c->mask = m;
  c->other = o;
  return c;
}

Stmt IRMutator::mutate(const Block *n, const Stmt &self) {
  std::vector<Stmt> stmts;
  bool changed = false;
  for (auto &s : n->stmts) {
    Stmt m = mutate(s);
    changed |= m != s;
    if (m) // a mutation may delete a statement by returning null
      stmts.push_back(m);
  }
  if (!changed)
    return self;
  auto c = copyOf(n);
  c->stmts = std::move(stmts);
  return c;
}
Stmt IRMutator::mutate(const Decl *n, const Stmt &self) {
  Expr init = mutate(n->init);
  if (init == n->init)
    return self;
  auto c = copyOf(n);
  c->init = init;
  return c;
}
Stmt IRMutator::mutate(const Assign *n, const Stmt &self) {
  Expr v = mutate(n->value);
  if (v == n->value)
    return self;
  auto c = copyOf(n);
  c->value = v;
  return c;
}
Stmt IRMutator::mutate(const Store *n, const Stmt &self) {
  Expr p = mutate(n->ptr), v = mutate(n->value), m = mutate(n->mask), q = mutate(n->cmp);
  if (p == n->ptr && v == n->value && m == n->mask && q == n->cmp)
    return self;
  auto c = copyOf(n);
  c->ptr = p;
  c->value = v;
  c->mask = m;
  c->cmp = q;
  return c;
}
Stmt IRMutator::mutate(const For *n, const Stmt &self) {
  Expr b = mutate(n->begin), e = mutate(n->end), st = mutate(n->step);
  Stmt body = mutate(n->body);
  if (b == n->begin && e == n->end && st == n->step && body == n->body)
    return self;
  auto c = copyOf(n);
  c->begin = b;
  c->end = e;
  c->step = st;
  c->body = body;
  return c;
}
Stmt IRMutator::mutate(const While *n, const Stmt &self) {
  Expr cond = mutate(n->cond);
  Stmt body = mutate(n->body);
  if (cond == n->cond && body == n->body)
    return self;
  auto c = copyOf(n);
  c->cond = cond;
  c->body = body;
  return c;
}
Stmt IRMutator::mutate(const If *n, const Stmt &self) {
  Expr cond = mutate(n->cond);
  Stmt t = mutate(n->thenS), e = mutate(n->elseS);
  if (cond == n->cond && t == n->thenS && e == n->elseS)
    return self;
  auto c = copyOf(n);
  c->cond = cond;
  c->thenS = t;
  c->elseS = e;
  return c;
}
Stmt IRMutator::mutate(const Barrier *, const Stmt &self) { return self; }
Stmt IRMutator::mutate(const Assert *n, const Stmt &self) {
  Expr cond = mutate(n->cond);
  if (cond == n->cond)
    return self;
  auto c = copyOf(n);
  c->cond = cond;
  return c;
}
Stmt IRMutator::mutate(const Print *n, const Stmt &self) {
  Expr value = mutate(n->value);
  if (value == n->value)
    return self;
  auto c = copyOf(n);
  c->value = value;
  return c;
}
Stmt IRMutator::mutate(const SharedWrite *n, const Stmt &self) {
  Expr st = mutate(n->stage);
  Expr v = mutate(n->value);
  Expr m = mutate(n->mask);
  if (v == n->value && st == n->stage && m == n->mask)
    return self;
  auto c = copyOf(n);
  c->stage = st;
  c->value = v;
  c->mask = m;
  return c;
}
Stmt IRMutator::mutate(const AsyncCopy *n, const Stmt &self) {
  Expr stage = mutate(n->stage), ptr = mutate(n->ptr), mask = mutate(n->mask), row = mutate(n->row),
       col = mutate(n->col);
  if (stage == n->stage && ptr == n->ptr && mask == n->mask && row == n->row && col == n->col)
    return self;
  auto c = copyOf(n);
  c->stage = stage;
  c->ptr = ptr;
  c->mask = mask;
  c->row = row;
  c->col = col;
  return c;
}
Stmt IRMutator::mutate(const AsyncCommit *, const Stmt &self) { return self; }
Stmt IRMutator::mutate(const AsyncWait *n, const Stmt &self) {
  Expr pending = mutate(n->pending), stage = mutate(n->stage), phase = mutate(n->phase);
  if (pending == n->pending && stage == n->stage && phase == n->phase)
    return self;
  auto c = copyOf(n);
  c->pending = pending;
  c->stage = stage;
  c->phase = phase;
  return c;
}
Stmt IRMutator::mutate(const StageFree *n, const Stmt &self) {
  Expr stage = mutate(n->stage), phase = mutate(n->phase);
  if (stage == n->stage && phase == n->phase)
    return self;
  auto c = copyOf(n);
  c->stage = stage;
  c->phase = phase;
  return c;
}
Stmt IRMutator::mutate(const WarpSpecialize *n, const Stmt &self) {
  Stmt producer = mutate(n->producer), consumers = mutate(n->consumers);
  if (producer == n->producer && consumers == n->consumers)
    return self;
  auto c = copyOf(n);
  c->producer = producer;
  c->consumers = consumers;
  return c;
}

void ExprFacts::add(const Expr &e) {
  struct Walk : IRVisitor {
    ExprFacts &f;
    explicit Walk(ExprFacts &f) : f(f) {}
    using IRVisitor::visit;
    void visit(const VarRef *n) override { f.reads.insert(n->var.get()); }
    void visit(const Load *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const Reduce *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const Scan *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const Dot *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const ConvertLayout *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const ThreadReduce *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const WarpReduce *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const SharedRead *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const Gather *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const Reshape *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const Sort *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const Histogram *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
    void visit(const SharedDot *n) override {
      f.elementwise = false;
      IRVisitor::visit(n);
    }
  } w(*this);
  w.visit(e);
}

namespace {
class Substitution : public IRMutator {
public:
  explicit Substitution(const std::map<const VarNode *, Expr> &with) : with(with) {}
  using IRMutator::mutate;

protected:
  Expr mutate(const VarRef *n, const Expr &self) override {
    auto it = with.find(n->var.get());
    return it == with.end() ? self : it->second;
  }

private:
  const std::map<const VarNode *, Expr> &with;
};
} // namespace

Expr substitute(const Expr &e, const std::map<const VarNode *, Expr> &with) {
  Substitution s(with);
  return s.mutate(e);
}
Stmt substitute(const Stmt &st, const std::map<const VarNode *, Expr> &with) {
  Substitution s(with);
  return s.mutate(st);
}

bool canStayInFlight(const For &f, const Assign &a) {
  auto d = as<SharedDot>(a.value);
  auto acc = d ? as<VarRef>(d->acc) : nullptr;
  if (!acc || acc->var != a.var || d->type.elem != ScalarType::F32 || !d->type.layout ||
      d->type.layout->kind != Layout::Kind::Mma ||
      d->type.layout->instr != Layout::MmaInstr::Wgmma)
    return false;
  // The product's read and assignment, and nothing else.
  struct Accesses : IRVisitor {
    const VarNode *v;
    int n = 0;
    explicit Accesses(const VarNode *v) : v(v) {}
    using IRVisitor::visit;
    void visit(const VarRef *r) override { n += r->var.get() == v; }
    void visit(const Assign *s) override {
      n += s->var.get() == v;
      IRVisitor::visit(s);
    }
  } accesses(a.var.get());
  accesses.visit(f.body);
  return accesses.n == 2;
}

std::set<const VarNode *> assignedIn(const Stmt &s, AssignedKinds kinds) {
  struct Walk : IRVisitor {
    std::set<const VarNode *> out;
    AssignedKinds kinds;
    using IRVisitor::visit;
    void visit(const Assign *n) override {
      out.insert(n->var.get());
      IRVisitor::visit(n);
    }
    void visit(const Decl *n) override {
      if (kinds.decls)
        out.insert(n->var.get());
      IRVisitor::visit(n);
    }
    void visit(const For *n) override {
      if (kinds.loopIndices)
        out.insert(n->var.get());
      IRVisitor::visit(n);
    }
  } w;
  w.kinds = kinds;
  w.visit(s);
  return std::move(w.out);
}

} // namespace tilec::ir
