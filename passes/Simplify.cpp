// simplify: constant folding, algebraic identities and common-subexpression elimination.
//
// Before: nothing (runs first, on the translator's IR). After: the same program with
// - constants folded: integer arithmetic on scalar or splatted constants when the result is exact
//   in the type (no folding where C would overflow, divide by zero or shift out of range), f32
//   arithmetic and comparisons (exactly rounded like the target), casts of constants that are
//   exact, negation/not/complement;
// - identities removed: x+0 and x*0 (integers and pointer offsets), x-0, x*1, x/1, cast to the
//   same type; an integer or bool compared with itself is a constant, so is an unsigned value
//   compared with 0 where the answer is always the same (`x < 0`);
// - repeated declarations merged: a `decl %b = E` whose E is structurally equal to the init of an
//   earlier `decl %a = E` in the same or an enclosing block reuses %a (uses of %b are rewritten to
//   %a and the decl is dropped) when neither variable is ever assigned again, no variable E reads
//   is assigned in between (or in a loop or branch in between), and, if E loads, no store comes in
//   between. Constants and plain variable reads are not merged (the user's names stay).
//
//   decl %c: i32 = mul(4:i32, 256:i32)               ->  decl %c: i32 = 1024:i32
//   decl %p: tile<64xi32> = add(%x, splat(0:i32))    ->  decl %p: tile<64xi32> = %x
//   decl %m1 = lt(%offs, splat(%n)); decl %m2 = lt(%offs, splat(%n)); store(.., mask=%m2)
//                                                    ->  decl %m1 = ...; store(.., mask=%m1)
#include "ir/Equality.h"
#include "ir/IRVisitor.h"
#include "passes/Passes.h"

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace tilec::passes {

using namespace ir;

namespace {

bool fits(ScalarType t, int64_t v) {
  switch (t) {
  case ScalarType::Bool:
    return v == 0 || v == 1;
  case ScalarType::I8:
    return v >= -128 && v <= 127;
  case ScalarType::I32:
    return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
  case ScalarType::I16:
    return v >= std::numeric_limits<int16_t>::min() && v <= std::numeric_limits<int16_t>::max();
  case ScalarType::I64:
    return true;
  case ScalarType::U8:
  case ScalarType::U16:
  case ScalarType::U32:
    return v >= 0 && v < (int64_t{1} << bitWidth(t));
  case ScalarType::U64: // values past INT64_MAX (held as their bits) are not folded
    return v >= 0;
  default:
    return false;
  }
}

std::optional<int64_t> intConst(const Expr &e) {
  if (!e)
    return std::nullopt;
  if (auto *s = as<Splat>(e))
    return intConst(s->a);
  if (auto *i = as<IntImm>(e))
    if (!e->type.pointer)
      return i->value;
  return std::nullopt;
}

std::optional<double> floatConst(const Expr &e) {
  if (!e)
    return std::nullopt;
  if (auto *s = as<Splat>(e))
    return floatConst(s->a);
  if (auto *f = as<FloatImm>(e))
    return f->value;
  return std::nullopt;
}

/// A constant of `t`'s element type, splatted to `t`'s shape when `t` is a tile.
Expr intLike(const Type &t, int64_t v, SourceLoc loc) {
  Expr c = IntImm::make(t.elem, v, loc);
  return t.isTile() ? Splat::make(c, t.shape, loc) : c;
}
Expr floatLike(const Type &t, double v, SourceLoc loc) {
  Expr c = FloatImm::make(t.elem, v, loc);
  return t.isTile() ? Splat::make(c, t.shape, loc) : c;
}

std::optional<int64_t> foldInt(BinaryOp op, int64_t a, int64_t b, ScalarType t) {
  // Unsigned operands fold only as the non-negative values they are (a u64 past INT64_MAX never).
  if (isUnsigned(t) && (!fits(t, a) || !fits(t, b)))
    return std::nullopt;
  int64_t r = 0;
  switch (op) {
  case BinaryOp::Add:
    if (__builtin_add_overflow(a, b, &r))
      return std::nullopt;
    break;
  case BinaryOp::Sub:
    if (__builtin_sub_overflow(a, b, &r))
      return std::nullopt;
    break;
  case BinaryOp::Mul:
    if (__builtin_mul_overflow(a, b, &r))
      return std::nullopt;
    break;
  case BinaryOp::Div:
  case BinaryOp::Mod:
    if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1))
      return std::nullopt;
    r = op == BinaryOp::Div ? a / b : a % b;
    break;
  case BinaryOp::And: r = a & b; break;
  case BinaryOp::Or: r = a | b; break;
  case BinaryOp::Xor: r = a ^ b; break;
  case BinaryOp::Shl:
    if (b < 0 || b >= bitWidth(t) || a < 0 || a > (std::numeric_limits<int64_t>::max() >> b))
      return std::nullopt;
    r = a << b;
    break;
  case BinaryOp::Shr:
    if (b < 0 || b >= bitWidth(t))
      return std::nullopt;
    r = a >> b;
    break;
  case BinaryOp::LAnd: r = (a != 0) && (b != 0); break;
  case BinaryOp::LOr: r = (a != 0) || (b != 0); break;
  case BinaryOp::Lt: return a < b;
  case BinaryOp::Le: return a <= b;
  case BinaryOp::Gt: return a > b;
  case BinaryOp::Ge: return a >= b;
  case BinaryOp::Eq: return a == b;
  case BinaryOp::Ne: return a != b;
  case BinaryOp::Min: r = std::min(a, b); break;
  case BinaryOp::Max: r = std::max(a, b); break;
  }
  if (!fits(t, r))
    return std::nullopt;
  return r;
}

/// Folding and identities, bottom-up; also applies the CSE substitution of variables.
class Folder : public IRMutator {
public:
  explicit Folder(const std::map<const VarNode *, Var> &subst) : subst(subst) {}
  using IRMutator::mutate;

protected:
  Expr mutate(const VarRef *n, const Expr &self) override {
    auto it = subst.find(n->var.get());
    return it == subst.end() ? self : VarRef::make(it->second, n->loc);
  }

  Expr mutate(const Binary *n0, const Expr &self0) override {
    Expr self = IRMutator::mutate(n0, self0);
    auto *n = as<Binary>(self);
    const Type &t = n->type;
    const Expr &a = n->a, &b = n->b;
    bool intOperands = !a->type.pointer && !b->type.pointer &&
                       (isInt(a->type.elem) || a->type.elem == ScalarType::Bool);
    if (intOperands) {
      auto x = intConst(a), y = intConst(b);
      if (x && y)
        if (auto r = foldInt(n->op, *x, *y, a->type.elem))
          return intLike(t, *r, n->loc);
      // An unsigned value against 0 (`x < 0`, `x >= 0`, `0 > x`, `0 <= x`): a constant, and
      // printed as written a comparison nvcc calls pointless (#186-D, an error under -Werror).
      if (isUnsigned(a->type.elem)) {
        if (intConst(b) == 0 && (n->op == BinaryOp::Lt || n->op == BinaryOp::Ge))
          return intLike(t, n->op == BinaryOp::Ge, n->loc);
        if (intConst(a) == 0 && (n->op == BinaryOp::Gt || n->op == BinaryOp::Le))
          return intLike(t, n->op == BinaryOp::Le, n->loc);
      }
      // An integer compared with itself (`offs != offs`): a constant, and printed as written a
      // self-comparison that clang (hipcc) warns about. Not for floats, where x != x tests NaN.
      if (equal(a, b)) {
        switch (n->op) {
        case BinaryOp::Eq:
        case BinaryOp::Le:
        case BinaryOp::Ge: return intLike(t, 1, n->loc);
        case BinaryOp::Ne:
        case BinaryOp::Lt:
        case BinaryOp::Gt: return intLike(t, 0, n->loc);
        default: break;
        }
      }
    }
    if (a->type.elem == ScalarType::F32 && !a->type.pointer) {
      auto x = floatConst(a), y = floatConst(b);
      if (x && y) {
        float fx = static_cast<float>(*x), fy = static_cast<float>(*y);
        switch (n->op) {
        case BinaryOp::Add: return floatLike(t, fx + fy, n->loc);
        case BinaryOp::Sub: return floatLike(t, fx - fy, n->loc);
        case BinaryOp::Mul: return floatLike(t, fx * fy, n->loc);
        case BinaryOp::Div: return floatLike(t, fx / fy, n->loc);
        case BinaryOp::Min: return floatLike(t, std::fmin(fx, fy), n->loc);
        case BinaryOp::Max: return floatLike(t, std::fmax(fx, fy), n->loc);
        case BinaryOp::Lt: return intLike(t, fx < fy, n->loc);
        case BinaryOp::Le: return intLike(t, fx <= fy, n->loc);
        case BinaryOp::Gt: return intLike(t, fx > fy, n->loc);
        case BinaryOp::Ge: return intLike(t, fx >= fy, n->loc);
        case BinaryOp::Eq: return intLike(t, fx == fy, n->loc);
        case BinaryOp::Ne: return intLike(t, fx != fy, n->loc);
        default: break;
        }
      }
    }
    // Identities. `keep(x)` only when x already has the result's type (pointer + 0 keeps the
    // pointer; 0 + pointer does too).
    auto keep = [&](const Expr &x) -> Expr { return equalTypes(x->type, t) ? x : nullptr; };
    bool intLikeB = !b->type.pointer && isInt(b->type.elem);
    bool intLikeA = !a->type.pointer && isInt(a->type.elem);
    auto isIntVal = [](const Expr &e, bool ok, int64_t v) { return ok && intConst(e) == v; };
    auto isFloatVal = [](const Expr &e, double v) {
      auto f = floatConst(e);
      return f && *f == v && !std::signbit(*f);
    };
    Expr r;
    switch (n->op) {
    case BinaryOp::Add:
      if (isIntVal(b, intLikeB, 0))
        r = keep(a);
      else if (isIntVal(a, intLikeA, 0))
        r = keep(b);
      break;
    case BinaryOp::Sub:
      if (isIntVal(b, intLikeB, 0) || isFloatVal(b, 0.0))
        r = keep(a);
      break;
    case BinaryOp::Mul:
      if (isIntVal(b, intLikeB, 1) || isFloatVal(b, 1.0))
        r = keep(a);
      else if (isIntVal(a, intLikeA, 1) || isFloatVal(a, 1.0))
        r = keep(b);
      else if (isInt(t.elem) && !t.pointer &&
               (isIntVal(b, intLikeB, 0) || isIntVal(a, intLikeA, 0)))
        r = intLike(t, 0, n->loc);
      break;
    case BinaryOp::Div:
      if (isIntVal(b, intLikeB, 1) || isFloatVal(b, 1.0))
        r = keep(a);
      break;
    default:
      break;
    }
    return r ? r : self;
  }

  Expr mutate(const Unary *n0, const Expr &self0) override {
    Expr self = IRMutator::mutate(n0, self0);
    auto *n = as<Unary>(self);
    const Type &t = n->type;
    if (auto x = intConst(n->a); x && !t.pointer) {
      switch (n->op) {
      case UnaryOp::Neg:
        if (isInt(t.elem) && *x != std::numeric_limits<int64_t>::min() && fits(t.elem, -*x))
          return intLike(t, -*x, n->loc);
        break;
      case UnaryOp::Not:
        if (t.elem == ScalarType::Bool)
          return intLike(t, *x == 0, n->loc);
        break;
      case UnaryOp::BitNot:
        if (isInt(t.elem) && !isUnsigned(t.elem))
          return intLike(t, ~*x, n->loc);
        break;
      }
    }
    if (auto f = floatConst(n->a); f && n->op == UnaryOp::Neg)
      return floatLike(t, -*f, n->loc);
    return self;
  }

  Expr mutate(const Cast *n0, const Expr &self0) override {
    Expr self = IRMutator::mutate(n0, self0);
    auto *n = as<Cast>(self);
    const Type &t = n->type;
    if (equalTypes(n->a->type, t))
      return n->a;
    if (t.pointer || n->a->type.pointer || n->mode != CastMode::Convert)
      return self; // (a bitcast or a rounding toward zero is not folded)
    ScalarType to = t.elem, from = n->a->type.elem;
    if (auto x = intConst(n->a)) {
      if (to == ScalarType::Bool)
        return intLike(t, *x != 0, n->loc);
      const bool value = !(from == ScalarType::U64 && *x < 0); // (a u64 past INT64_MAX: bits)
      if (isInt(to) && value && fits(to, *x))
        return intLike(t, *x, n->loc);
      if (to == ScalarType::F32 && value && static_cast<double>(static_cast<float>(*x)) == *x)
        return floatLike(t, static_cast<float>(*x), n->loc);
      if (to == ScalarType::F64 && value && static_cast<int64_t>(static_cast<double>(*x)) == *x)
        return floatLike(t, static_cast<double>(*x), n->loc);
    }
    if (auto f = floatConst(n->a)) {
      if (to == ScalarType::Bool)
        return intLike(t, *f != 0, n->loc);
      if (isInt(to) && std::isfinite(*f)) {
        double tr = std::trunc(*f);
        if (tr >= -9.2e18 && tr <= 9.2e18 && fits(to, static_cast<int64_t>(tr)))
          return intLike(t, static_cast<int64_t>(tr), n->loc);
      }
      if (to == ScalarType::F32 && from != ScalarType::F32 && from != ScalarType::F64)
        return floatLike(t, *f, n->loc); // f16/bf16 values are exact in f32
      if (to == ScalarType::F64)
        return floatLike(t, *f, n->loc); // every narrower float is exact in f64
      if (to == ScalarType::F32 && from == ScalarType::F64)
        return floatLike(t, static_cast<float>(*f), n->loc);
    }
    return self;
  }

private:
  const std::map<const VarNode *, Var> &subst;
};

/// Variables assigned (Assign or loop index) and whether a store occurs, in a statement tree.
struct Effects {
  std::set<const VarNode *> assigned;
  bool stores = false;
};
void effectsOf(const Stmt &s, Effects &e) {
  if (!s)
    return;
  switch (s->kind) {
  case StmtKind::Block:
    for (auto &c : as<Block>(s)->stmts)
      effectsOf(c, e);
    break;
  case StmtKind::Assign:
    e.assigned.insert(as<Assign>(s)->var.get());
    break;
  case StmtKind::Store:
    if (const Var &r = as<Store>(s)->result) // an atomic's old values
      e.assigned.insert(r.get());
    e.stores = true;
    break;
  case StmtKind::SharedWrite:
    e.stores = true;
    break;
  case StmtKind::For:
    e.assigned.insert(as<For>(s)->var.get());
    effectsOf(as<For>(s)->body, e);
    break;
  case StmtKind::While:
    effectsOf(as<While>(s)->body, e);
    break;
  case StmtKind::If:
    effectsOf(as<If>(s)->thenS, e);
    effectsOf(as<If>(s)->elseS, e);
    break;
  default:
    break;
  }
}

struct Available {
  Var var;
  Expr init;
  std::set<const VarNode *> reads;
  bool loads = false;
};

class Simplifier {
public:
  explicit Simplifier(const Kernel &k) {
    Effects e;
    effectsOf(k.body, e);
    everAssigned = e.assigned;
  }

  Stmt block(const Stmt &s, std::vector<Available> avail) {
    if (!s)
      return s;
    if (s->kind != StmtKind::Block)
      return stmt(s, avail);
    std::vector<Stmt> out;
    for (auto &c : as<Block>(s)->stmts)
      if (Stmt r = stmt(c, avail))
        out.push_back(r);
    return Block::make(std::move(out), s->loc);
  }

private:
  Expr simplify(const Expr &e) {
    Folder f(subst);
    return f.mutate(e);
  }

  static void kill(std::vector<Available> &avail, const Effects &e) {
    std::vector<Available> keep;
    for (auto &a : avail) {
      bool dead = e.stores && a.loads;
      for (auto *v : a.reads)
        dead |= e.assigned.count(v) > 0;
      dead |= e.assigned.count(a.var.get()) > 0;
      if (!dead)
        keep.push_back(a);
    }
    avail = std::move(keep);
  }

  /// Returns null when the statement is dropped.
  Stmt stmt(const Stmt &s, std::vector<Available> &avail) {
    switch (s->kind) {
    case StmtKind::Block:
      return block(s, avail);
    case StmtKind::Decl: {
      auto *d = as<Decl>(s);
      Expr init = simplify(d->init);
      bool candidate = init && !everAssigned.count(d->var.get()) &&
                       init->kind != ExprKind::IntImm && init->kind != ExprKind::FloatImm &&
                       init->kind != ExprKind::VarRef;
      if (candidate) {
        for (auto &a : avail)
          if (equalTypes(a.var->type, d->var->type) && equal(a.init, init)) {
            subst[d->var.get()] = a.var;
            return nullptr;
          }
        Available a{d->var, init, {}, false};
        forEachExpr(Decl::make(d->var, init), [&](const ExprNode *e) {
          if (e->kind == ExprKind::VarRef)
            a.reads.insert(static_cast<const VarRef *>(e)->var.get());
          if (e->kind == ExprKind::Load)
            a.loads = true;
        });
        avail.push_back(std::move(a));
      }
      return init == d->init ? s : Decl::make(d->var, init, s->loc);
    }
    case StmtKind::Assign: {
      auto *a = as<Assign>(s);
      Expr v = simplify(a->value);
      Effects e;
      e.assigned.insert(a->var.get());
      kill(avail, e);
      return v == a->value ? s : Assign::make(a->var, v, s->loc);
    }
    case StmtKind::Store: {
      auto *st = as<Store>(s);
      auto c = std::make_shared<Store>(*st);
      c->ptr = simplify(st->ptr);
      c->value = simplify(st->value);
      c->mask = simplify(st->mask);
      c->cmp = simplify(st->cmp);
      Effects e;
      e.stores = true;
      if (st->result)
        e.assigned.insert(st->result.get());
      kill(avail, e);
      return c;
    }
    case StmtKind::Assert: {
      auto c = std::make_shared<Assert>(*as<Assert>(s));
      c->cond = simplify(c->cond);
      return c;
    }
    case StmtKind::Print: {
      auto c = std::make_shared<Print>(*as<Print>(s));
      c->value = simplify(c->value);
      return c;
    }
    case StmtKind::For: {
      auto *f = as<For>(s);
      auto c = std::make_shared<For>(*f);
      c->begin = simplify(f->begin);
      Effects e;
      effectsOf(s, e);
      kill(avail, e);
      c->end = simplify(f->end);
      c->step = simplify(f->step);
      c->body = block(f->body, avail);
      return c;
    }
    case StmtKind::While: {
      auto *w = as<While>(s);
      Effects e;
      effectsOf(s, e);
      kill(avail, e);
      Expr cond = simplify(w->cond);
      return While::make(cond, block(w->body, avail), s->loc);
    }
    case StmtKind::If: {
      auto *i = as<If>(s);
      Expr cond = simplify(i->cond);
      Stmt t = block(i->thenS, avail), el = block(i->elseS, avail);
      Effects e;
      effectsOf(s, e);
      kill(avail, e);
      auto c = std::make_shared<If>(*i);
      c->cond = cond;
      c->thenS = t;
      c->elseS = el;
      return c;
    }
    default:
      return s;
    }
  }

  std::set<const VarNode *> everAssigned;
  std::map<const VarNode *, Var> subst;
};

class SimplifyPass : public Pass {
public:
  const char *name() const override { return "simplify"; }
  void run(Module &m, PassContext &) override {
    for (auto &k : m.kernels) {
      Simplifier s(k);
      k.body = s.block(k.body, {});
    }
  }
};

} // namespace

std::unique_ptr<Pass> createSimplifyPass() { return std::make_unique<SimplifyPass>(); }

Expr foldConstants(const Expr &e) {
  const std::map<const VarNode *, Var> none;
  Folder f(none);
  return f.mutate(e);
}

} // namespace tilec::passes
