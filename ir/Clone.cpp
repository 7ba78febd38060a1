#include "ir/Clone.h"
#include "ir/IRVisitor.h"

#include <map>

namespace tilec::ir {
namespace {

/// Rebuilds every node that names a variable (VarRef, Decl, Assign, For) with that variable's copy;
/// the base class rebuilds the nodes above them.
class VarCloner : public IRMutator {
public:
  Var copyOf(const Var &v) {
    if (!v)
      return v;
    auto [it, added] = copies.try_emplace(v.get());
    if (added)
      it->second = std::make_shared<VarNode>(*v);
    return it->second;
  }
  using IRMutator::mutate;

protected:
  Expr mutate(const VarRef *n, const Expr &) override {
    auto c = std::make_shared<VarRef>(*n);
    c->var = copyOf(n->var);
    return c;
  }
  Stmt mutate(const Decl *n, const Stmt &self) override {
    return withVar<Decl>(IRMutator::mutate(n, self), n->var);
  }
  Stmt mutate(const Assign *n, const Stmt &self) override {
    return withVar<Assign>(IRMutator::mutate(n, self), n->var);
  }
  Stmt mutate(const For *n, const Stmt &self) override {
    return withVar<For>(IRMutator::mutate(n, self), n->var);
  }

private:
  template <class T> Stmt withVar(const Stmt &s, const Var &v) {
    auto c = std::make_shared<T>(*static_cast<const T *>(s.get()));
    c->var = copyOf(v);
    return c;
  }
  std::map<const VarNode *, Var> copies;
};

} // namespace

Kernel clone(const Kernel &k) {
  VarCloner cloner;
  Kernel c = k;
  for (Var &p : c.params)
    p = cloner.copyOf(p);
  c.body = cloner.mutate(k.body);
  for (Expr &g : c.settings.grid)
    g = cloner.mutate(g);
  return c;
}

Module clone(const Module &m) {
  Module c;
  c.files = m.files;
  for (const Kernel &k : m.kernels)
    c.kernels.push_back(clone(k));
  return c;
}

} // namespace tilec::ir
