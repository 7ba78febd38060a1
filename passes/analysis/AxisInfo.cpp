// Axis analysis (see AxisInfo.h for the facts and their meaning). The rules follow Triton's
// AxisInfo visitors, restricted to tilec's nodes.
#include "passes/analysis/AxisInfo.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace tilec::passes {

using namespace ir;

AxisInfo AxisInfo::unknown(int rank) {
  AxisInfo a;
  int n = std::max(1, rank);
  a.contiguity.assign(n, 1);
  a.divisibility.assign(n, 1);
  a.constancy.assign(n, 1);
  return a;
}

int64_t AxisInfo::divisibilityOf(int64_t v) {
  if (v == 0)
    return kMaxDivisibility;
  uint64_t u = static_cast<uint64_t>(v < 0 ? -(v + 1) + 1 : v); // |v| without overflow
  int64_t d = static_cast<int64_t>(u & (~u + 1));
  return std::min(d, kMaxDivisibility);
}

bool AxisInfo::operator==(const AxisInfo &o) const {
  for (int d = 0; d < rank(); ++d)
    if (prefix(d) != o.prefix(d))
      return false;
  return contiguity == o.contiguity && divisibility == o.divisibility &&
         constancy == o.constancy && constantValue == o.constantValue &&
         nonNegative == o.nonNegative;
}

namespace {

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }
int64_t capMul(int64_t a, int64_t b) {
  if (a >= AxisInfo::kMaxDivisibility || b >= AxisInfo::kMaxDivisibility)
    return AxisInfo::kMaxDivisibility;
  return std::min(a * b, AxisInfo::kMaxDivisibility);
}
/// Divisibility of every value (not only run starts) along dim d: a run of consecutive values
/// contains odd ones.
int64_t elemDiv(const AxisInfo &a, int d) { return a.contiguity[d] > 1 ? 1 : a.divisibility[d]; }
/// Divisibility of every element of the tile (over all dims).
int64_t valueDiv(const AxisInfo &a) {
  int64_t best = 1;
  for (int d = 0; d < a.rank(); ++d)
    if (a.contiguity[d] == 1)
      best = std::max(best, a.divisibility[d]);
  return best;
}
/// Meet: what is true of both.
AxisInfo meet(const AxisInfo &a, const AxisInfo &b) {
  AxisInfo r = AxisInfo::unknown(a.rank());
  for (int d = 0; d < a.rank(); ++d) {
    r.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
    r.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  if (a.constantValue && b.constantValue && *a.constantValue == *b.constantValue)
    r.constantValue = a.constantValue;
  r.nonNegative = a.nonNegative && b.nonNegative;
  if (!a.truePrefix.empty() || !b.truePrefix.empty()) {
    r.truePrefix.resize(a.rank());
    for (int d = 0; d < a.rank(); ++d)
      r.truePrefix[d] = std::min(a.prefix(d), b.prefix(d));
  }
  return r;
}
/// Constancy carries (gcd of the operands), nothing else.
AxisInfo constancyOnly(const std::vector<const AxisInfo *> &ops, int rank) {
  AxisInfo r = AxisInfo::unknown(rank);
  for (int d = 0; d < r.rank(); ++d) {
    int64_t c = ops[0]->constancy[d];
    for (auto *o : ops)
      c = gcd(c, o->constancy[d]);
    r.constancy[d] = c;
  }
  return r;
}

} // namespace

AxisAnalysis::AxisAnalysis(const Kernel &k)
    : divisibleBy16(k.divisibleBy16), equalToOne(k.equalToOne) {
  for (auto &p : k.params)
    defs[p.get()];
  collect(k.body, 0);
}

void AxisAnalysis::collect(const Stmt &s, int loopDepth) {
  if (!s)
    return;
  switch (s->kind) {
  case StmtKind::Block:
    for (auto &c : as<Block>(s)->stmts)
      collect(c, loopDepth);
    break;
  case StmtKind::Decl: {
    auto *d = as<Decl>(s);
    auto &vd = defs[d->var.get()];
    if (d->init)
      vd.values.push_back(d->init);
    break;
  }
  case StmtKind::Assign: {
    auto *a = as<Assign>(s);
    auto &vd = defs[a->var.get()];
    vd.values.push_back(a->value);
    vd.inLoop |= loopDepth > 0;
    break;
  }
  case StmtKind::For: {
    auto *f = as<For>(s);
    auto &vd = defs[f->var.get()];
    vd.loopBegin = f->begin;
    vd.loopStep = f->step;
    collect(f->body, loopDepth + 1);
    break;
  }
  case StmtKind::While:
    collect(as<While>(s)->body, loopDepth + 1);
    break;
  case StmtKind::If:
    collect(as<If>(s)->thenS, loopDepth);
    collect(as<If>(s)->elseS, loopDepth);
    break;
  default:
    break;
  }
}

AxisInfo AxisAnalysis::var(const Var &v) {
  auto it = varCache.find(v.get());
  if (it != varCache.end())
    return it->second;
  int rank = v->type.rank();
  if (inProgress.count(v.get()))
    return AxisInfo::unknown(rank); // loop-carried or self reference: nothing known
  AxisInfo r = AxisInfo::unknown(rank);
  auto dit = defs.find(v.get());
  if (v->kind == VarKind::Param) {
    if (v->type.pointer)
      r.divisibility[0] = byteSize(v->type.elem);
    if (divisibleBy16.count(v->id)) // an aligned variant's assumption, checked by its launcher
      r.divisibility[0] = std::max<int64_t>(r.divisibility[0], 16);
    if (equalToOne.count(v->id)) { // the same
      r.constantValue = 1;
      r.nonNegative = true;
    }
  } else if (v->kind == VarKind::LoopIndex) {
    if (dit != defs.end() && dit->second.loopBegin) {
      inProgress.insert(v.get());
      const AxisInfo &b = get(dit->second.loopBegin);
      const AxisInfo &st = get(dit->second.loopStep);
      r.divisibility[0] = gcd(valueDiv(b), valueDiv(st));
      r.nonNegative = b.nonNegative && st.nonNegative;
      inProgress.erase(v.get());
    }
  } else if (dit != defs.end() && !dit->second.values.empty()) {
    inProgress.insert(v.get());
    // `v = v + step` with the same step in every element (a pointer tile advanced along K:
    // `a_ptrs += BLOCK_K * stride_ak`) moves every run by the same amount: contiguity and
    // constancy stay those of v's other values, divisibility meets the step's (in bytes for
    // pointers). Any other value meets as it is.
    std::vector<AxisInfo> steps;
    std::optional<AxisInfo> rest;
    for (const Expr &value : dit->second.values) {
      auto *b = as<Binary>(value);
      auto *self = b ? as<VarRef>(b->a) : nullptr;
      if (self && self->var == v && (b->op == BinaryOp::Add || b->op == BinaryOp::Sub) &&
          !b->b->type.pointer) {
        const AxisInfo &step = get(b->b);
        bool uniform = true;
        for (int d = 0; d < rank; ++d)
          uniform = uniform && step.constancy[d] >= v->type.shape[d];
        if (uniform) {
          steps.push_back(step);
          continue;
        }
      }
      rest = rest ? meet(*rest, get(value)) : get(value);
    }
    if (rest) {
      r = *rest;
      const int64_t unit = v->type.pointer ? byteSize(v->type.elem) : 1;
      for (const AxisInfo &step : steps) {
        for (int d = 0; d < std::max(1, rank); ++d)
          r.divisibility[d] = gcd(r.divisibility[d], capMul(valueDiv(step), unit));
        r.constantValue.reset();
        r.nonNegative = r.nonNegative && step.nonNegative;
        r.truePrefix.clear();
      }
    }
    inProgress.erase(v.get());
  }
  varCache[v.get()] = r;
  return r;
}

const AxisInfo &AxisAnalysis::get(const Expr &e) {
  auto it = cache.find(e.get());
  if (it != cache.end())
    return it->second;
  AxisInfo r = compute(e);
  keepAlive.push_back(e);
  return cache[e.get()] = std::move(r);
}

AxisInfo AxisAnalysis::compute(const Expr &e) {
  const int rank = e->type.rank();
  const int n = std::max(1, rank);
  AxisInfo r = AxisInfo::unknown(rank);
  switch (e->kind) {
  case ExprKind::IntImm: {
    int64_t v = as<IntImm>(e)->value;
    r.divisibility[0] = AxisInfo::divisibilityOf(v);
    r.constantValue = v;
    r.nonNegative = v >= 0;
    return r;
  }
  case ExprKind::VarRef:
    return var(as<VarRef>(e)->var);
  case ExprKind::Arange: {
    auto *a = as<Arange>(e);
    r.contiguity[0] = a->end - a->start;
    r.divisibility[0] = AxisInfo::divisibilityOf(a->start);
    r.nonNegative = a->start >= 0;
    return r;
  }
  case ExprKind::Splat: {
    AxisInfo s = get(as<Splat>(e)->a);
    for (int d = 0; d < n; ++d) {
      r.constancy[d] = e->type.shape[d];
      r.divisibility[d] = s.divisibility[0];
    }
    r.constantValue = s.constantValue;
    r.nonNegative = s.nonNegative;
    return r;
  }
  case ExprKind::ExpandDims: {
    auto *x = as<ExpandDims>(e);
    AxisInfo a = get(x->a);
    int64_t vd = valueDiv(a);
    a.contiguity.insert(a.contiguity.begin() + x->axis, 1);
    a.divisibility.insert(a.divisibility.begin() + x->axis, vd);
    a.constancy.insert(a.constancy.begin() + x->axis, 1);
    if (!a.truePrefix.empty())
      a.truePrefix.insert(a.truePrefix.begin() + x->axis, 1);
    return a;
  }
  case ExprKind::Broadcast: {
    auto *b = as<Broadcast>(e);
    AxisInfo a = get(b->a);
    for (int d = 0; d < n; ++d)
      if (b->a->type.shape[d] != e->type.shape[d]) {
        a.contiguity[d] = 1;
        a.constancy[d] = e->type.shape[d];
        if (!a.truePrefix.empty())
          a.truePrefix[d] = e->type.shape[d];
      }
    return a;
  }
  case ExprKind::Trans: { // the same values, the facts of the operand's dim perm[d] now along d
    const auto *x = as<Trans>(e);
    AxisInfo a = get(x->a);
    for (auto *v : {&a.contiguity, &a.divisibility, &a.constancy, &a.truePrefix})
      if (v->size() == x->perm.size()) {
        const std::vector<int64_t> in = *v;
        for (size_t d = 0; d < x->perm.size(); ++d)
          (*v)[d] = in[x->perm[d]];
      }
    return a;
  }
  case ExprKind::Hint: {
    auto *h = as<Hint>(e);
    AxisInfo a = get(h->a);
    for (int d = 0; d < n; ++d) {
      int64_t v = std::max<int64_t>(1, h->values[d]);
      if (h->hint == HintKind::MultipleOf)
        a.divisibility[d] = std::min(AxisInfo::divisibilityOf(v), AxisInfo::kMaxDivisibility);
      else // runs of v hold aligned runs of every power of two dividing v, no longer ones
        a.contiguity[d] = rank ? std::min<int64_t>(AxisInfo::divisibilityOf(v), e->type.shape[d]) : 1;
    }
    return a;
  }
  case ExprKind::ConvertLayout:
    return get(as<ConvertLayout>(e)->a);
  case ExprKind::Cast: {
    auto *c = as<Cast>(e);
    AxisInfo a = get(c->a);
    ScalarType from = c->a->type.elem, to = e->type.elem;
    // Integer widening keeps every fact (the values are unchanged); anything else keeps constancy.
    if (isInt(from) && isInt(to) && !c->a->type.pointer && bitWidth(to) >= bitWidth(from))
      return a;
    AxisInfo k = constancyOnly({&a}, rank);
    if (from == to && c->a->type.pointer == e->type.pointer)
      return a;
    return k;
  }
  case ExprKind::Unary: {
    auto *u = as<Unary>(e);
    AxisInfo a = get(u->a);
    AxisInfo k = constancyOnly({&a}, rank);
    if (u->op == UnaryOp::Neg && isInt(e->type.elem)) {
      for (int d = 0; d < n; ++d)
        k.divisibility[d] = elemDiv(a, d);
      if (a.constantValue && *a.constantValue != INT64_MIN)
        k.constantValue = -*a.constantValue;
    }
    return k;
  }
  case ExprKind::Select: {
    auto *s = as<Select>(e);
    AxisInfo c = get(s->cond), a = get(s->a), b = get(s->b);
    AxisInfo k = constancyOnly({&c, &a, &b}, rank);
    for (int d = 0; d < n; ++d)
      k.divisibility[d] = gcd(elemDiv(a, d), elemDiv(b, d));
    k.nonNegative = a.nonNegative && b.nonNegative;
    return k;
  }
  case ExprKind::Math: {
    auto *m = as<Math>(e);
    std::vector<AxisInfo> args;
    for (auto &x : m->args)
      args.push_back(get(x));
    std::vector<const AxisInfo *> ps;
    for (auto &x : args)
      ps.push_back(&x);
    return constancyOnly(ps, rank);
  }
  case ExprKind::Binary: {
    auto *b = as<Binary>(e);
    AxisInfo x = get(b->a), y = get(b->b);
    AxisInfo k = constancyOnly({&x, &y}, rank);
    const bool ints = !e->type.pointer ? isInt(b->a->type.elem) : true;
    const bool bothNonNeg = ints && !e->type.pointer && x.nonNegative && y.nonNegative;
    switch (b->op) {
    case BinaryOp::Add:
    case BinaryOp::Sub: {
      if (!ints)
        return k;
      // Pointer arithmetic: offsets count elements, divisibility of pointers counts bytes.
      int64_t sx = 1, sy = 1;
      if (b->a->type.pointer && !b->b->type.pointer)
        sy = byteSize(b->a->type.elem);
      if (b->b->type.pointer && !b->a->type.pointer)
        sx = byteSize(b->b->type.elem);
      // Bytes (pointers) or units (integers) one step of each operand's value moves.
      int64_t ux = b->a->type.pointer ? byteSize(b->a->type.elem) : sx;
      int64_t uy = b->b->type.pointer ? byteSize(b->b->type.elem) : sy;
      for (int d = 0; d < n; ++d) {
        int64_t c1 = gcd(x.contiguity[d], y.constancy[d]);
        int64_t c2 = b->op == BinaryOp::Add ? gcd(x.constancy[d], y.contiguity[d]) : 1;
        int64_t c = std::max(c1, c2);
        k.contiguity[d] = c;
        // What divides an operand at the result's run starts (positions that are multiples of
        // c): its run starts plus multiples of c inside its own runs, or any element when the
        // result's runs do not follow its runs (e.g. arange + arange: contiguity 1).
        auto at = [&](const AxisInfo &z, int64_t scale, int64_t unit) {
          int64_t dz = capMul(z.divisibility[d], scale);
          if (z.contiguity[d] == 1)
            return dz;
          if (c > 1 && z.contiguity[d] % c == 0)
            return gcd(dz, capMul(c, unit));
          return gcd(dz, unit);
        };
        k.divisibility[d] = gcd(at(x, sx, ux), at(y, sy, uy));
      }
      if (x.constantValue && y.constantValue && sx == 1 && sy == 1) {
        int64_t v;
        bool ovf = b->op == BinaryOp::Add
                       ? __builtin_add_overflow(*x.constantValue, *y.constantValue, &v)
                       : __builtin_sub_overflow(*x.constantValue, *y.constantValue, &v);
        if (!ovf)
          k.constantValue = v;
      }
      k.nonNegative = b->op == BinaryOp::Add && bothNonNeg;
      return k;
    }
    case BinaryOp::Mul: {
      if (!ints)
        return k;
      bool xOne = x.constantValue && *x.constantValue == 1;
      bool yOne = y.constantValue && *y.constantValue == 1;
      for (int d = 0; d < n; ++d) {
        if (yOne)
          k.contiguity[d] = x.contiguity[d];
        else if (xOne)
          k.contiguity[d] = y.contiguity[d];
        int64_t dx = yOne ? x.divisibility[d] : elemDiv(x, d);
        int64_t dy = xOne ? y.divisibility[d] : elemDiv(y, d);
        k.divisibility[d] = (xOne || yOne) ? (xOne ? dy : dx) : capMul(dx, dy);
      }
      if (x.constantValue && y.constantValue) {
        int64_t v;
        if (!__builtin_mul_overflow(*x.constantValue, *y.constantValue, &v))
          k.constantValue = v;
      }
      k.nonNegative = bothNonNeg;
      return k;
    }
    case BinaryOp::Div: {
      if (!ints)
        return k;
      // x / c with c a power of two dividing every x: divisibility shrinks by c.
      if (y.constantValue && *y.constantValue > 0) {
        int64_t c = *y.constantValue;
        for (int d = 0; d < n; ++d) {
          int64_t dx = elemDiv(x, d);
          if ((c & (c - 1)) == 0 && dx % c == 0 && dx < AxisInfo::kMaxDivisibility)
            k.divisibility[d] = dx / c;
          // Contiguous runs of x aligned to c give runs of c equal quotients (x >= 0: for
          // negative x, truncation puts -c..-1 and 0..c-1 in the same quotient 0).
          if (x.nonNegative && x.contiguity[d] > 1 && (c & (c - 1)) == 0 &&
              x.divisibility[d] % c == 0)
            k.constancy[d] = std::max(k.constancy[d], std::min(x.contiguity[d], c));
        }
        if (x.constantValue)
          k.constantValue = *x.constantValue / c;
      }
      k.nonNegative = bothNonNeg;
      return k;
    }
    case BinaryOp::Mod: {
      if (!ints)
        return k;
      if (y.constantValue && *y.constantValue > 0) {
        int64_t c = *y.constantValue;
        for (int d = 0; d < n; ++d) {
          // Runs of x aligned to c stay consecutive modulo c (x >= 0: a negative x has
          // remainders 0, -(c-1), ..., -1).
          if (x.nonNegative) {
            k.contiguity[d] = gcd(x.contiguity[d], AxisInfo::divisibilityOf(c));
            k.contiguity[d] = gcd(k.contiguity[d], x.divisibility[d]);
          }
          k.divisibility[d] = gcd(x.divisibility[d], AxisInfo::divisibilityOf(c));
        }
      }
      k.nonNegative = bothNonNeg;
      return k;
    }
    case BinaryOp::Shl: {
      if (y.constantValue && *y.constantValue >= 0 && *y.constantValue < 30)
        for (int d = 0; d < n; ++d)
          k.divisibility[d] = capMul(elemDiv(x, d), int64_t(1) << *y.constantValue);
      return k;
    }
    case BinaryOp::Shr: {
      if (y.constantValue && *y.constantValue >= 0 && *y.constantValue < 62)
        for (int d = 0; d < n; ++d)
          k.divisibility[d] = std::max<int64_t>(1, elemDiv(x, d) >> *y.constantValue);
      return k;
    }
    case BinaryOp::Min:
    case BinaryOp::Max:
      if (ints)
        for (int d = 0; d < n; ++d)
          k.divisibility[d] = gcd(elemDiv(x, d), elemDiv(y, d));
      k.nonNegative = ints && !e->type.pointer &&
                      (b->op == BinaryOp::Min ? x.nonNegative && y.nonNegative
                                              : x.nonNegative || y.nonNegative);
      return k;
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge: {
      // lo < hi (or <=) with lo rising by one and hi constant over a run is true, then false -
      // unless lo wraps around inside the run (integers wrap). A run whose first value is a
      // multiple of its length cannot hold the wrap point (2^31 or 2^63, a multiple of every
      // shorter power of two), so the run is also bounded by lo's divisibility.
      if (!ints || b->a->type.pointer || b->b->type.pointer)
        return k;
      const bool less = b->op == BinaryOp::Lt || b->op == BinaryOp::Le;
      const AxisInfo &lo = less ? x : y, &hi = less ? y : x;
      k.truePrefix.resize(n);
      for (int d = 0; d < n; ++d)
        k.truePrefix[d] = std::max(
            k.constancy[d], std::min({lo.contiguity[d], lo.divisibility[d], hi.constancy[d]}));
      // Strictly: with hi a multiple of the run length L as well, a run of lo (s .. s+L-1, s a
      // multiple of L) lies wholly below hi or wholly at or above it: the result is constant over
      // the run (Triton's rule, which lets a mask `offs < n` with n % 16 == 0 guard whole vectors).
      // `lo <= hi` is not: s == hi is true at the run's start only.
      const bool strict = b->op == BinaryOp::Lt || b->op == BinaryOp::Gt;
      if (strict)
        for (int d = 0; d < n; ++d)
          k.constancy[d] = std::max(k.constancy[d], std::min({lo.contiguity[d], lo.divisibility[d],
                                                              hi.constancy[d], elemDiv(hi, d)}));
      // The rising side on the other hand of a non-strict comparison: `up >= c` (or `c <= up`) is
      // `!(up < c)`, constant over the same runs (a tensor descriptor's `rows >= 0`).
      if (!strict) {
        const AxisInfo &up = less ? y : x, &c = less ? x : y;
        for (int d = 0; d < n; ++d)
          k.constancy[d] = std::max(k.constancy[d], std::min({up.contiguity[d], up.divisibility[d],
                                                              c.constancy[d], elemDiv(c, d)}));
      }
      return k;
    }
    case BinaryOp::And:
    case BinaryOp::Or:
    case BinaryOp::LAnd:
    case BinaryOp::LOr: {
      // The minimum or maximum of two true-then-false runs is true-then-false.
      if (e->type.elem != ScalarType::Bool)
        return k;
      k.truePrefix.resize(n);
      for (int d = 0; d < n; ++d)
        k.truePrefix[d] = std::min(x.prefix(d), y.prefix(d));
      return k;
    }
    default: // other bitwise operators and equality: constancy only
      return k;
    }
  }
  case ExprKind::ProgramId:
    r.nonNegative = true;
    return r;
  default: // FloatImm, Load, Reduce, lowered forms: nothing known
    return r;
  }
}

} // namespace tilec::passes
