// sink-decls: moves the declaration of a tile computed element by element from other variables (no
// load, no reduction) down to just before the first statement of its block that reads it.
//
// Why: nvcc computes such a value where it is declared and keeps the result until its last use.
// `auto w_row = tl::cast<float>(tl::load(w + cols, mask))` declared at the top of a layer norm and
// read only after two reductions then holds 32-bit floats across both, where the 16-bit values as
// loaded (two to a register) would do: Liger's LayerNorm 4096 needed 73 registers (three blocks of 256
// threads per SM), 56 with the conversion beside its use (bench/NOTES.md, Change P4). Loads stay
// where the user wrote them: issued early, their latency hides behind the work before their use.
//
// A declaration moves only when its variable is never assigned again and no statement it moves past
// assigns a variable its value reads; statements in between are kept in order. A first use inside a
// loop or branch puts the declaration just before that loop or branch (never into it: a loop would
// recompute it). The provenance comment moves with the declaration.
//
//   decl %w_load = load(..); decl %w = cast(%w_load); decl %s = reduce(%x); store(.., mul(%w, %s))
//   -> decl %w_load = load(..); decl %s = reduce(%x); decl %w = cast(%w_load); store(.., mul(%w, %s))
#include "ir/IRVisitor.h"
#include "passes/Passes.h"

#include <set>

namespace tilec::passes {

using namespace ir;

namespace {

bool reads(const Stmt &s, const VarNode *v) {
  bool found = false;
  forEachExpr(s, [&](const ExprNode *e) {
    found = found || (e->kind == ExprKind::VarRef && static_cast<const VarRef *>(e)->var.get() == v);
  });
  return found;
}

class SinkDecls : public IRMutator {
public:
  explicit SinkDecls(const std::set<const VarNode *> &reassigned) : reassigned(reassigned) {}
  using IRMutator::mutate;

protected:
  Stmt mutate(const Block *b, const Stmt &self) override {
    std::vector<Stmt> stmts;
    bool changed = false;
    for (const Stmt &c : b->stmts) {
      Stmt m = mutate(c);
      changed |= m != c;
      stmts.push_back(m);
    }
    // Later declarations first, so that one moving down does not pass another still to move.
    for (size_t i = stmts.size(); i-- > 0;) {
      if (stmts[i]->kind != StmtKind::Decl)
        continue;
      const Decl *d = as<Decl>(stmts[i]);
      if (!d->init || !d->var->type.isTile() || reassigned.count(d->var.get()))
        continue;
      ExprFacts facts;
      facts.add(d->init);
      if (!facts.elementwise)
        continue;
      size_t use = i + 1;
      std::set<const VarNode *> assigned;
      for (; use < stmts.size() && !reads(stmts[use], d->var.get()); ++use) {
        std::set<const VarNode *> more = assignedIn(stmts[use], {.loopIndices = true});
        assigned.insert(more.begin(), more.end());
      }
      if (use == i + 1 || use == stmts.size())
        continue; // read at once, or never (dead-decls' business)
      bool blocked = false;
      for (const VarNode *v : facts.reads)
        blocked = blocked || assigned.count(v);
      if (blocked)
        continue;
      Stmt moved = stmts[i];
      stmts.erase(stmts.begin() + static_cast<std::ptrdiff_t>(i));
      stmts.insert(stmts.begin() + static_cast<std::ptrdiff_t>(use - 1), moved);
      changed = true;
    }
    return changed ? Block::make(std::move(stmts), self->loc) : self;
  }

private:
  const std::set<const VarNode *> &reassigned;
};

class SinkDeclsPass : public Pass {
public:
  const char *name() const override { return "sink-decls"; }
  void run(Module &m, PassContext &) override {
    for (auto &k : m.kernels) {
      const std::set<const VarNode *> reassigned = assignedIn(k.body, {.loopIndices = true});
      SinkDecls s(reassigned);
      k.body = s.mutate(k.body);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createSinkDeclsPass() { return std::make_unique<SinkDeclsPass>(); }

} // namespace tilec::passes
