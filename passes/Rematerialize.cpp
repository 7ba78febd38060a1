// rematerialize: after a reduction (or a scan), a mask or index tile declared before it is computed
// again where it is used instead of being held across the reduction.
//
// Why: `auto mask = cols < n;` at the top of a row kernel is read by the loads, and again by the
// store after the row's reductions; the emitted `bool mask[ELEMS]` then stays live across them, one
// register an element. Recomputing `cols < n` from the thread's coordinates is an instruction or two
// a vector, and ptxas does not do it by itself: Liger's LayerNorm at BLOCK 4096 (16 elements a
// thread) took 62 registers with the held mask and 52 with it recomputed after the reductions
// (bench/NOTES.md, Change P7). Triton computes masks where they are used.
//
// Which tiles: a declaration of a bool or integer tile that is never assigned again, whose
// initializer is index arithmetic: aranges, constants, program ids, splats and broadcasts of
// scalars the kernel never assigns (parameters, loop indices, locals declared once), other such
// tiles, and + - * & | ^ << >>, comparisons, logical operators, min, max, casts and selects of them.
// Its reads in statements of its block after one that reduces (a declaration of a reduction, or a
// loop or branch containing one) are replaced by the initializer, with the other such tiles it reads
// expanded too; a declaration no longer read is dropped. Reads before the reduction keep the
// variable (the loads that the mask guards see the user's name).
//
//   decl %mask = lt(%cols, splat(%n)); decl %x = load(.., mask=%mask); decl %s = reduce(%x)
//   store(.., mask=%mask)
//   -> decl %mask = ...; decl %x = load(.., mask=%mask); decl %s = reduce(%x)
//      store(.., mask=lt(add(splat(0), arange(0, N)), splat(%n)))
#include "ir/IRVisitor.h"
#include "passes/Passes.h"

#include <map>
#include <set>

namespace tilec::passes {

using namespace ir;

namespace {

bool reduces(const Stmt &s) {
  bool found = false;
  forEachExpr(s, [&](const ExprNode *e) {
    found = found || e->kind == ExprKind::Reduce || e->kind == ExprKind::Scan;
  });
  return found;
}

class Rematerialize : public IRMutator {
public:
  explicit Rematerialize(const std::set<const VarNode *> &assigned) : assigned(assigned) {}
  using IRMutator::mutate;

protected:
  Stmt mutate(const Block *b, const Stmt &self) override {
    // The index tiles declared so far in this block (and enclosing ones, through `expanded`), with
    // their initializers expanded; those a reduction has come between are substituted.
    std::map<const VarNode *, Expr> crossed;
    std::vector<const VarNode *> mine;
    std::vector<Stmt> stmts;
    bool changed = false;
    for (const Stmt &c : b->stmts) {
      Stmt s = c;
      if (!crossed.empty())
        s = substitute(s, crossed);
      s = mutate(s);
      changed |= s != c;
      if (auto d = as<Decl>(s); d && d->init && indexTile(d->var) && cheap(d->init)) {
        expanded[d->var.get()] = substitute(d->init, expanded);
        mine.push_back(d->var.get());
      }
      if (reduces(s))
        for (const VarNode *v : mine)
          crossed.emplace(v, expanded.at(v));
      stmts.push_back(s);
    }
    for (const VarNode *v : mine)
      expanded.erase(v);
    return changed ? Block::make(std::move(stmts), self->loc) : self;
  }

private:
  bool indexTile(const Var &v) const {
    return v->type.isTile() && !v->type.pointer && !isFloat(v->type.elem) && !assigned.count(v.get());
  }

  bool cheap(const Expr &e) const {
    switch (e->kind) {
    case ExprKind::IntImm:
    case ExprKind::FloatImm:
    case ExprKind::Arange:
    case ExprKind::ProgramId:
      return true;
    case ExprKind::VarRef: {
      const VarNode *v = as<VarRef>(e)->var.get();
      return e->type.isTile() ? expanded.count(v) > 0 : !assigned.count(v);
    }
    case ExprKind::Splat: return cheap(as<Splat>(e)->a);
    case ExprKind::ExpandDims: return cheap(as<ExpandDims>(e)->a);
    case ExprKind::Broadcast: return cheap(as<Broadcast>(e)->a);
    case ExprKind::Trans: return cheap(as<Trans>(e)->a);
    case ExprKind::Cast: return cheap(as<Cast>(e)->a);
    case ExprKind::Unary: return cheap(as<Unary>(e)->a);
    case ExprKind::Select: {
      auto s = as<Select>(e);
      return cheap(s->cond) && cheap(s->a) && cheap(s->b);
    }
    case ExprKind::Binary: {
      auto bin = as<Binary>(e);
      if (bin->op == BinaryOp::Div || bin->op == BinaryOp::Mod)
        return false;
      return cheap(bin->a) && cheap(bin->b);
    }
    default:
      return false;
    }
  }

  const std::set<const VarNode *> &assigned;
  std::map<const VarNode *, Expr> expanded;
};

class RematerializePass : public Pass {
public:
  const char *name() const override { return "rematerialize"; }
  void run(Module &m, PassContext &) override {
    for (auto &k : m.kernels) {
      // Loop indices are not counted: a loop's body sees one value of its index.
      const std::set<const VarNode *> assigned = assignedIn(k.body);
      Rematerialize r(assigned);
      Stmt body = r.mutate(k.body);
      if (body != k.body)
        k.body = removeDeadDecls(body);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createRematerializePass() { return std::make_unique<RematerializePass>(); }

} // namespace tilec::passes
