// prefetch-loads: in a loop, the tile loads of the next iteration are issued before this
// iteration's arithmetic (software pipelining in registers, two stages).
//
// Why: a loop over the chunks of a wide row (softmax_looped, layer norm's passes) waits for each
// chunk's loads before its arithmetic, and with one block per row nothing else hides that latency:
// softmax over 262144-wide rows ran at 0.72-0.84x Triton, which pipelines the loads of its loops
// (bench/NOTES.md, run P9). Here each load of the loop is loaded once before the loop, for the
// first iteration, into a variable `<name>_next`; the iteration takes its value from there and, at
// its top, loads the next iteration's into it, so that the loads are in flight while this iteration
// computes.
//
//   for %i = b to e step s { decl %c = f(%i); decl %x = load(g(%c)); body }
//   -> decl %x_next; if (b < e) { decl %c_next = f(b); %x_next = load(g(%c_next)) }
//      for %i = b to e step s {
//        decl %x = %x_next
//        if (%i + s < e) { decl %c_next = f(%i + s); %x_next = load(g(%c_next)) }
//        decl %c = f(%i); body
//      }
//
// Which loads: a tile load declared at the top level of the loop's body (materialize gives every
// load its own declaration) whose pointer, mask and other value depend only on the loop index,
// variables the loop does not assign, variables it advances once per iteration by an amount it
// does not change (`a_ptrs += BLOCK_K * stride_ak`: the next iteration's value is one advance
// further), and declarations before it in the body computed from those alone (no load, no
// reduction): they are computed again for the next index. No store of the loop
// may write the parameter the load reads (pointers from different parameters do not alias:
// docs/language.md, "Program order"), or the next iteration's load could miss this one's store.
// The loop must be a loop of the source (not unrolled). The next iteration's load runs only if that
// iteration does, so no load touches memory the program would not. Registers: the loaded tile is
// held twice, so the prefetched loads of a loop together take at most prefetchBudget() bytes a
// thread.
//
// Not in a loop with a `tl::dot`: pipeline-dots pipelines those through shared memory.
// Only in loops with N >= 2 stages (the kernel's `num_stages = N`, or the loop's `tl::range<N>`):
// the prefetched tile is held twice, and a loop that runs once per program (a block as wide as the
// row, Triton's usual choice) pays for it and gains nothing. Measured (bench/NOTES.md, Change P6):
// softmax over 32768- to 262144-wide rows 0.71-0.83x -> 0.96-1.07x Triton; layer norm at BLOCK = N,
// one iteration per loop, 1.00-1.24x -> 0.68-0.89x with the pass on for every loop.
#include "ir/IRVisitor.h"
#include "passes/Passes.h"
#include "passes/analysis/PointerOrigins.h"

#include <algorithm>
#include <map>
#include <set>

namespace tilec::passes {

using namespace ir;

namespace {

/// The most bytes of prefetched tiles one thread holds for a loop: 16 registers in blocks of up to
/// 256 threads, half as many for each doubling beyond (a thread of a 1024-thread block has 64
/// registers in all: there the cross-entropy example's 64 prefetched bytes spilled and lost 6-13%;
/// bench/NOTES.md, run P13).
int64_t prefetchBudget(int threads) { return 64 * 256 / std::max(256, threads); }

/// The pointer parameters the stores below `s` may write (-1 among them: not known).
std::set<int> storedParams(const Stmt &s, const PointerOrigins &origins) {
  std::set<int> out;
  forEachStmt(s, [&](const Stmt &c) {
    if (auto st = as<Store>(c)) {
      std::set<int> ps = origins.paramsOf(st->ptr);
      out.insert(ps.begin(), ps.end());
    } else if (c->kind == StmtKind::SharedWrite) {
      out.insert(-1);
    }
  });
  return out;
}

class PrefetchLoads : public IRMutator {
public:
  PrefetchLoads(Kernel &k, int threads) : k(k), threads(threads), origins(k) {}
  using IRMutator::mutate;

protected:
  Stmt mutate(const Block *b, const Stmt &self) override {
    std::vector<Stmt> stmts;
    bool changed = false;
    for (const Stmt &c : b->stmts) {
      Stmt m = mutate(c);
      changed |= m != c;
      if (auto f = as<For>(m)) {
        std::vector<Stmt> prologue;
        if (Stmt p = pipelined(f, prologue)) {
          stmts.insert(stmts.end(), prologue.begin(), prologue.end());
          stmts.push_back(p);
          changed = true;
          continue;
        }
      }
      stmts.push_back(m);
    }
    return changed ? Block::make(std::move(stmts), self->loc) : self;
  }

private:
  /// The bytes of `t` one thread holds (a tile spread evenly over the block's threads).
  int64_t bytesPerThread(const Type &t) const {
    int64_t n = 1;
    for (int64_t d : t.shape)
      n *= d;
    return std::max<int64_t>(1, n / threads) * byteSize(t.elem);
  }

  /// `f` with its loads prefetched one iteration ahead, the loads for the first iteration appended
  /// to `prologue`; null when no load qualifies.
  Stmt pipelined(const For *f, std::vector<Stmt> &prologue) {
    // A loop with a matrix product is pipeline-dots' (its operands' loads go through a ring of
    // shared buffers; held in registers as well they made the loop 1.8x slower: bench/NOTES.md,
    // run M3).
    bool dot = false;
    forEachExpr(f->body, [&](const ExprNode *e) { dot = dot || e->kind == ExprKind::Dot; });
    // The loop's own num_stages (tl::range<S>), else the kernel's; 1 stage: not prefetched.
    const int stages = f->numStages ? f->numStages : k.settings.numStages;
    if (dot || stages < 2 || f->unroll || f->var->type != f->step->type ||
        f->var->type != f->begin->type || f->var->type != f->end->type)
      return nullptr;
    auto step = as<IntImm>(f->step);
    if (step && step->value <= 0)
      return nullptr;
    const Block *body = as<Block>(f->body);
    if (!body)
      return nullptr;
    const std::set<const VarNode *> inLoop = assignedIn(f->body, {.decls = true, .loopIndices = true});
    const std::set<int> stored = storedParams(f->body, origins);

    // Declarations computable for another index: their initializer and its own inputs.
    std::map<const VarNode *, const Decl *> recomputable;
    std::vector<size_t> picked;
    int64_t bytes = 0;
    // Variables the body advances by a loop-invariant amount, once, unconditionally (`a_ptrs +=
    // BLOCK_K * stride_ak`): at the top of an iteration they hold that iteration's value, and the
    // next iteration's is one advance further.
    // Statements before the advance read the iteration's value (only those may use it).
    std::map<const VarNode *, Expr> advanced;
    std::map<const VarNode *, size_t> advancedAt;
    {
      std::map<const VarNode *, int> assignments;
      std::set<const VarNode *> declared;
      forEachStmt(f->body, [&](const Stmt &c) {
        if (auto a = as<Assign>(c))
          ++assignments[a->var.get()];
        if (auto d = as<Decl>(c))
          declared.insert(d->var.get());
      });
      for (size_t i = 0; i < body->stmts.size(); ++i) {
        const Stmt &c = body->stmts[i];
        auto a = as<Assign>(c);
        auto b = a ? as<Binary>(a->value) : nullptr;
        auto self = b ? as<VarRef>(b->a) : nullptr;
        if (!self || self->var != a->var || assignments[a->var.get()] != 1 ||
            declared.count(a->var.get()) || (b->op != BinaryOp::Add && b->op != BinaryOp::Sub))
          continue;
        ExprFacts facts;
        facts.add(b->b);
        bool invariant = facts.elementwise;
        for (const VarNode *v : facts.reads)
          invariant = invariant && !inLoop.count(v);
        if (invariant) {
          advanced.emplace(a->var.get(), a->value);
          advancedAt.emplace(a->var.get(), i);
        }
      }
    }
    auto available = [&](const std::set<const VarNode *> &reads, size_t at) {
      for (const VarNode *v : reads) {
        if (v == f->var.get() || !inLoop.count(v) || recomputable.count(v))
          continue;
        auto adv = advancedAt.find(v);
        if (adv == advancedAt.end() || adv->second < at)
          return false;
      }
      return true;
    };
    const std::set<const VarNode *> reassigned = assignedIn(f->body);
    for (size_t i = 0; i < body->stmts.size(); ++i) {
      auto d = as<Decl>(body->stmts[i]);
      if (!d || !d->init || reassigned.count(d->var.get()))
        continue;
      if (auto ld = as<Load>(d->init)) {
        if (!d->var->type.isTile() || ld->hints.isVolatile) // a volatile load reads when written
          continue;
        ExprFacts facts;
        for (const Expr &e : {ld->ptr, ld->mask, ld->other})
          if (e)
            facts.add(e);
        const int64_t b = bytesPerThread(d->var->type);
        // A store of this iteration must not write what the next one loads: the load reads
        // parameters no store of the loop writes.
        bool written = stored.count(-1) > 0;
        for (int p : origins.paramsOf(ld->ptr))
          written = written || p < 0 || stored.count(p);
        if (facts.elementwise && !written && available(facts.reads, i) &&
            bytes + b <= prefetchBudget(threads)) {
          picked.push_back(i);
          bytes += b;
        }
        continue;
      }
      ExprFacts facts;
      facts.add(d->init);
      if (facts.elementwise && available(facts.reads, i))
        recomputable.emplace(d->var.get(), d);
    }
    if (picked.empty())
      return nullptr;

    // The loads (and the declarations they read) for index `at`, assigning the `_next` variables.
    std::vector<Var> next;
    for (size_t i : picked) {
      const Var &v = as<Decl>(body->stmts[i])->var;
      next.push_back(k.newVar(v->name + "_next", v->type, VarKind::Local, v->loc));
    }
    auto loadsAt = [&](const Expr &at, bool nextIteration) {
      std::map<const VarNode *, Expr> with{{f->var.get(), at}};
      if (nextIteration)
        for (const auto &[v, value] : advanced)
          with[v] = value;
      std::vector<Stmt> out;
      std::set<const VarNode *> needed;
      for (size_t i : picked) {
        auto ld = as<Load>(as<Decl>(body->stmts[i])->init);
        ExprFacts facts;
        for (const Expr &e : {ld->ptr, ld->mask, ld->other})
          if (e)
            facts.add(e);
        needed.insert(facts.reads.begin(), facts.reads.end());
      }
      // Walk back so that a declaration's own inputs are marked before it is reached.
      std::vector<const Decl *> deps;
      for (size_t i = body->stmts.size(); i-- > 0;) {
        auto d = as<Decl>(body->stmts[i]);
        if (!d || !recomputable.count(d->var.get()) || !needed.count(d->var.get()))
          continue;
        ExprFacts facts;
        facts.add(d->init);
        needed.insert(facts.reads.begin(), facts.reads.end());
        deps.push_back(d);
      }
      for (auto it = deps.rbegin(); it != deps.rend(); ++it) {
        const Decl *d = *it;
        Var copy = k.newVar(d->var->name + "_next", d->var->type, VarKind::Local, d->var->loc);
        out.push_back(Decl::make(copy, foldConstants(substitute(d->init, with)), d->loc));
        with[d->var.get()] = VarRef::make(copy, d->init->loc);
      }
      for (size_t j = 0; j < picked.size(); ++j) {
        auto d = as<Decl>(body->stmts[picked[j]]);
        out.push_back(Assign::make(next[j], foldConstants(substitute(d->init, with)), d->loc));
      }
      return Block::make(std::move(out), f->loc);
    };
    auto prefetch = [&](Prefetch which, const Expr &at) {
      Expr inRange = Binary::make(f->inclusive ? BinaryOp::Le : BinaryOp::Lt, at, f->end, f->loc);
      auto s = std::make_shared<If>();
      s->loc = f->loc;
      s->cond = inRange;
      s->thenS = loadsAt(at, which == Prefetch::NextIteration);
      s->prefetch = which;
      return s;
    };

    for (const Var &v : next)
      prologue.push_back(Decl::make(v, nullptr, v->loc));
    prologue.push_back(prefetch(Prefetch::FirstIteration, f->begin));

    std::vector<Stmt> stmts;
    for (size_t j = 0; j < picked.size(); ++j) {
      auto d = as<Decl>(body->stmts[picked[j]]);
      stmts.push_back(Decl::make(d->var, VarRef::make(next[j], d->loc), d->loc));
    }
    Expr following = Binary::make(BinaryOp::Add, VarRef::make(f->var, f->loc), f->step, f->loc);
    stmts.push_back(prefetch(Prefetch::NextIteration, following));
    for (size_t i = 0; i < body->stmts.size(); ++i)
      if (std::find(picked.begin(), picked.end(), i) == picked.end())
        stmts.push_back(body->stmts[i]);
    auto loop = std::make_shared<For>(*f);
    loop->body = Block::make(std::move(stmts), body->loc);
    return loop;
  }

  Kernel &k;
  int threads;
  PointerOrigins origins;
};

} // namespace

bool hasStagedLoops(const Kernel &k) {
  bool staged = false;
  forEachStmt(k.body, [&](const Stmt &s) {
    if (auto f = as<For>(s))
      staged = staged || (f->numStages ? f->numStages : k.settings.numStages) >= 2;
  });
  return staged;
}

namespace {

class PrefetchLoadsPass : public Pass {
public:
  const char *name() const override { return "prefetch-loads"; }
  void run(Module &m, PassContext &) override {
    for (auto &k : m.kernels) {
      if (!hasStagedLoops(k))
        continue;
      PrefetchLoads p(k, k.settings.numWarps * k.warpSize);
      Stmt body = p.mutate(k.body);
      // A declaration that only fed a prefetched load is read no more.
      if (body != k.body)
        k.body = removeDeadDecls(body);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createPrefetchLoadsPass() { return std::make_unique<PrefetchLoadsPass>(); }

} // namespace tilec::passes
