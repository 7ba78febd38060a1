#include "passes/analysis/TileAffine.h"

#include <algorithm>

namespace tilec::passes {

using namespace ir;

AffineForm AffineForm::constant(int64_t v, Expr spelled) {
  AffineForm f;
  f.addTerm({}, {v, v != 0 ? spelled : nullptr});
  return f;
}

AffineForm AffineForm::atom(const std::string &key, Expr e) {
  AffineForm f;
  f.atoms_[key] = std::move(e);
  f.addTerm({key}, {1, nullptr});
  return f;
}

void AffineForm::addTerm(const Monomial &m, Coef c) {
  if (c.value == 0)
    return;
  auto it = terms_.find(m);
  if (it == terms_.end()) {
    terms_.emplace(m, c);
    return;
  }
  it->second.value += c.value;
  it->second.spelled = nullptr; // combined: the number
  if (it->second.value == 0)
    terms_.erase(it);
}

AffineForm AffineForm::operator+(const AffineForm &o) const {
  AffineForm r = *this;
  r.atoms_.insert(o.atoms_.begin(), o.atoms_.end());
  for (const auto &[m, c] : o.terms_)
    r.addTerm(m, c);
  return r;
}

AffineForm AffineForm::operator-(const AffineForm &o) const {
  AffineForm r = *this;
  r.atoms_.insert(o.atoms_.begin(), o.atoms_.end());
  for (const auto &[m, c] : o.terms_)
    r.addTerm(m, {-c.value, nullptr});
  return r;
}

AffineForm AffineForm::operator*(const AffineForm &o) const {
  AffineForm r;
  r.atoms_ = atoms_;
  r.atoms_.insert(o.atoms_.begin(), o.atoms_.end());
  for (const auto &[ma, ca] : terms_)
    for (const auto &[mb, cb] : o.terms_) {
      Monomial m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end());
      // A symbolic constant survives a product with a plain 1 only.
      Expr spelled = ca.value == 1 && !ca.spelled   ? cb.spelled
                     : cb.value == 1 && !cb.spelled ? ca.spelled
                                                    : nullptr;
      r.addTerm(m, {ca.value * cb.value, spelled});
    }
  return r;
}

AffineForm AffineForm::renamed(const std::string &from, const std::string &to) const {
  AffineForm r;
  r.atoms_ = atoms_;
  if (auto it = r.atoms_.find(from); it != r.atoms_.end()) {
    r.atoms_[to] = it->second;
    r.atoms_.erase(from);
  }
  for (const auto &[m, c] : terms_) {
    Monomial n = m;
    std::replace(n.begin(), n.end(), from, to);
    std::sort(n.begin(), n.end());
    r.addTerm(n, c);
  }
  return r;
}

bool AffineForm::has(const std::string &key) const {
  for (const auto &[m, c] : terms_)
    if (std::count(m.begin(), m.end(), key))
      return true;
  return false;
}

std::optional<AffineForm> AffineForm::split(const std::string &key, AffineForm *rest) const {
  AffineForm with, without;
  with.atoms_ = without.atoms_ = atoms_;
  for (const auto &[m, c] : terms_) {
    const auto n = std::count(m.begin(), m.end(), key);
    if (n > 1)
      return std::nullopt;
    if (n == 0) {
      without.addTerm(m, c);
      continue;
    }
    Monomial reduced = m;
    reduced.erase(std::find(reduced.begin(), reduced.end(), key));
    with.addTerm(reduced, c);
  }
  if (rest)
    *rest = without;
  return with;
}

std::optional<int64_t> AffineForm::constantValue() const {
  if (terms_.empty())
    return 0;
  if (terms_.size() == 1 && terms_.begin()->first.empty())
    return terms_.begin()->second.value;
  return std::nullopt;
}

std::vector<std::string> AffineForm::atomKeys() const {
  std::vector<std::string> keys;
  for (const auto &[m, c] : terms_)
    for (const std::string &a : m)
      if (!std::count(keys.begin(), keys.end(), a))
        keys.push_back(a);
  return keys;
}

Expr AffineForm::toExpr(ScalarType t, SourceLoc loc) const {
  // Terms with atoms first (in their order), the constant last: `pid_m * BLOCK_M + 1`.
  std::vector<std::pair<Monomial, Coef>> ordered(terms_.begin(), terms_.end());
  std::stable_partition(ordered.begin(), ordered.end(),
                        [](const auto &mc) { return !mc.first.empty(); });
  Expr sum;
  for (const auto &[m, c] : ordered) {
    Expr term;
    for (const std::string &a : m) {
      Expr x = atoms_.at(a);
      if (x->type.elem != t)
        x = Cast::make(t, x, loc);
      term = term ? Binary::make(BinaryOp::Mul, term, x, loc) : x;
    }
    const int64_t mag = c.value < 0 ? -c.value : c.value;
    Expr k = c.spelled && c.value > 0 ? c.spelled : IntImm::make(t, mag, loc);
    if (k->type.elem != t)
      k = Cast::make(t, k, loc);
    if (!term)
      term = k;
    else if (mag != 1 || (c.spelled && c.value > 0))
      term = Binary::make(BinaryOp::Mul, term, k, loc);
    if (!sum)
      sum = c.value < 0 ? Binary::make(BinaryOp::Sub, IntImm::make(t, 0, loc), term, loc) : term;
    else
      sum = Binary::make(c.value < 0 ? BinaryOp::Sub : BinaryOp::Add, sum, term, loc);
  }
  return sum ? sum : IntImm::make(t, 0, loc);
}

std::optional<AffineForm>
affineForm(const Expr &e, const std::function<Expr(const VarNode *)> &resolve,
           const std::function<std::optional<int64_t>(const VarNode *)> &constantOf) {
  auto rec = [&](const Expr &x) { return affineForm(x, resolve, constantOf); };
  if (!e)
    return std::nullopt;
  const bool intLike = e->type.pointer || isInt(e->type.elem);
  if (!intLike)
    return std::nullopt;
  switch (e->kind) {
  case ExprKind::IntImm: {
    auto i = as<IntImm>(e);
    return AffineForm::constant(i->value, i->symbol.empty() ? nullptr : e);
  }
  case ExprKind::VarRef: {
    const VarNode *v = as<VarRef>(e)->var.get();
    if (e->type.isTile()) {
      Expr def = resolve(v);
      return def ? rec(def) : std::nullopt;
    }
    if (auto c = constantOf(v))
      return AffineForm::constant(*c);
    return AffineForm::atom((e->type.pointer ? "p" : "v") + std::to_string(v->id), e);
  }
  case ExprKind::ProgramId: { // a value the block keeps: an atom, like a scalar variable
    auto g = as<ProgramId>(e);
    return AffineForm::atom((g->count ? "n" : "g") + std::to_string(g->axis), e);
  }
  case ExprKind::Arange: {
    auto a = as<Arange>(e);
    return AffineForm::constant(a->start) + AffineForm::atom(AffineForm::indexKey(0), nullptr);
  }
  case ExprKind::Splat:
    return rec(as<Splat>(e)->a);
  case ExprKind::Broadcast:
    return rec(as<Broadcast>(e)->a);
  case ExprKind::Hint:
    return rec(as<Hint>(e)->a);
  case ExprKind::ConvertLayout:
    return rec(as<ConvertLayout>(e)->a);
  case ExprKind::ExpandDims: {
    auto x = as<ExpandDims>(e);
    auto f = rec(x->a);
    if (!f)
      return std::nullopt;
    // Dimensions from the new one on move up by one (the highest first).
    for (int d = x->a->type.rank() - 1; d >= x->axis; --d)
      *f = f->renamed(AffineForm::indexKey(d), AffineForm::indexKey(d + 1));
    return f;
  }
  case ExprKind::Cast: {
    auto c = as<Cast>(e);
    if (!isInt(c->a->type.elem) || c->a->type.pointer || c->mode != CastMode::Convert)
      return std::nullopt;
    return rec(c->a);
  }
  case ExprKind::Binary: {
    auto b = as<Binary>(e);
    if (b->op != BinaryOp::Add && b->op != BinaryOp::Sub && b->op != BinaryOp::Mul)
      return std::nullopt;
    auto fa = rec(b->a), fb = rec(b->b);
    if (!fa || !fb)
      return std::nullopt;
    if (b->op == BinaryOp::Add)
      return *fa + *fb;
    if (b->op == BinaryOp::Sub)
      return *fa - *fb;
    return *fa * *fb;
  }
  default:
    return std::nullopt;
  }
}

} // namespace tilec::passes
