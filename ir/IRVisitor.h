#pragma once
/// \file Read-only traversal (IRVisitor) and rebuilding traversal (IRMutator) of the Tile IR.
///
/// Override `visit(const X *)` for the nodes you care about and call the base to keep walking into
/// children. IRMutator's `mutate` returns the same pointer when nothing below changed, so passes that
/// change nothing allocate nothing.

#include "ir/IR.h"

#include <map>
#include <set>

namespace tilec::ir {

class IRVisitor {
public:
  virtual ~IRVisitor() = default;
  void visit(const Expr &e);
  void visit(const Stmt &s);

#define TILEC_EXPR(N) virtual void visit(const N *n);
#define TILEC_STMT(N) virtual void visit(const N *n);
#include "ir/Nodes.def"
};

class IRMutator {
public:
  virtual ~IRMutator() = default;
  Expr mutate(const Expr &e);
  Stmt mutate(const Stmt &s);

protected:
  // Each receives the node and its owning pointer (return `self` to keep it unchanged).
#define TILEC_EXPR(N) virtual Expr mutate(const N *n, const Expr &self);
#define TILEC_STMT(N) virtual Stmt mutate(const N *n, const Stmt &self);
#include "ir/Nodes.def"
};

/// Calls `f` on every expression node reachable from `s` (pre-order).
template <class F> void forEachExpr(const Stmt &s, F &&f);

/// What expressions read, and whether they are computed element by element from it: no load, no
/// reduction, no dot, and none of the nodes reductions and layout conversions are lowered to
/// (ThreadReduce, WarpReduce, SharedRead, ConvertLayout).
struct ExprFacts {
  std::set<const VarNode *> reads;
  bool elementwise = true;
  /// Adds the facts of `e` (nothing for null).
  void add(const Expr &e);
};

/// `e` (or `s`) with every read of a variable in `with` replaced by its expression.
Expr substitute(const Expr &e, const std::map<const VarNode *, Expr> &with);
Stmt substitute(const Stmt &s, const std::map<const VarNode *, Expr> &with);

/// Which statements count as giving a variable a value, for `assignedIn`.
struct AssignedKinds {
  bool decls = false;       ///< a declaration with its initial value
  bool loopIndices = false; ///< a loop's index (it takes a new value each iteration)
};
/// Whether the product `a` (`acc = shared_dot(..., acc=acc)` in loop `f`) has the form that
/// SharedDot::inFlight needs: a wgmma product accumulating in fp32 into the variable it assigns,
/// which `f` reads and assigns nowhere else. (pipeline-dots marks such products; the verifier
/// checks the marked ones.)
bool canStayInFlight(const For &f, const Assign &a);

/// The variables that statements below `s` give values to: every Assign target, and declarations
/// and loop indices as `kinds` says.
std::set<const VarNode *> assignedIn(const Stmt &s, AssignedKinds kinds = {});

namespace detail {
template <class F> class ExprWalker : public IRVisitor {
public:
  explicit ExprWalker(F &f) : f(f) {}
  using IRVisitor::visit;
#define TILEC_EXPR(N)                                                                              \
  void visit(const N *n) override {                                                                \
    f(static_cast<const ExprNode *>(n));                                                           \
    IRVisitor::visit(n);                                                                           \
  }
#include "ir/Nodes.def"
private:
  F &f;
};
} // namespace detail

template <class F> void forEachExpr(const Stmt &s, F &&f) {
  detail::ExprWalker<F> w(f);
  w.visit(s);
}

/// Calls `f` on every statement below `s`, nested ones included, in program order.
template <class F> void forEachStmt(const Stmt &s, F &&f) {
  if (!s)
    return;
  f(s);
  switch (s->kind) {
  case StmtKind::Block:
    for (auto &c : as<Block>(s)->stmts)
      forEachStmt(c, f);
    break;
  case StmtKind::For:
    forEachStmt(as<For>(s)->body, f);
    break;
  case StmtKind::While:
    forEachStmt(as<While>(s)->body, f);
    break;
  case StmtKind::If:
    forEachStmt(as<If>(s)->thenS, f);
    forEachStmt(as<If>(s)->elseS, f);
    break;
  case StmtKind::WarpSpecialize:
    forEachStmt(as<WarpSpecialize>(s)->producer, f);
    forEachStmt(as<WarpSpecialize>(s)->consumers, f);
    break;
  default:
    break;
  }
}

} // namespace tilec::ir
