#include "passes/analysis/PointerOrigins.h"

#include "ir/IRVisitor.h"

namespace tilec::passes {

using namespace ir;

namespace {
template <class F> void forEachNode(const Expr &e, F &&f) {
  if (e)
    forEachExpr(Decl::make(std::make_shared<VarNode>(), e), f);
}
} // namespace

PointerOrigins::PointerOrigins(const Kernel &k) {
  for (bool changed = true; changed;) {
    changed = false;
    auto add = [&](const Var &v, const Expr &e) {
      if (!v->type.pointer)
        return;
      std::set<int> ps;
      forEachNode(e, [&](const ExprNode *n) {
        if (n->kind != ExprKind::VarRef || !n->type.pointer)
          return;
        const VarNode *u = static_cast<const VarRef *>(n)->var.get();
        if (u->kind == VarKind::Param)
          ps.insert(u->id);
        else if (auto it = localParams.find(u); it != localParams.end())
          ps.insert(it->second.begin(), it->second.end());
      });
      auto &into = localParams[v.get()];
      size_t before = into.size();
      into.insert(ps.begin(), ps.end());
      changed = changed || into.size() != before;
    };
    forEachStmt(k.body, [&](const Stmt &s) {
      if (auto *d = as<Decl>(s))
        add(d->var, d->init);
      else if (auto *a = as<Assign>(s))
        add(a->var, a->value);
      else if (auto *f = as<For>(s))
        add(f->var, f->begin);
    });
  }
}

std::set<int> PointerOrigins::paramsOf(const Expr &e) const {
  std::set<int> r;
  forEachNode(e, [&](const ExprNode *n) {
    if (n->kind != ExprKind::VarRef || !n->type.pointer)
      return;
    const VarNode *v = static_cast<const VarRef *>(n)->var.get();
    if (v->kind == VarKind::Param) {
      r.insert(v->id);
      return;
    }
    auto it = localParams.find(v);
    if (it == localParams.end() || it->second.empty())
      r.insert(-1); // not known: may alias every parameter
    else
      r.insert(it->second.begin(), it->second.end());
  });
  return r;
}

} // namespace tilec::passes
