// dead-decls: drops the declarations of variables that nothing reads, and assignments to them.
//
// Before: simplify (which merges repeated declarations and may leave the later ones unread). After:
// every declared local is read somewhere (an atomic whose old values nothing reads keeps its update
// and loses its result). Expressions have no side effects (a load only reads), so
// this changes nothing but the output's size; it spares the user nvcc's "variable was set but never
// used" for a value the kernel computes and never uses (an error under -Werror), and the GPU the
// work. One removal can leave another variable unread (`unused = exp(scaled)` was all that read
// `scaled`), so it repeats until nothing changes.
//
//   decl %v = load(..); decl %s = mul(%v, 2.0); decl %u = exp(%s); store(%o, %v)
//                                               ->  decl %v = load(..); store(%o, %v)
#include "ir/IRVisitor.h"
#include "passes/Passes.h"

#include <set>

namespace tilec::passes {

using namespace ir;

namespace {

class DeadDecls : public IRMutator {
public:
  /// `body` without dead declarations.
  static Stmt run(const Stmt &body) {
    Stmt s = body;
    for (;;) {
      std::set<const VarNode *> read;
      forEachExpr(s, [&](const ExprNode *e) {
        if (e->kind == ExprKind::VarRef)
          read.insert(static_cast<const VarRef *>(e)->var.get());
      });
      DeadDecls d(read);
      Stmt next = d.mutate(s);
      if (next == s)
        return s;
      s = next;
    }
  }

protected:
  explicit DeadDecls(const std::set<const VarNode *> &read) : read(read) {}
  using IRMutator::mutate;
  Stmt mutate(const Block *b, const Stmt &self) override {
    std::vector<Stmt> out;
    bool changed = false;
    for (auto &c : b->stmts) {
      const VarNode *v = c->kind == StmtKind::Decl     ? as<Decl>(c)->var.get()
                         : c->kind == StmtKind::Assign ? as<Assign>(c)->var.get()
                                                       : nullptr;
      if (v && !read.count(v)) {
        changed = true;
        continue;
      }
      // An atomic whose old values nothing reads: the update stays, the result goes.
      if (auto *st = as<Store>(c); st && st->result && !read.count(st->result.get())) {
        auto copy = std::make_shared<Store>(*st);
        copy->result = nullptr;
        changed = true;
        out.push_back(copy);
        continue;
      }
      Stmt m = mutate(c);
      changed |= m != c;
      out.push_back(m);
    }
    return changed ? Block::make(std::move(out), self->loc) : self;
  }

private:
  const std::set<const VarNode *> &read;
};

class DeadDeclsPass : public Pass {
public:
  const char *name() const override { return "dead-decls"; }
  void run(Module &m, PassContext &) override {
    for (auto &k : m.kernels)
      k.body = DeadDecls::run(k.body);
  }
};

} // namespace

Stmt removeDeadDecls(const Stmt &body) { return DeadDecls::run(body); }

std::unique_ptr<Pass> createDeadDeclsPass() { return std::make_unique<DeadDeclsPass>(); }

} // namespace tilec::passes
