// insert-barriers: places the block-wide barriers that order shared-memory accesses
// (docs/internals.md invariant 7) and only those.
//
// Runs after: allocate-shared (hazards are decided on the allocated byte ranges, so two buffers
// that reuse the same bytes are ordered too; a buffer without an offset only conflicts with
// itself).
// Guarantees: no shared read can see a write of another thread from the same phase
// (read-after-write), and no shared write can overwrite bytes another thread may still read or
// write (write-after-read, write-after-write), without a barrier in between; every barrier has a
// shared access since the previous one (barriers the lowering placed are kept when they order
// something, dropped when redundant).
//
// Analysis: a forward walk keeps the accesses (byte range, read/write) made since the last barrier
// ("pending"). A statement whose accesses conflict with a pending one gets a barrier before it,
// which clears the pending set. `if`: both branches from the same state, then the union. Loops:
// the body is re-walked from `state before the loop ∪ state after the body` until that is stable,
// so hazards between one iteration and the next are seen (e.g. a buffer written at the top of the
// body and read at its end). Scalar control flow is uniform, so barriers inside loops and ifs are
// legal.
//
//   before: for %i = 0:i32 to %n step 1:i32 {       after: for %i = 0:i32 to %n step 1:i32 {
//             shared_write 0, %x                             barrier          // WAR: last iteration
//             barrier                                        shared_write 0, %x
//             decl %y = shared_read(0) : ...                 barrier
//           }                                                decl %y = shared_read(0) : ...
//                                                          }
#include "passes/Passes.h"

#include "ir/IRVisitor.h"

#include <set>
#include <tuple>

namespace tilec::passes {

namespace {

using namespace ir;

struct Access {
  int64_t lo, hi;
  bool write;
  bool operator<(const Access &o) const {
    return std::tie(lo, hi, write) < std::tie(o.lo, o.hi, o.write);
  }
};
using Pending = std::set<Access>;

class BarrierPlacement {
public:
  explicit BarrierPlacement(Kernel &k) : k(k) {}

  void run() {
    walk(k.body, {});
    k.body = rebuildOne(k.body);
  }

private:
  Access rangeOf(int buf, bool write) const {
    const SharedBuffer &b = k.buffers.at(buf);
    if (b.offsetBytes < 0) // not allocated: a range of its own, disjoint from every other buffer
      return {-1 - int64_t(buf), -int64_t(buf), write};
    return {b.offsetBytes, b.offsetBytes + b.sizeBytes, write};
  }

  // Shared accesses of the statement itself (not of nested statements), in execution order.
  std::vector<Access> accessesOf(const Stmt &s) const {
    std::vector<Access> out;
    auto reads = [&](const Expr &e) {
      if (!e)
        return;
      forEachExpr(Decl::make(std::make_shared<VarNode>(), e), [&](const ExprNode *n) {
        if (n->kind == ExprKind::SharedRead)
          out.push_back(rangeOf(static_cast<const SharedRead *>(n)->buffer, false));
      });
    };
    switch (s->kind) {
    case StmtKind::Decl: reads(as<Decl>(s)->init); break;
    case StmtKind::Assign: reads(as<Assign>(s)->value); break;
    case StmtKind::Store:
      reads(as<Store>(s)->ptr);
      reads(as<Store>(s)->value);
      reads(as<Store>(s)->mask);
      break;
    case StmtKind::SharedWrite:
      reads(as<SharedWrite>(s)->value);
      out.push_back(rangeOf(as<SharedWrite>(s)->buffer, true));
      break;
    case StmtKind::For:
      reads(as<For>(s)->begin);
      reads(as<For>(s)->end);
      reads(as<For>(s)->step);
      break;
    case StmtKind::While: reads(as<While>(s)->cond); break;
    case StmtKind::If: reads(as<If>(s)->cond); break;
    default: break;
    }
    return out;
  }

  static bool conflicts(const Pending &p, const Access &a) {
    for (auto &q : p)
      if (q.lo < a.hi && a.lo < q.hi && (q.write || a.write))
        return true;
    return false;
  }

  // Accesses of `s` itself against the pending set: barrier before it if any conflicts.
  void own(const Stmt &s, Pending &p) {
    auto acc = accessesOf(s);
    for (auto &a : acc)
      if (conflicts(p, a)) {
        barrierBefore.insert(s.get());
        p.clear();
        break;
      }
    p.insert(acc.begin(), acc.end());
  }

  Pending walk(const Stmt &s, Pending p) {
    if (!s)
      return p;
    switch (s->kind) {
    case StmtKind::Block:
      for (auto &c : as<Block>(s)->stmts)
        p = walk(c, std::move(p));
      return p;
    case StmtKind::Barrier:
      if (!p.empty())
        keep.insert(s.get());
      return {};
    case StmtKind::If: {
      own(s, p);
      Pending t = walk(as<If>(s)->thenS, p);
      Pending e = walk(as<If>(s)->elseS, p);
      t.insert(e.begin(), e.end());
      return t;
    }
    case StmtKind::For:
    case StmtKind::While: {
      own(s, p);
      const Stmt &body = s->kind == StmtKind::For ? as<For>(s)->body : as<While>(s)->body;
      Pending in = p;
      for (;;) {
        Pending out = walk(body, in);
        size_t before = in.size();
        in.insert(out.begin(), out.end());
        if (in.size() == before)
          return in; // zero iterations (p) or any number (out) are both in `in`
      }
    }
    default:
      own(s, p);
      return p;
    }
  }

  void rebuild(const Stmt &s, std::vector<Stmt> &out) {
    if (!s)
      return;
    if (s->kind == StmtKind::Barrier) {
      if (keep.count(s.get()))
        out.push_back(s);
      return;
    }
    if (barrierBefore.count(s.get()))
      out.push_back(Barrier::make(s->loc));
    switch (s->kind) {
    case StmtKind::Block: {
      std::vector<Stmt> stmts;
      for (auto &c : as<Block>(s)->stmts)
        rebuild(c, stmts);
      out.push_back(Block::make(std::move(stmts), s->loc));
      return;
    }
    case StmtKind::For: {
      auto c = std::make_shared<For>(*as<For>(s));
      c->body = rebuildOne(c->body);
      out.push_back(c);
      return;
    }
    case StmtKind::While: {
      auto c = std::make_shared<While>(*as<While>(s));
      c->body = rebuildOne(c->body);
      out.push_back(c);
      return;
    }
    case StmtKind::If: {
      auto c = std::make_shared<If>(*as<If>(s));
      c->thenS = rebuildOne(c->thenS);
      if (c->elseS)
        c->elseS = rebuildOne(c->elseS);
      out.push_back(c);
      return;
    }
    default:
      out.push_back(s);
      return;
    }
  }

  Stmt rebuildOne(const Stmt &s) {
    std::vector<Stmt> out;
    rebuild(s, out);
    if (out.size() == 1)
      return out[0];
    return Block::make(std::move(out), s ? s->loc : SourceLoc{});
  }

  Kernel &k;
  std::set<const StmtNode *> barrierBefore; // barriers to insert, before these statements
  std::set<const StmtNode *> keep;          // existing barriers that order something
};

class InsertBarriersPass : public Pass {
public:
  const char *name() const override { return "insert-barriers"; }
  void run(Module &m, PassContext &) override {
    for (auto &k : m.kernels)
      BarrierPlacement(k).run();
  }
};

} // namespace

std::unique_ptr<Pass> createInsertBarriersPass() { return std::make_unique<InsertBarriersPass>(); }

} // namespace tilec::passes
