#include "ir/Clone.h"
#include "ir/IRVisitor.h"

#include <map>

namespace tilec::ir {
namespace {

/// Rebuilds every node that names a variable (VarRef, Decl, Assign, For, an atomic Store) with that
/// variable's copy; the base class rebuilds the nodes above them. A node that occurs several times
/// (the translator shares subtrees: tl::argmax of a 2-D tile) is copied once, so the copy has the
/// original's shape: passes treat one shared node as one value (materialize binds it once).
class VarCloner : public IRMutator {
public:
  Var copyOf(const Var &v) {
    if (!v)
      return v;
    auto [it, added] = vars.try_emplace(v.get());
    if (added)
      it->second = std::make_shared<VarNode>(*v);
    return it->second;
  }
  using IRMutator::mutate;

protected:
#define TILEC_EXPR(N)                                                                              \
  Expr mutate(const N *n, const Expr &self) override {                                            \
    auto it = exprs.find(n);                                                                       \
    if (it == exprs.end())                                                                         \
      it = exprs.emplace(n, copy(n, self)).first;                                                 \
    return it->second;                                                                             \
  }
#define TILEC_STMT(N)                                                                              \
  Stmt mutate(const N *n, const Stmt &self) override {                                            \
    auto it = stmts.find(n);                                                                       \
    if (it == stmts.end())                                                                         \
      it = stmts.emplace(n, copy(n, self)).first;                                                 \
    return it->second;                                                                             \
  }
#include "ir/Nodes.def"

private:
  template <class N> Expr copy(const N *n, const Expr &self) { return IRMutator::mutate(n, self); }
  template <class N> Stmt copy(const N *n, const Stmt &self) { return IRMutator::mutate(n, self); }
  Expr copy(const VarRef *n, const Expr &) {
    auto c = std::make_shared<VarRef>(*n);
    c->var = copyOf(n->var);
    return c;
  }
  Stmt copy(const Decl *n, const Stmt &self) { return withVar<Decl>(IRMutator::mutate(n, self), n->var); }
  Stmt copy(const Assign *n, const Stmt &self) {
    return withVar<Assign>(IRMutator::mutate(n, self), n->var);
  }
  Stmt copy(const For *n, const Stmt &self) { return withVar<For>(IRMutator::mutate(n, self), n->var); }
  Stmt copy(const Store *n, const Stmt &self) { // an atomic's old values
    Stmt s = IRMutator::mutate(n, self);
    if (!n->result)
      return s;
    auto c = std::make_shared<Store>(*static_cast<const Store *>(s.get()));
    c->result = copyOf(n->result);
    return c;
  }
  template <class T> Stmt withVar(const Stmt &s, const Var &v) {
    auto c = std::make_shared<T>(*static_cast<const T *>(s.get()));
    c->var = copyOf(v);
    return c;
  }

  std::map<const VarNode *, Var> vars;
  std::map<const ExprNode *, Expr> exprs;
  std::map<const StmtNode *, Stmt> stmts;
};

} // namespace

Kernel clone(const Kernel &k) {
  VarCloner cloner;
  Kernel c = k;
  for (Var &p : c.params)
    p = cloner.copyOf(p);
  if (c.programs)
    c.programs = cloner.copyOf(c.programs);
  c.body = cloner.mutate(k.body);
  for (Expr &g : c.settings.grid)
    g = cloner.mutate(g);
  return c;
}

Module clone(const Module &m) {
  Module c;
  c.files = m.files;
  c.globalNames = m.globalNames;
  c.sourceMacros = m.sourceMacros;
  for (const Kernel &k : m.kernels)
    c.kernels.push_back(clone(k));
  return c;
}

} // namespace tilec::ir
