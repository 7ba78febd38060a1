// insert-barriers: places the block-wide barriers that order shared-memory accesses
// (docs/internals.md invariant 7), and those that keep the source's program order for global
// memory (docs/language.md "Program order"), and only those.
//
// Runs after: allocate-shared (hazards are decided on the allocated byte ranges, so two buffers
// that reuse the same bytes are ordered too; a buffer without an offset only conflicts with
// itself).
// Guarantees: no shared read can see a write of another thread from the same phase
// (read-after-write), and no shared write can overwrite bytes another thread may still read or
// write (write-after-read, write-after-write), without a barrier in between; every barrier has a
// shared or global access since the previous one (barriers the lowering placed are kept when they
// order something, dropped when redundant), but for the kernel's own `tl::debug_barrier()`s
// (`Barrier::debug`), which stay where they are.
//
// Global memory: two accesses of a block (loads, stores), one a store, are ordered by a barrier
// unless they cannot touch one address from two threads:
//  - pointers derived from different pointer parameters do not alias (the rule of Triton and of
//    `__restrict__` code); a pointer whose parameter is unknown may alias every one;
//  - the same pointer expression over the same values (no variable in it assigned or redeclared
//    in between, not a loop-carried pair whose values changed) in the same layout reaches each
//    address from one thread only, when its elements hold different addresses (offsets of aranges
//    and constants, checked element by element) and are not replicated: a store's replicas skip
//    it, a scalar store is thread 0's, but a load of replicated elements (or a scalar load) is
//    every replica's, so it conflicts with a store to the same pointer.
// The emitted barrier says which two accesses it orders.
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
#include "passes/analysis/PointerOrigins.h"

#include "ir/Equality.h"
#include "ir/IRVisitor.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace tilec::passes {

namespace {

using namespace ir;

/// A shared access (byte range) or a global one (the pointer parameters it may reach, -1 for any;
/// the pointer expression while its values are those of the access, else null).
struct Access {
  int64_t lo = 0, hi = 0;
  bool write = false;
  bool global = false;
  // An AsyncCopy's write, in flight: it lands at an AsyncWait (and becomes a plain write), and no
  // barrier orders it before that. Meanwhile the pipeline reads other stages of the buffer (the
  // emulator checks that), so it conflicts with nothing; the copy itself is ordered after earlier
  // accesses of the buffer like any write.
  bool async = false;
  std::set<int> params;
  Expr ptr; // with the locals it reads replaced by their definitions (BarrierPlacement::expand)
  // Made in an earlier iteration of the loop over `shiftVar`, which has since advanced by a
  // nonzero multiple of `shiftStep` (0: not a constant); the other variables of `ptr` kept their
  // values.
  const VarNode *shiftVar = nullptr;
  int64_t shiftStep = 0;
  // Shared: the stage of a two-stage buffer, relative to a variable (ir::StageRef); the stages
  // `v` and `1 - v` do not meet while `v` keeps its value (pipeline-dots' double buffering).
  StageRef stage;
  SourceLoc loc; // global: the statement, for the barrier's comment
  bool operator<(const Access &o) const {
    return std::tie(global, lo, hi, write, async, params, ptr, shiftVar, shiftStep, stage.var,
                    stage.other, loc.file, loc.line, loc.col) <
           std::tie(o.global, o.lo, o.hi, o.write, o.async, o.params, o.ptr, o.shiftVar,
                    o.shiftStep, o.stage.var, o.stage.other, o.loc.file, o.loc.line, o.loc.col);
  }
};
using Pending = std::set<Access>;

class BarrierPlacement {
public:
  explicit BarrierPlacement(Kernel &k) : k(k), origins(k) {}

  void run() {
    definitions();
    walk(k.body, {});
    k.body = rebuildOne(k.body);
  }

private:
  Access rangeOf(int buf, bool write) const {
    const SharedBuffer &b = k.buffers.at(buf);
    Access a;
    a.write = write;
    if (b.offsetBytes < 0) { // not allocated: a range of its own, disjoint from every other buffer
      a.lo = -1 - int64_t(buf);
      a.hi = -int64_t(buf);
    } else {
      a.lo = b.offsetBytes;
      a.hi = b.offsetBytes + b.sizeBytes;
    }
    return a;
  }

  static void forEachNode(const Expr &e, const std::function<void(const ExprNode *)> &f) {
    if (e)
      forEachExpr(Decl::make(std::make_shared<VarNode>(), e), f);
  }

  // ---- what a pointer expression computes, for comparing two accesses
  // Locals declared once, never assigned, whose value is a pure function of scalars, indices and
  // constants (no load, no shared memory) that the kernel never assigns either: a pointer
  // expression reads them through their definition, so that it names its addresses by the
  // variables that can change (loop indices, which `advances` follows).
  void definitions() {
    std::map<const VarNode *, int> decls, assigns;
    std::map<const VarNode *, Expr> init;
    forEachStmt(k.body, [&](const Stmt &s) {
      if (auto *d = as<Decl>(s)) {
        ++decls[d->var.get()];
        init[d->var.get()] = d->init;
      } else if (auto *a = as<Assign>(s); a && !keepsValue(a)) {
        ++assigns[a->var.get()];
      }
    });
    for (auto &[v, e] : init) {
      if (decls[v] != 1 || assigns.count(v) || !e)
        continue;
      bool pure = true;
      forEachNode(e, [&](const ExprNode *n) {
        // A variable the kernel assigns could change between the definition and an access through
        // it: the definition would then name other addresses than the local holds.
        if (n->kind == ExprKind::VarRef && assigns.count(static_cast<const VarRef *>(n)->var.get()))
          pure = false;
        switch (n->kind) {
        case ExprKind::IntImm:
        case ExprKind::FloatImm:
        case ExprKind::VarRef:
        case ExprKind::Unary:
        case ExprKind::Binary:
        case ExprKind::Select:
        case ExprKind::Cast:
        case ExprKind::ProgramId:
        case ExprKind::Arange:
        case ExprKind::Splat:
        case ExprKind::ExpandDims:
        case ExprKind::Broadcast:
        case ExprKind::Trans:
        case ExprKind::Hint:
        case ExprKind::ConvertLayout: break;
        case ExprKind::Math: // (inline assembly is not computed again)
          pure = pure && static_cast<const Math *>(n)->op != MathOp::InlineAsm;
          break;
        default: pure = false;
        }
      });
      if (pure)
        defs[v] = e;
    }
  }

  // `offs = tl::multiple_of(offs, 16)`: hints leave the value as it is.
  static bool keepsValue(const Assign *a) {
    const Expr *e = &a->value;
    while (auto *h = as<Hint>(*e))
      e = &h->a;
    auto *r = as<VarRef>(*e);
    return r && r->var == a->var;
  }

  class Expander : public IRMutator {
  public:
    explicit Expander(const BarrierPlacement &b) : b(b) {}
    using IRMutator::mutate;

  protected:
    Expr mutate(const VarRef *r, const Expr &self) override {
      auto it = b.defs.find(r->var.get());
      if (it == b.defs.end() || depth > 64)
        return self;
      ++depth;
      Expr e = mutate(it->second);
      --depth;
      return e;
    }

  private:
    const BarrierPlacement &b;
    int depth = 0;
  };
  // Memoized: the walk over a loop re-visits statements until the pending set is stable, and the
  // accesses' pointers must then be the same objects.
  Expr expand(const Expr &e) const {
    auto it = expanded.find(e.get());
    if (it != expanded.end())
      return it->second;
    Expander x(*this);
    Expr r = x.mutate(e);
    expanded.emplace(e.get(), r);
    return r;
  }

  // An integer (or pointer) expression as `coef * v + u + t(element)`, u the same for every
  // element and both iterations compared, t(element) within [lo, hi].
  struct Affine {
    int64_t coef = 0, lo = 0, hi = 0;
    bool uniform() const { return coef == 0 && lo == hi; }
  };
  static std::optional<Affine> affine(const Expr &e, const VarNode *v) {
    constexpr int64_t big = int64_t(1) << 40;
    auto bounded = [&](Affine a) -> std::optional<Affine> {
      if (a.coef > big || a.coef < -big || a.lo < -big || a.hi > big)
        return std::nullopt;
      return a;
    };
    if (!e)
      return std::nullopt;
    switch (e->kind) {
    case ExprKind::IntImm: {
      int64_t c = as<IntImm>(e)->value;
      return bounded({0, c, c});
    }
    case ExprKind::VarRef: {
      const VarNode *u = as<VarRef>(e)->var.get();
      if (u == v)
        return Affine{1, 0, 0};
      if (e->type.isScalar()) // a scalar: one value for every thread, unchanged between the two
        return Affine{};
      return std::nullopt;
    }
    case ExprKind::ProgramId: return Affine{};
    case ExprKind::Arange: return bounded({0, as<Arange>(e)->start, as<Arange>(e)->end - 1});
    case ExprKind::Splat: return affine(as<Splat>(e)->a, v);
    case ExprKind::Broadcast: return affine(as<Broadcast>(e)->a, v);
    case ExprKind::ExpandDims: return affine(as<ExpandDims>(e)->a, v);
    case ExprKind::Trans: return affine(as<Trans>(e)->a, v);
    case ExprKind::Hint: return affine(as<Hint>(e)->a, v);
    case ExprKind::ConvertLayout: return affine(as<ConvertLayout>(e)->a, v);
    case ExprKind::Cast:
      if (isInt(e->type.elem) && isInt(as<Cast>(e)->a->type.elem))
        return affine(as<Cast>(e)->a, v);
      return std::nullopt;
    case ExprKind::Binary: {
      auto *b = as<Binary>(e);
      auto x = affine(b->a, v), y = affine(b->b, v);
      if (!x || !y)
        return std::nullopt;
      switch (b->op) {
      case BinaryOp::Add: return bounded({x->coef + y->coef, x->lo + y->lo, x->hi + y->hi});
      case BinaryOp::Sub: return bounded({x->coef - y->coef, x->lo - y->hi, x->hi - y->lo});
      case BinaryOp::Mul: {
        if (x->uniform() && y->uniform())
          return Affine{};
        // By a constant (a literal, splat or not): other uniform factors are not known.
        auto c = constantOf(b->b);
        if (!c) {
          c = constantOf(b->a);
          std::swap(x, y);
        }
        if (!c || *c > big || *c < -big)
          return std::nullopt;
        Affine r{x->coef * *c, x->lo * *c, x->hi * *c};
        if (*c < 0)
          std::swap(r.lo, r.hi);
        return bounded(r);
      }
      default:
        if (x->uniform() && y->uniform())
          return Affine{};
        return std::nullopt;
      }
    }
    case ExprKind::Unary:
      if (as<Unary>(e)->op == UnaryOp::Neg) {
        auto x = affine(as<Unary>(e)->a, v);
        if (!x)
          return std::nullopt;
        return Affine{-x->coef, -x->hi, -x->lo};
      }
      [[fallthrough]];
    default:
      // Any other scalar that does not read the index: the same for every thread and iteration.
      if (e->type.isScalar() && !reads(e, v))
        return Affine{};
      return std::nullopt;
    }
  }
  static std::optional<int64_t> constantOf(const Expr &e) {
    if (auto *c = as<IntImm>(e))
      return c->value;
    if (auto *s = as<Splat>(e))
      return constantOf(s->a);
    if (auto *b = as<Broadcast>(e))
      return constantOf(b->a);
    return std::nullopt;
  }
  // Whether the addresses of `ptr` in two iterations of the loop over `v` (`step` apart, or a
  // nonzero multiple of it) are disjoint: the per-element spread is smaller than the move.
  static bool iterationsDisjoint(const Expr &ptr, const VarNode *v, int64_t step) {
    if (step == 0)
      return false;
    auto a = affine(ptr, v);
    if (!a || a->coef == 0)
      return false;
    __int128 move = static_cast<__int128>(a->coef) * step;
    if (move < 0)
      move = -move;
    return move > static_cast<__int128>(a->hi) - a->lo;
  }

  Access globalAccess(const Expr &ptr, bool write, const Stmt &s) const {
    Access a;
    a.global = true;
    a.write = write;
    a.params = origins.paramsOf(ptr);
    a.ptr = expand(ptr);
    a.loc = s->loc;
    return a;
  }

  // Shared and global accesses of the statement itself (not of nested statements), in execution
  // order.
  std::vector<Access> accessesOf(const Stmt &s) const {
    std::vector<Access> out;
    auto reads = [&](const Expr &e) {
      forEachNode(e, [&](const ExprNode *n) {
        for (int b : sharedBuffersRead(*n)) {
          out.push_back(rangeOf(b, false));
          out.back().stage = stageRead(*n);
        }
        if (n->kind == ExprKind::Load)
          out.push_back(globalAccess(static_cast<const Load *>(n)->ptr, false, s));
      });
    };
    switch (s->kind) {
    case StmtKind::Decl: reads(as<Decl>(s)->init); break;
    case StmtKind::Assign: reads(as<Assign>(s)->value); break;
    case StmtKind::Store:
      reads(as<Store>(s)->ptr);
      reads(as<Store>(s)->value);
      reads(as<Store>(s)->mask);
      reads(as<Store>(s)->cmp);
      out.push_back(globalAccess(as<Store>(s)->ptr, true, s));
      break;
    case StmtKind::Assert:
      reads(as<Assert>(s)->cond);
      break;
    case StmtKind::Print:
      reads(as<Print>(s)->value);
      break;
    case StmtKind::SharedWrite:
      reads(as<SharedWrite>(s)->stage);
      reads(as<SharedWrite>(s)->value);
      reads(as<SharedWrite>(s)->mask);
      out.push_back(rangeOf(as<SharedWrite>(s)->buffer, true));
      out.back().stage = stageRef(as<SharedWrite>(s)->stage);
      break;
    case StmtKind::AsyncCopy: {
      auto *c = as<AsyncCopy>(s);
      reads(c->stage);
      reads(c->mask);
      reads(c->row);
      reads(c->col);
      if (c->tma()) { // a box of the tensor at its parameter
        Access g;
        g.global = true;
        g.params = {k.buffers.at(c->buffer).tma->param};
        out.push_back(g);
      } else {
        // The copy reads global memory as a load of its pointers would.
        out.push_back(globalAccess(c->ptr, false, s));
      }
      Access w = rangeOf(c->buffer, true);
      w.async = true;
      out.push_back(w);
      break;
    }
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

  // Whether several threads hold one element of a pointer of this type (a scalar: every thread).
  static bool replicated(const Type &t) {
    if (t.isScalar())
      return true;
    if (!t.layout)
      return true;
    if (t.layout->kind == Layout::Kind::Slice)
      return true;
    LayoutGeometry g = geometry(*t.layout, t.shape);
    for (size_t d = 0; d < t.shape.size(); ++d)
      if (t.shape[d] < g.coverage[d])
        return true;
    return false;
  }
  // Whether two global accesses reach each address from one thread only, or not one address at
  // all (see the file comment). `a` is made now, `q` earlier.
  static bool neverFromTwoThreads(const Access &q, const Access &a) {
    if (q.write && a.write && q.ptr && a.ptr && q.ptr->type.isScalar() && a.ptr->type.isScalar())
      return true; // both thread 0's
    if (!q.ptr || !a.ptr || !equal(q.ptr, a.ptr))
      return false;
    if (q.shiftVar || a.shiftVar) // the same expression in two iterations of a loop
      return !(q.shiftVar && a.shiftVar) && iterationsDisjoint(a.ptr, q.shiftVar ? q.shiftVar : a.shiftVar,
                                                               q.shiftVar ? q.shiftStep : a.shiftStep);
    return (q.write || !replicated(q.ptr->type)) && (a.write || !replicated(a.ptr->type)) &&
           injective(a.ptr);
  }

  // The offset of one element of an integer or pointer tile, where it can be known: uniform parts
  // (scalars) count as 0 where they are only added, constants and aranges as themselves; null
  // where the element's value depends on something else (a scalar factor, a load, `%`).
  static std::optional<int64_t> offsetAt(const Expr &e, const std::vector<int64_t> &idx, bool additive) {
    if (!e)
      return std::nullopt;
    if (auto *c = as<IntImm>(e))
      return c->value;
    if (e->type.isScalar()) // the same for every element
      return additive ? std::optional<int64_t>(0) : std::nullopt;
    switch (e->kind) {
    case ExprKind::Arange: return as<Arange>(e)->start + idx.at(0);
    case ExprKind::Splat: return offsetAt(as<Splat>(e)->a, {}, additive);
    case ExprKind::Hint: return offsetAt(as<Hint>(e)->a, idx, additive);
    case ExprKind::ConvertLayout: return offsetAt(as<ConvertLayout>(e)->a, idx, additive);
    case ExprKind::Cast:
      if (!isInt(e->type.elem) || !isInt(as<Cast>(e)->a->type.elem))
        return std::nullopt;
      return offsetAt(as<Cast>(e)->a, idx, additive);
    case ExprKind::ExpandDims: {
      std::vector<int64_t> in = idx;
      in.erase(in.begin() + as<ExpandDims>(e)->axis);
      return offsetAt(as<ExpandDims>(e)->a, in, additive);
    }
    case ExprKind::Trans:
      return offsetAt(as<Trans>(e)->a, as<Trans>(e)->operandIndex(idx), additive);
    case ExprKind::Broadcast: {
      const Expr &a = as<Broadcast>(e)->a;
      std::vector<int64_t> in = idx;
      for (size_t d = 0; d < in.size() && d < a->type.shape.size(); ++d)
        if (a->type.shape[d] == 1)
          in[d] = 0;
      return offsetAt(a, in, additive);
    }
    case ExprKind::Binary: {
      auto *b = as<Binary>(e);
      const bool sum = b->op == BinaryOp::Add || b->op == BinaryOp::Sub;
      if (!sum && b->op != BinaryOp::Mul)
        return std::nullopt;
      auto x = offsetAt(b->a, idx, sum && additive), y = offsetAt(b->b, idx, sum && additive);
      if (!x || !y)
        return std::nullopt;
      constexpr int64_t big = int64_t(1) << 40;
      if (*x > big || *x < -big || *y > big || *y < -big)
        return std::nullopt;
      return b->op == BinaryOp::Add ? *x + *y : b->op == BinaryOp::Sub ? *x - *y : *x * *y;
    }
    default: return std::nullopt;
    }
  }
  // Whether the elements of a pointer tile hold different addresses (a scalar: one address), as far
  // as offsetAt knows them: then one pointer expression gives each thread addresses of its own.
  static bool injective(const Expr &ptr) {
    const Type &t = ptr->type;
    if (t.isScalar())
      return true;
    int64_t n = 1;
    for (int64_t d : t.shape)
      n *= d;
    if (n > (int64_t(1) << 16))
      return false;
    std::vector<int64_t> offsets;
    std::vector<int64_t> idx(t.shape.size(), 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t rest = i;
      for (size_t d = t.shape.size(); d-- > 0;) {
        idx[d] = rest % t.shape[d];
        rest /= t.shape[d];
      }
      auto o = offsetAt(ptr, idx, true);
      if (!o)
        return false;
      offsets.push_back(*o);
    }
    std::sort(offsets.begin(), offsets.end());
    return std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end();
  }
  static bool conflict(const Access &q, const Access &a) {
    if (!q.write && !a.write)
      return false;
    if (q.async) // in flight: see Access::async
      return false;
    if (q.global != a.global)
      return false;
    if (!a.global && q.stage.var && q.stage.var == a.stage.var && q.stage.other != a.stage.other)
      return false; // the two stages of a buffer
    if (!a.global)
      return q.lo < a.hi && a.lo < q.hi;
    bool alias = q.params.count(-1) || a.params.count(-1);
    for (int p : q.params)
      alias = alias || a.params.count(p);
    return alias && !neverFromTwoThreads(q, a);
  }

  // What a barrier leaves pending: the copies in flight.
  static Pending inFlightOf(const Pending &p) {
    Pending out;
    for (const Access &a : p)
      if (a.async)
        out.insert(a);
    return out;
  }

  // Accesses of `s` itself against the pending set: barrier before it if any conflicts.
  void own(const Stmt &s, Pending &p) {
    auto acc = accessesOf(s);
    for (auto &a : acc) {
      // The earliest conflicting access in the source names the barrier in its comment (the set's
      // order compares pointer expressions by address, which changes from run to run).
      const Access *hit = nullptr;
      auto before = [](const Access &x, const Access &y) {
        return std::tie(x.loc.file, x.loc.line, x.loc.col, x.write) <
               std::tie(y.loc.file, y.loc.line, y.loc.col, y.write);
      };
      for (auto &q : p)
        if (conflict(q, a) && (!hit || before(q, *hit)))
          hit = &q;
      if (hit) {
        if (hit->global)
          globalOrder[s.get()] = {hit->loc, hit->write, a.write};
        barrierBefore.insert(s.get());
        p = inFlightOf(p);
        break;
      }
    }
    p.insert(acc.begin(), acc.end());
    // An atomic whose old values go from the updating threads to the others through shared
    // memory (a scalar pointer's, or a replicated tile's) ends in a barrier of the emitter's.
    if (auto *st = as<Store>(s); st && st->result && replicated(st->ptr->type))
      p = inFlightOf(p);
  }

  struct GlobalOrder {
    SourceLoc earlier;
    bool earlierWrite, laterWrite;
    bool laterInLoop = false; // the later access is in the loop the barrier precedes
  };
  /// The earliest global access pending at a loop's entry that conflicts with a global access of
  /// its body, as the comment of a barrier before the loop; none when there is no such pair.
  std::optional<GlobalOrder> entryConflict(const Stmt &body, const Pending &p) const {
    std::optional<GlobalOrder> best;
    forEachStmt(body, [&](const Stmt &c) {
      if (c->kind == StmtKind::Block || c->kind == StmtKind::Barrier)
        return;
      for (const Access &a : accessesOf(c)) {
        if (!a.global)
          continue;
        for (const Access &q : p)
          if (q.global && conflict(q, a) &&
              (!best || std::tie(q.loc.file, q.loc.line, q.loc.col) <
                            std::tie(best->earlier.file, best->earlier.line, best->earlier.col)))
            best = GlobalOrder{q.loc, q.write, a.write, true};
      }
    });
    return best;
  }

  static bool reads(const Expr &e, const VarNode *v) {
    bool r = false;
    forEachNode(e, [&](const ExprNode *n) {
      r = r || (n->kind == ExprKind::VarRef && static_cast<const VarRef *>(n)->var.get() == v);
    });
    return r;
  }
  // `v` takes a new value: pending global accesses whose pointer reads it no longer name the
  // addresses that pointer computes now.
  static void changes(const VarNode *v, Pending &p) {
    Pending out;
    for (const Access &a : p) {
      Access c = a;
      if (reads(a.ptr, v)) {
        c.ptr = nullptr;
        c.shiftVar = nullptr;
        c.shiftStep = 0;
      }
      if (c.stage.var == v) // now names some stage
        c.stage = {};
      out.insert(std::move(c));
    }
    p = std::move(out);
  }
  // The loop over `f`'s index goes on to its next iteration: pending accesses whose pointer reads
  // the index were made at an earlier value of it.
  static void advances(const For *f, Pending &p) {
    const VarNode *v = f->var.get();
    int64_t step = 0;
    if (auto *c = as<IntImm>(f->step))
      step = c->value;
    Pending out;
    for (const Access &a : p) {
      Access c = a;
      if (reads(a.ptr, v)) {
        if (c.shiftVar && c.shiftVar != v) { // moved by two loops: not followed
          c.ptr = nullptr;
          c.shiftVar = nullptr;
          c.shiftStep = 0;
        } else {
          c.shiftVar = v;
          c.shiftStep = step;
        }
      }
      out.insert(std::move(c));
    }
    p = std::move(out);
  }

  Pending walk(const Stmt &s, Pending p) {
    if (!s)
      return p;
    switch (s->kind) {
    case StmtKind::Block:
      for (auto &c : as<Block>(s)->stmts)
        p = walk(c, std::move(p));
      return p;
    case StmtKind::Barrier: {
      Pending inFlight = inFlightOf(p);
      // Something besides copies in flight: the barrier orders it. The kernel's own
      // tl::debug_barrier() stays in any case.
      if (inFlight.size() != p.size() || as<Barrier>(s)->debug)
        keep.insert(s.get());
      return inFlight;
    }
    case StmtKind::AsyncWait: { // the copies in flight land
      Pending landed;
      const bool tma = as<AsyncWait>(s)->tma();
      for (Access a : p) {
        if (a.async && tma)
          continue; // a TMA wait: landed for every thread, which each waits
        a.async = false;
        landed.insert(a);
      }
      return landed;
    }
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
      if (s->kind == StmtKind::For) // the loop starts again: its index takes its first value
        changes(as<For>(s)->var.get(), p);
      // A global access before the loop that conflicts with one in it: the barrier goes before the
      // loop, once, rather than before that access in every iteration (the gradient written in
      // place after a scalar load of the row: Liger's cross-entropy shape).
      if (auto hit = entryConflict(body, p)) {
        globalOrder[s.get()] = *hit;
        barrierBefore.insert(s.get());
        p = inFlightOf(p);
      }
      // The accesses pending at the top of an iteration (the index already moved on, for a For).
      auto next = [&](Pending &q) {
        if (s->kind == StmtKind::For)
          advances(as<For>(s), q);
      };
      Pending in = p;
      next(in);
      for (;;) {
        Pending out = walk(body, in);
        size_t before = in.size();
        in.insert(out.begin(), out.end());
        next(in); // maps `in`'s own accesses to themselves: only `out` can add any
        if (in.size() != before)
          continue;
        // A product the loop leaves in flight reads its stages until the wgmma_wait after the
        // loop (SharedDot::inFlight): its reads are pending there too.
        if (s->kind == StmtKind::For)
          for (const auto &[assign, dot] : productsInFlight(*as<For>(s)))
            for (int b : {dot->bufferA, dot->bufferB})
              in.insert(rangeOf(b, false));
        return in; // zero iterations (p) or any number (out) are both in `in`
      }
    }
    case StmtKind::WarpSpecialize:
      // The consumers' barriers order their own accesses; the producer (TMA copies and scalar
      // code) is ordered against them by the ring's mbarriers, and never takes part in one.
      return walk(as<WarpSpecialize>(s)->consumers, std::move(p));
    case StmtKind::Decl:
      own(s, p);
      changes(as<Decl>(s)->var.get(), p); // declared again in a loop: a new value
      return p;
    case StmtKind::Assign:
      own(s, p);
      if (!keepsValue(as<Assign>(s)))
        changes(as<Assign>(s)->var.get(), p);
      return p;
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
    if (barrierBefore.count(s.get())) {
      auto b = std::make_shared<Barrier>();
      b->loc = s->loc;
      if (auto it = globalOrder.find(s.get()); it != globalOrder.end()) {
        b->globalEarlier = it->second.earlier;
        b->globalEarlierWrite = it->second.earlierWrite;
        b->globalLaterWrite = it->second.laterWrite;
        b->globalLaterInLoop = it->second.laterInLoop;
      }
      out.push_back(b);
    }
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
    case StmtKind::WarpSpecialize: {
      auto c = std::make_shared<WarpSpecialize>(*as<WarpSpecialize>(s));
      c->consumers = rebuildOne(c->consumers);
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
  PointerOrigins origins;                                 // pointer locals: their parameters
  std::map<const VarNode *, Expr> defs;                   // locals read through their definition
  mutable std::map<const ExprNode *, Expr> expanded;      // pointers with their locals expanded
  std::set<const StmtNode *> barrierBefore; // barriers to insert, before these statements
  std::map<const StmtNode *, GlobalOrder> globalOrder; // the global accesses those barriers order
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
