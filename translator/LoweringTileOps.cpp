/// KernelLowering, calls: the tile operations of tl.hpp (program_id, arange, zeros/full,
/// expand_dims, broadcast_to, load/store, where, minimum/maximum, cast, the math functions, the
/// reductions and the multiple_of/max_contiguous hints) and tl::tile's overloaded operators.
/// Result types come from the types Clang computed with tl.hpp; axes and hint values must be
/// compile-time constants. Any other call is reported as UnsupportedCall.

#include "translator/Lowering.h"

#include "ir/IRVisitor.h"
#include "ir/InlineAsm.h"

#include <limits>

#include <clang/AST/ExprCXX.h>

#include <algorithm>
#include <map>

namespace tilec::translator {

using ir::ScalarType;

void KernelLowering::unsupportedCall(const clang::CallExpr *call) {
  const clang::FunctionDecl *fd = call->getDirectCallee();
  std::string n = fd ? fd->getQualifiedNameAsString() : fe.text(call->getCallee()->getSourceRange());
  fe.fail(DiagId::UnsupportedCall, call->getExprLoc(), {n});
}

std::vector<const clang::Expr *> KernelLowering::callArgs(const clang::CallExpr *call) {
  std::vector<const clang::Expr *> r;
  for (const clang::Expr *a : call->arguments())
    if (!llvm::isa<clang::CXXDefaultArgExpr>(a))
      r.push_back(a);
  return r;
}

std::vector<int64_t> KernelLowering::intTemplateArgs(const clang::FunctionDecl *fd) {
  std::vector<int64_t> r;
  if (auto *args = fd->getTemplateSpecializationArgs())
    for (const auto &a : args->asArray()) {
      if (a.getKind() == clang::TemplateArgument::Integral)
        r.push_back(a.getAsIntegral().getExtValue());
      else if (a.getKind() == clang::TemplateArgument::Pack)
        for (const auto &p : a.pack_elements())
          if (p.getKind() == clang::TemplateArgument::Integral)
            r.push_back(p.getAsIntegral().getExtValue());
    }
  return r;
}

unsigned KernelLowering::explicitTemplateArgCount(const clang::CallExpr *call) {
  if (auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts()))
    return dre->getNumTemplateArgs();
  return 0;
}

int64_t KernelLowering::constArg(const clang::Expr *e, const std::string &what) {
  auto v = constInt(e);
  if (!v)
    fe.fail(DiagId::NotConstant, e->getExprLoc(), {what, fe.text(e->getSourceRange())});
  return *v;
}

ir::Expr KernelLowering::needTile(ir::Expr x, const clang::Expr *src, const std::string &op) {
  if (!x->type.isTile() || x->type.pointer)
    fe.fail(DiagId::BadOperand, src->getExprLoc(), {x->type.str(), op, "a tile of numbers"});
  return x;
}

bool KernelLowering::isMemoryOptions(clang::QualType t) {
  const auto *rd = t.getCanonicalType()->getAsCXXRecordDecl();
  return rd && rd->getIdentifier() && inTl(rd) &&
         (rd->getName() == "load_options" || rd->getName() == "store_options");
}

bool KernelLowering::isCastOptions(clang::QualType t) {
  const auto *rd = t.getCanonicalType()->getAsCXXRecordDecl();
  return rd && rd->getIdentifier() && inTl(rd) && rd->getName() == "cast_options";
}

std::vector<std::pair<std::string, int64_t>> KernelLowering::optionFields(const clang::Expr *e,
                                                                         const std::string &what) {
  clang::Expr::EvalResult r;
  if (!e->EvaluateAsRValue(r, ctx) || !r.Val.isStruct())
    fe.fail(DiagId::NotConstant, e->getExprLoc(), {what, fe.text(e->getSourceRange())});
  std::vector<std::pair<std::string, int64_t>> fields;
  for (const clang::FieldDecl *f :
       e->getType().getCanonicalType()->getAsCXXRecordDecl()->fields()) {
    const clang::APValue &v = r.Val.getStructField(f->getFieldIndex());
    if (v.isInt())
      fields.emplace_back(f->getName().str(), v.getInt().getExtValue());
  }
  return fields;
}

ir::MemHints KernelLowering::memoryHints(const clang::Expr *e, bool store) {
  const std::string op = store ? "tl::store" : "tl::load";
  // tl::cache and tl::eviction list their values in the order of ir::CacheModifier and
  // ir::EvictionPolicy.
  ir::MemHints h;
  for (const auto &[name, x] : optionFields(e, "the hints of '" + op + "'")) {
    if (name == "cache_modifier")
      h.cache = static_cast<ir::CacheModifier>(x);
    else if (name == "eviction_policy")
      h.evict = static_cast<ir::EvictionPolicy>(x);
    else if (name == "is_volatile")
      h.isVolatile = x != 0;
  }
  using C = ir::CacheModifier;
  const std::string modifier = std::string("cache_modifier '") + ir::name(h.cache) + "'";
  if (!store && (h.cache == C::Wb || h.cache == C::Cs || h.cache == C::Wt))
    fe.fail(DiagId::BadMemoryHint, e->getExprLoc(),
            {op, modifier + " is a store's; a load takes 'ca', 'cg' or 'cv'"});
  if (store && (h.cache == C::Ca || h.cache == C::Cv))
    fe.fail(DiagId::BadMemoryHint, e->getExprLoc(),
            {op, modifier + " is a load's; a store takes 'wb', 'cg', 'cs' or 'wt'"});
  if (h.isVolatile && (h.cache != C::None || h.evict != ir::EvictionPolicy::Normal))
    fe.fail(DiagId::BadMemoryHint, e->getExprLoc(),
            {op, "a volatile load takes no cache_modifier or eviction_policy (PTX's ld.volatile "
                 "has none)"});
  return h;
}

ir::CastMode KernelLowering::castMode(const clang::Expr *e, ir::ScalarType from,
                                      ir::ScalarType to) {
  bool bitcast = false, towardZero = false; // tl::rounding lists rtne, rtz
  for (const auto &[name, x] : optionFields(e, "the options of 'tl::cast'")) {
    if (name == "bitcast")
      bitcast = x != 0;
    else if (name == "fp_downcast_rounding")
      towardZero = x != 0;
  }
  auto fail = [&](const std::string &why) {
    fe.fail(DiagId::BadCast, e->getExprLoc(),
            {std::string("'") + ir::name(from) + "'", std::string("'") + ir::name(to) + "'", why});
  };
  if (bitcast && towardZero)
    fail("a bitcast keeps the bits and rounds nothing; give either 'bitcast' or "
         "'fp_downcast_rounding'");
  if (bitcast && (from == ir::ScalarType::Bool || to == ir::ScalarType::Bool) && from != to)
    fail("a bitcast takes no bool (Triton's int1)");
  if (bitcast && ir::bitWidth(from) != ir::bitWidth(to))
    fail("a bitcast needs types of the same width; these have " +
         std::to_string(ir::bitWidth(from)) + " and " + std::to_string(ir::bitWidth(to)) + " bits");
  if (towardZero &&
      !(ir::isFloat(from) && ir::isFloat(to) && ir::bitWidth(to) < ir::bitWidth(from)))
    fail("'fp_downcast_rounding' rounds a float narrowed to a narrower float; this cast narrows no "
         "float");
  if (towardZero && ir::isFloat8(to))
    fail("an fp8 type is rounded to nearest even only (Triton rounds toward zero only fp32 to "
         "float8e5, by truncation)");
  return bitcast      ? ir::CastMode::Bitcast
         : towardZero ? ir::CastMode::ConvertTowardZero
                      : ir::CastMode::Convert;
}

ir::Stmt KernelLowering::lowerStore(const clang::CallExpr *call) {
  auto args = callArgs(call);
  ir::SourceLoc l = fe.irLoc(call->getBeginLoc());
  ir::MemHints hints;
  if (args.size() > 2 && isMemoryOptions(args.back()->getType())) {
    hints = memoryHints(args.back(), /*store=*/true);
    args.pop_back();
  }
  if (args.size() < 2 || args.size() > 3)
    unsupportedCall(call);
  ir::Expr p = lowerExpr(args[0]);
  if (!p->type.pointer)
    fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {p->type.str(), "tl::store", "a pointer or a tile of pointers"});
  ir::Expr v = lowerOperand(args[1]);
  if (v->type.pointer)
    fe.fail(DiagId::BadOperand, args[1]->getExprLoc(), {v->type.str(), "tl::store", "a value of numbers"});
  ir::Expr m = args.size() > 2 ? castTo(lowerExpr(args[2]), ScalarType::Bool) : nullptr;
  std::vector<ir::Expr> all = {p, v};
  if (m)
    all.push_back(m);
  auto shape = broadcastShape(all, call->getExprLoc());
  p = toShape(p, shape);
  v = toShape(castTo(v, p->type.elem), shape);
  if (m)
    m = toShape(m, shape);
  return ir::Store::make(p, v, m, l, hints);
}

namespace {
/// `t` is tl's enumeration `name` (tl::sem, tl::scope).
bool isTlEnum(clang::QualType t, llvm::StringRef name) {
  const auto *et = t.getCanonicalType()->getAs<clang::EnumType>();
  return et && et->getDecl()->getName() == name && inTl(et->getDecl());
}
} // namespace

bool KernelLowering::isAtomicCall(const clang::CallExpr *call) {
  const clang::FunctionDecl *fd = call ? call->getDirectCallee() : nullptr;
  if (!fd || !inTl(fd) || !fd->getDeclName().isIdentifier())
    return false;
  llvm::StringRef n = fd->getName();
  return n == "atomic_add" || n == "atomic_max" || n == "atomic_min" || n == "atomic_and" ||
         n == "atomic_or" || n == "atomic_xor" || n == "atomic_xchg" || n == "atomic_cas";
}

/// tl::atomic_OP(ptr, val[, mask[, sem[, scope]]]) and tl::atomic_cas(ptr, cmp, val[, sem[,
/// scope]]): val, cmp and mask broadcast to ptr's shape and converted to its element type; sem and
/// scope are constants (tl::relaxed ... tl::acq_rel, tl::cta, tl::gpu, tl::sys).
ir::Stmt KernelLowering::lowerAtomic(const clang::CallExpr *call, ir::Var result) {
  using ir::AtomicOp;
  const std::string name = call->getDirectCallee()->getName().str();
  const std::string qname = "tl::" + name;
  static const std::map<std::string, AtomicOp> ops = {
      {"atomic_add", AtomicOp::Add},   {"atomic_max", AtomicOp::Max}, {"atomic_min", AtomicOp::Min},
      {"atomic_and", AtomicOp::And},   {"atomic_or", AtomicOp::Or},   {"atomic_xor", AtomicOp::Xor},
      {"atomic_xchg", AtomicOp::Xchg}, {"atomic_cas", AtomicOp::Cas}};
  const AtomicOp op = ops.at(name);
  auto args = callArgs(call);
  const size_t values = op == AtomicOp::Cas ? 3 : 2; // ptr, (cmp,) val
  if (args.size() < values)
    unsupportedCall(call);
  ir::Expr p = lowerExpr(args[0]);
  if (!p->type.pointer)
    fe.fail(DiagId::BadOperand, args[0]->getExprLoc(),
            {p->type.str(), qname, "a pointer or a tile of pointers"});
  ir::Expr cmp = op == AtomicOp::Cas ? lowerOperand(args[1]) : nullptr;
  ir::Expr v = lowerOperand(args[values - 1]);
  ir::Expr m;
  size_t next = values;
  auto isSem = [&](const clang::Expr *a) { return isTlEnum(a->getType(), "sem"); };
  if (op != AtomicOp::Cas && args.size() > next && !isSem(args[next]))
    m = castTo(lowerExpr(args[next++]), ScalarType::Bool);
  // sem and scope: the enumerators' values (tl.hpp's order is ir::MemSem's and ir::MemScope's).
  auto constantArg = [&](size_t i, int64_t fallback) -> int64_t {
    if (args.size() <= i)
      return fallback;
    clang::Expr::EvalResult r;
    if (!args[i]->EvaluateAsRValue(r, ctx) || !r.Val.isInt())
      fe.fail(DiagId::BadOperand, args[i]->getExprLoc(),
              {fe.text(args[i]->getSourceRange()), qname, "a constant sem or scope"});
    return r.Val.getInt().getExtValue();
  };
  const auto sem =
      static_cast<ir::MemSem>(constantArg(next, static_cast<int64_t>(ir::MemSem::AcqRel)));
  const auto scope =
      static_cast<ir::MemScope>(constantArg(next + 1, static_cast<int64_t>(ir::MemScope::Gpu)));
  for (const ir::Expr &x : {v, cmp})
    if (x && x->type.pointer)
      fe.fail(DiagId::BadOperand, call->getExprLoc(), {x->type.str(), qname, "numbers"});
  std::vector<ir::Expr> all = {p, v};
  if (cmp)
    all.push_back(cmp);
  if (m)
    all.push_back(m);
  auto shape = broadcastShape(all, call->getExprLoc());
  if (shape != p->type.shape)
    fe.fail(DiagId::ShapeMismatch, call->getExprLoc(), {shapeStr(shape), shapeStr(p->type.shape)});
  v = toShape(castTo(v, p->type.elem), shape);
  if (cmp)
    cmp = toShape(castTo(cmp, p->type.elem), shape);
  if (m)
    m = toShape(m, shape);
  return ir::Store::makeAtomic(op, p, v, cmp, m, result, sem, scope, fe.irLoc(call->getBeginLoc()));
}

/// tl::argmax(x) / tl::argmin(x) of a 2-D tile [D0, D1]: the flattened index i * D1 + j of the first
/// best element in row-major order (docs/language.md), from reductions along one axis each:
///   j[r]  = argbest<1>(x)                       first best column of each row
///   v[r]  = sum<1>(where(cols == j[r], x, 0))   that element (the only non-zero term: exact)
///   i     = argbest<0>(v)                       first row holding the best of all (a NaN included)
///   j_i   = sum<0>(where(rows == i, j, 0))      its column
/// Rows are compared by their first best element, so ties and NaNs resolve as in one flat pass.
ir::Expr KernelLowering::flatArgBest(ir::ReduceOp op, ir::Expr a, ir::SourceLoc l) {
  using ir::BinaryOp;
  const ScalarType e = a->type.elem;
  auto zero = [&](ScalarType t) {
    return ir::isFloat(t) ? ir::FloatImm::make(t, 0.0, l) : ir::IntImm::make(t, 0, l);
  };
  if (a->type.rank() == 3) {
    // The best of each row (along dim 2) and its value; the flat index f of the best row value
    // in the [D0, D1] of rows (the rank-2 case); the column of row f. The first best element in
    // row-major order is in the first row holding a best value, at that row's first best column.
    const std::vector<int64_t> &s = a->type.shape, rows{s[0], s[1]};
    ir::Expr j = ir::Reduce::make(op, 2, a, l);
    ir::Expr cols = toShape(ir::Arange::make(0, s[2], l), s);
    ir::Expr atJ = ir::Binary::make(BinaryOp::Eq, cols,
                                    ir::Broadcast::make(ir::ExpandDims::make(j, 2, l), s, l), l);
    ir::Expr v =
        ir::Reduce::make(ir::ReduceOp::Sum, 2, ir::Select::make(atJ, a, toShape(zero(e), s), l), l);
    ir::Expr f = flatArgBest(op, v, l);
    ir::Expr flat = ir::Binary::make(
        BinaryOp::Add,
        ir::Binary::make(
            BinaryOp::Mul,
            ir::Broadcast::make(ir::ExpandDims::make(ir::Arange::make(0, s[0], l), 1, l), rows, l),
            toShape(ir::IntImm::make(ScalarType::I32, s[1], l), rows), l),
        toShape(ir::Arange::make(0, s[1], l), rows), l);
    ir::Expr atF = ir::Binary::make(BinaryOp::Eq, flat, toShape(f, rows), l);
    ir::Expr picked = ir::Select::make(atF, j, toShape(zero(ScalarType::I32), rows), l);
    ir::Expr jf = ir::Reduce::make(ir::ReduceOp::Sum, 0,
                                   ir::Reduce::make(ir::ReduceOp::Sum, 1, picked, l), l);
    return ir::Binary::make(
        BinaryOp::Add,
        ir::Binary::make(BinaryOp::Mul, f, ir::IntImm::make(ScalarType::I32, s[2], l), l), jf, l);
  }
  const int64_t d0 = a->type.shape[0], d1 = a->type.shape[1];
  ir::Expr j = ir::Reduce::make(op, 1, a, l);
  ir::Expr cols = toShape(ir::Arange::make(0, d1, l), {d0, d1});
  ir::Expr atJ = ir::Binary::make(BinaryOp::Eq, cols, ir::Broadcast::make(ir::ExpandDims::make(j, 1, l), {d0, d1}, l), l);
  ir::Expr v = ir::Reduce::make(ir::ReduceOp::Sum, 1, ir::Select::make(atJ, a, toShape(zero(e), {d0, d1}), l), l);
  ir::Expr i = ir::Reduce::make(op, 0, v, l);
  ir::Expr atI = ir::Binary::make(BinaryOp::Eq, ir::Arange::make(0, d0, l), toShape(i, {d0}), l);
  ir::Expr ji = ir::Reduce::make(ir::ReduceOp::Sum, 0, ir::Select::make(atI, j, toShape(zero(ScalarType::I32), {d0}), l), l);
  return ir::Binary::make(BinaryOp::Add, ir::Binary::make(BinaryOp::Mul, i, ir::IntImm::make(ScalarType::I32, d1, l), l),
                          ji, l);
}

bool KernelLowering::isRandom(const std::string &name) {
  return name == "randint" || name == "rand" || name == "randn" || name == "randint4x" ||
         name == "rand4x" || name == "randn4x";
}

bool KernelLowering::isSplit(const clang::FunctionDecl *fd) {
  return fd && inTl(fd) && fd->getDeclName().isIdentifier() && fd->getName() == "split";
}

std::vector<ir::Expr> KernelLowering::lowerSplit(const clang::CallExpr *call,
                                                 const std::string &name,
                                                 std::vector<ir::Stmt> &out) {
  const clang::Expr *arg = call->getArg(0);
  ir::Expr x = needTile(lowerExpr(arg), arg, "tl::split");
  const ir::SourceLoc l = fe.irLoc(call->getExprLoc());
  if (!ir::as<ir::VarRef>(x)) { // both halves read one variable, which is staged once
    auto v = k.newVar(name, x->type, ir::VarKind::Local, l);
    out.push_back(ir::Decl::make(v, x, l));
    x = ir::VarRef::make(v, l);
  }
  // tl.hpp checked: [..., 2]; each half drops the last dim.
  const std::vector<int64_t> half(x->type.shape.begin(), x->type.shape.end() - 1);
  return {ir::Reshape::make(ir::ReshapeKind::Even, x, nullptr, half, l),
          ir::Reshape::make(ir::ReshapeKind::Odd, x, nullptr, half, l)};
}

bool KernelLowering::isRandomFour(const clang::FunctionDecl *fd) {
  return fd && inTl(fd) && fd->getDeclName().isIdentifier() && isRandom(fd->getName().str()) &&
         fd->getName().ends_with("4x");
}

/// Philox 4x32-10 of the counter (offset's low half, its high half, 0, 0) under the key `seed` (as
/// uint64: its low and high halves), output lane k: randint4x's k-th tile. rand and rand4x take the
/// lanes' uniform floats, randn the first Box-Muller value of lanes 0 and 1, randn4x both values of
/// lanes 0 and 1, then of lanes 2 and 3 (triton.language.random).
std::vector<ir::Expr> KernelLowering::lowerRandom(const clang::CallExpr *call,
                                                  const std::string &name) {
  ir::SourceLoc l = fe.irLoc(call->getExprLoc());
  auto args = callArgs(call);
  const std::string qname = "tl::" + name;
  if (args.size() != 2)
    unsupportedCall(call);
  ir::Expr seed = lowerExpr(args[0]), offset = lowerExpr(args[1]);
  if (!seed->type.isScalar() || seed->type.pointer || !ir::isInt(seed->type.elem))
    fe.fail(DiagId::BadOperand, args[0]->getExprLoc(),
            {seed->type.str(), qname, "an integer scalar seed"});
  const int offsetBytes = ir::byteSize(offset->type.elem);
  if (offset->type.pointer || !ir::isInt(offset->type.elem) ||
      (offsetBytes != 4 && offsetBytes != 8))
    fe.fail(DiagId::BadOperand, args[1]->getExprLoc(),
            {offset->type.str(), qname, "int32, uint32, int64 or uint64 offsets"});
  const std::vector<int64_t> shape = offset->type.shape;
  ir::Expr s =
      toShape(castTo(seed, ScalarType::U64), shape); // sign-extended, as seed.to(tl.uint64)
  // The same bits; a 64-bit offset's high half is the counter's second word (Triton's randint4x).
  ir::Expr o = castTo(offset, offsetBytes == 8 ? ScalarType::U64 : ScalarType::U32);
  auto constant = [&](int v) { return toShape(ir::IntImm::make(ScalarType::U32, v, l), shape); };
  auto bits = [&](int lane) {
    return ir::Math::make(ir::MathOp::Philox, {s, o, constant(lane)}, l);
  };
  auto uniform = [&](int lane) {
    return ir::Math::make(ir::MathOp::UniformFromBits, {bits(lane)}, l);
  };
  auto normal = [&](int first, int which) {
    return ir::Math::make(ir::MathOp::NormalFromBits,
                          {bits(first), bits(first + 1), constant(which)}, l);
  };
  if (name == "randint")
    return {bits(0)};
  if (name == "rand")
    return {uniform(0)};
  if (name == "randn")
    return {normal(0, 0)};
  if (name == "randint4x")
    return {bits(0), bits(1), bits(2), bits(3)};
  if (name == "rand4x")
    return {uniform(0), uniform(1), uniform(2), uniform(3)};
  return {normal(0, 0), normal(0, 1), normal(2, 0), normal(2, 1)};
}

namespace {

/// The call of `fd`'s parameter `param` in its body: tl.hpp's `combine(a, b)`, in the lambda that
/// adapts the user's combine function to the reference's scan or reduction.
const clang::CallExpr *findParamCall(const clang::Stmt *s, const clang::ParmVarDecl *param) {
  using namespace clang;
  if (!s)
    return nullptr;
  auto isParam = [&](const Expr *e) {
    auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreImpCasts());
    return ref && ref->getDecl() == param;
  };
  if (auto *oc = dyn_cast<CXXOperatorCallExpr>(s);
      oc && oc->getOperator() == OO_Call && oc->getNumArgs() >= 1 && isParam(oc->getArg(0)))
    return oc;
  if (auto *c = dyn_cast<CallExpr>(s); c && c->getCallee() && isParam(c->getCallee()))
    return c; // through a function pointer
  if (auto *le = dyn_cast<LambdaExpr>(s))
    return findParamCall(le->getBody(), param);
  for (const Stmt *child : s->children())
    if (const CallExpr *found = findParamCall(child, param))
      return found;
  return nullptr;
}

} // namespace

int KernelLowering::lowerCombine(const clang::CallExpr *call, const clang::FunctionDecl *fd,
                                 ScalarType elem, const std::string &op) {
  using namespace clang;
  const ParmVarDecl *param = fd->getNumParams() == 2 ? fd->getParamDecl(1) : nullptr;
  const CallExpr *use = param ? findParamCall(fd->getBody(), param) : nullptr;
  if (!use || call->getNumArgs() != 2)
    unsupportedCall(call);
  const SourceLocation at = call->getArg(1)->getExprLoc();
  const CXXMethodDecl *md = lambdaCallOperator(use);
  if (!md)
    fe.fail(DiagId::CombineFunction, at, {op, "is not a lambda"});
  auto argDecl = [&](unsigned i) -> const VarDecl * {
    auto *ref = dyn_cast<DeclRefExpr>(strip(use->getArg(i)));
    return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  };
  const VarDecl *da = argDecl(1), *db = argDecl(2);
  if (!da || !db)
    unsupportedCall(call);
  const auto key = std::pair{md->getParent(), elem};
  if (auto it = combineOf.find(key); it != combineOf.end())
    return it->second;
  // Its arguments are variables of their own, named as the lambda names them.
  ir::CombineFunction c;
  c.loc = fe.irLoc(md->getParent()->getLocation());
  auto paramName = [&](unsigned i, const char *otherwise) {
    return md->getNumParams() > i && !md->getParamDecl(i)->getName().empty()
               ? md->getParamDecl(i)->getNameAsString()
               : std::string(otherwise);
  };
  c.a = k.newVar(paramName(0, "a"), ir::Type::scalar(elem), ir::VarKind::Local, c.loc);
  c.b = k.newVar(paramName(1, "b"), ir::Type::scalar(elem), ir::VarKind::Local, c.loc);
  ir::Expr body = lambdaExpression(use, {da, db}, {c.a, c.b}, [&](const std::string &why) {
    fe.fail(DiagId::CombineFunction, at, {op, why});
  });
  if (!body->type.isScalar() || body->type.pointer)
    fe.fail(DiagId::CombineFunction, at, {op, "returns " + body->type.str()});
  body = castTo(body, elem);
  c.body = body;
  k.combines.push_back(c);
  return combineOf[key] = static_cast<int>(k.combines.size()) - 1;
}

ir::Expr KernelLowering::lambdaExpression(const clang::CallExpr *use,
                                          const std::vector<const clang::VarDecl *> &decls,
                                          const std::vector<ir::Var> &vars,
                                          const std::function<void(const std::string &)> &fail) {
  using namespace clang;
  struct Restore {
    std::map<const VarDecl *, ir::Var> &vars;
    std::map<const VarDecl *, ir::Var> saved;
    ~Restore() {
      for (auto &[d, v] : saved)
        if (v)
          vars[d] = v;
        else
          vars.erase(d);
    }
  } restore{this->vars, {}};
  for (size_t i = 0; i < decls.size(); ++i) {
    auto it = this->vars.find(decls[i]);
    restore.saved[decls[i]] = it == this->vars.end() ? nullptr : it->second;
    this->vars[decls[i]] = vars[i];
  }
  // Inlined into statements of its own: declarations of scalars only, whose values replace their
  // variables in the result.
  std::vector<ir::Stmt> stmts;
  ir::Expr body;
  {
    PendingScope scope(*this, &stmts, nullptr);
    body = lowerExpr(use);
  }
  std::map<const ir::VarNode *, ir::Expr> defs;
  for (const ir::Stmt &st : stmts) {
    auto *d = ir::as<ir::Decl>(st);
    if (!d || !d->init || d->var->type.isTile())
      fail("has statements other than declarations of scalars");
    defs[d->var.get()] = ir::substitute(d->init, defs);
  }
  body = ir::substitute(body, defs);
  ir::ExprFacts facts;
  facts.add(body);
  for (const ir::VarNode *v : facts.reads)
    if (std::none_of(vars.begin(), vars.end(), [&](const ir::Var &x) { return x.get() == v; }))
      fail("reads '" + v->name + "' of the kernel");
  if (!facts.elementwise)
    fail("loads from memory");
  return body;
}

ir::Expr KernelLowering::lowerInlineAsm(const clang::CallExpr *call, const clang::FunctionDecl *fd,
                                        const std::vector<const clang::Expr *> &args) {
  using namespace clang;
  const std::string qname = "tl::inline_asm_elementwise";
  if (args.size() < 4 || fd->getNumParams() < 3)
    unsupportedCall(call);
  auto literal = [&](const Expr *e, const char *what) {
    const auto *lit = dyn_cast<StringLiteral>(e->IgnoreParenImpCasts());
    if (!lit || !lit->isOrdinary())
      fe.fail(DiagId::NotConstant, e->getExprLoc(),
              {std::string("the ") + what + " of '" + qname + "' (a string literal)",
               fe.text(e->getSourceRange())});
    return lit->getString().str();
  };
  ir::AsmFunction f;
  f.text = literal(args[0], "assembly");
  f.constraints = literal(args[1], "constraints");
  f.loc = loc(call);
  auto elem = resultElem(call->getType(), call->getExprLoc());
  if (!elem)
    unsupportedCall(call);
  f.result = *elem;
  const std::vector<int64_t> targs = intTemplateArgs(fd);
  const bool pure = targs.empty() || targs[0] != 0;
  f.effects = !pure;
  std::vector<ir::Expr> xs;
  for (size_t i = 3; i < args.size(); ++i)
    xs.push_back(lowerExpr(args[i]));
  const std::vector<int64_t> shape = broadcastShape(xs, call->getExprLoc());
  for (ir::Expr &x : xs)
    x = toShape(x, shape);
  // One output, then one input an operand: "=r,r,l".
  const std::vector<std::string> cs = ir::asmConstraintList(f.constraints);
  const bool oneOutput = !cs[0].empty() && cs[0][0] == '=' &&
                         std::none_of(cs.begin() + 1, cs.end(), [](const std::string &c) {
                           return c.empty() || c[0] == '=';
                         });
  if (!oneOutput || cs.size() != xs.size() + 1)
    fe.fail(DiagId::InlineAsm, args[1]->getExprLoc(),
            {"has the constraints \"" + f.constraints + "\" for " + std::to_string(xs.size()) +
             " operand(s): tilec takes one output (\"=r\") and then one input an operand"});
  auto passable = [](const ir::Type &t) {
    return !t.pointer && t.elem != ScalarType::Bool && ir::byteSize(t.elem) >= 2;
  };
  if (!passable(ir::Type::scalar(f.result)))
    fe.fail(DiagId::InlineAsm, call->getExprLoc(),
            {"returns " + std::string(ir::name(f.result)) +
             ": tilec passes values of 16, 32 and 64 bits (Triton's pack > 1 is not supported)"});
  for (size_t i = 0; i < xs.size(); ++i)
    if (!passable(xs[i]->type))
      fe.fail(DiagId::InlineAsm, args[3 + i]->getExprLoc(),
              {"has operand " + std::to_string(i + 1) + " of " +
               (xs[i]->type.pointer ? std::string("pointers") : ir::name(xs[i]->type.elem)) +
               ": tilec passes values of 16, 32 and 64 bits (Triton's pack > 1 is not supported)"});
  // The reference function, inlined as tl.hpp calls it: `reference(v...)`, with scalars of the
  // operands' element types named as the lambda names its parameters.
  const CallExpr *use = findParamCall(fd->getBody(), fd->getParamDecl(2));
  const SourceLocation at = args[2]->getExprLoc();
  const CXXMethodDecl *md = use ? lambdaCallOperator(use) : nullptr;
  auto fail = [&](const std::string &why) { fe.fail(DiagId::AsmReference, at, {why}); };
  if (!md)
    fail("is not a lambda");
  const unsigned first = isa<CXXOperatorCallExpr>(use) ? 1 : 0;
  if (use->getNumArgs() != first + xs.size())
    unsupportedCall(call);
  std::vector<const VarDecl *> decls;
  for (unsigned i = first; i < use->getNumArgs(); ++i) {
    auto *ref = dyn_cast<DeclRefExpr>(strip(use->getArg(i)));
    decls.push_back(ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr);
    if (!decls.back())
      unsupportedCall(call);
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    const clang::ParmVarDecl *p = i < md->getNumParams() ? md->getParamDecl(unsigned(i)) : nullptr;
    f.params.push_back(
        k.newVar(p && !p->getName().empty() ? p->getNameAsString() : "x" + std::to_string(i + 1),
                 ir::Type::scalar(xs[i]->type.elem), ir::VarKind::Local,
                 fe.irLoc(md->getParent()->getLocation())));
  }
  ir::Expr ref = lambdaExpression(use, decls, f.params, fail);
  if (!ref->type.isScalar() || ref->type.pointer)
    fail("returns " + ref->type.str());
  f.reference = castTo(ref, f.result);
  k.asms.push_back(f);
  return ir::Math::makeAsm(static_cast<int>(k.asms.size()) - 1, !pure, f.result, xs, loc(call));
}

ir::Expr KernelLowering::lowerCall(const clang::CallExpr *call) {
  using namespace clang;
  const FunctionDecl *fd = call->getDirectCallee();
  if (!fd || !inTl(fd))
    unsupportedCall(call);
  ir::SourceLoc l = fe.irLoc(call->getExprLoc());
  auto args = callArgs(call);
  clang::SourceLocation at = call->getExprLoc();
  if (auto *oc = dyn_cast<CXXOperatorCallExpr>(call)) {
    OverloadedOperatorKind ok = oc->getOperator();
    if (args.size() == 2 && !compoundOp(ok)) {
      if (auto op = overloadedBinaryOp(ok)) {
        auto elem = resultElem(call->getType(), at);
        return elementwise(*op, {lowerExpr(args[0]), lowerExpr(args[1])}, elem, oc->getOperatorLoc(),
                           {args[0], args[1]});
      }
    }
    if (args.size() == 1) {
      ir::Expr a = lowerExpr(args[0]);
      auto elem = resultElem(call->getType(), at);
      switch (ok) {
      case OO_Plus: return a;
      case OO_Minus: return ir::Unary::make(ir::UnaryOp::Neg, castTo(a, *elem), l);
      case OO_Tilde: return ir::Unary::make(ir::UnaryOp::BitNot, castTo(a, *elem), l);
      case OO_Exclaim: return ir::Unary::make(ir::UnaryOp::Not, castTo(a, ScalarType::Bool), l);
      default: break;
      }
    }
    fe.fail(DiagId::UnsupportedExpr, oc->getOperatorLoc(), {fe.text(call->getSourceRange())});
  }
  if (!fd->getDeclName().isIdentifier())
    unsupportedCall(call);
  std::string name = fd->getName().str();
  std::string qname = "tl::" + name;
  auto nargs = [&](size_t lo, size_t hi) {
    if (args.size() < lo || args.size() > hi)
      unsupportedCall(call);
  };
  // The first template argument as an axis of a tile of rank `rank` (negative counts from the
  // end), or a BadAxis error.
  auto axisArg = [&](int rank) {
    auto targs = intTemplateArgs(fd);
    const int64_t given = targs.empty() ? 0 : targs[0];
    const int64_t axis = given < 0 ? given + rank : given;
    if (axis < 0 || axis >= rank)
      fe.fail(DiagId::BadAxis, at, {std::to_string(given), std::to_string(rank)});
    return static_cast<int>(axis);
  };

  if (isAtomicCall(call)) { // its old values in an expression: a variable declared before
    std::vector<ir::Stmt> &into = needPending(call, fd);
    ir::Type t = typeOf(call->getType(), at);
    auto v =
        k.newVar(name.substr(std::string("atomic_").size()) + "_old", t, ir::VarKind::Local, l);
    into.push_back(ir::Decl::make(v, nullptr, l));
    into.push_back(lowerAtomic(call, v));
    return ir::VarRef::make(v, l);
  }
  if (isRandom(name)) {
    std::vector<ir::Expr> r = lowerRandom(call, name);
    if (r.size() != 1) // the 4x forms return a std::tuple of four tiles
      fe.fail(DiagId::FourResults, at, {qname});
    return r[0];
  }
  if (name == "program_id" || name == "num_programs") {
    nargs(1, 1);
    int64_t axis = constArg(args[0], "the program axis");
    if (axis < 0 || axis > 2)
      fe.fail(DiagId::BadProgramAxis, args[0]->getExprLoc(), {std::to_string(axis)});
    return ir::ProgramId::make(static_cast<int>(axis), name == "num_programs", l);
  }
  if (name == "arange") {
    ir::Type t = typeOf(call->getType(), at);
    auto targs = intTemplateArgs(fd);
    int64_t start = targs.empty() ? 0 : targs[0];
    return castTo(ir::Arange::make(start, start + t.shape[0], l), t.elem);
  }
  if (name == "zeros" || name == "full") {
    ir::Type t = typeOf(call->getType(), at);
    ir::Expr v;
    if (name == "zeros") {
      nargs(0, 0);
      v = ir::isFloat(t.elem) ? ir::FloatImm::make(t.elem, 0.0, l) : ir::IntImm::make(t.elem, 0, l);
    } else {
      nargs(1, 1);
      v = lowerExpr(args[0]); // a double converts directly (tl.hpp's full)
      if (!v->type.isScalar() || v->type.pointer)
        fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {v->type.str(), qname, "a scalar value"});
      v = castTo(v, t.elem);
    }
    if (t.isScalar())
      return v;
    return ir::Splat::make(v, t.shape, l);
  }
  if (name == "expand_dims") {
    nargs(1, 1);
    ir::Expr a = lowerExpr(args[0]);
    if (!a->type.isTile())
      fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {a->type.str(), qname, "a tile"});
    auto targs = intTemplateArgs(fd);
    int64_t axis = targs.empty() ? 0 : targs[0];
    if (axis < 0)
      axis += a->type.rank() + 1;
    if (axis < 0 || axis > a->type.rank())
      fe.fail(DiagId::BadAxis, at, {std::to_string(targs.empty() ? 0 : targs[0]), std::to_string(a->type.rank())});
    ir::Expr r = ir::ExpandDims::make(a, static_cast<int>(axis), l);
    typeOf(call->getType(), at); // checks the result's rank
    return r;
  }
  if (name == "broadcast_to") {
    nargs(1, 1);
    ir::Type t = typeOf(call->getType(), at);
    ir::Expr a = lowerExpr(args[0]);
    auto shape = broadcastShape({a, ir::Splat::make(ir::IntImm::make(ScalarType::I32, 0), t.shape)}, at);
    if (shape != t.shape)
      fe.fail(DiagId::ShapeMismatch, at, {shapeStr(a->type.shape), shapeStr(t.shape)});
    return toShape(a, t.shape);
  }
  if (name == "load") {
    ir::MemHints hints;
    if (args.size() > 1 && isMemoryOptions(args.back()->getType())) {
      hints = memoryHints(args.back(), /*store=*/false);
      args.pop_back();
    }
    nargs(1, 3);
    ir::Expr p = lowerExpr(args[0]);
    if (!p->type.pointer)
      fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {p->type.str(), qname, "a pointer or a tile of pointers"});
    ir::Expr m = args.size() > 1 ? castTo(lowerExpr(args[1]), ScalarType::Bool) : nullptr;
    ir::Expr o = args.size() > 2 ? lowerOperand(args[2]) : nullptr;
    if (o && o->type.pointer)
      fe.fail(DiagId::BadOperand, args[2]->getExprLoc(), {o->type.str(), qname, "a number for 'other'"});
    std::vector<ir::Expr> all = {p};
    if (m)
      all.push_back(m);
    auto shape = broadcastShape(all, at);
    if (o)
      broadcastShape({ir::Splat::make(ir::IntImm::make(ScalarType::I32, 0), shape.empty() ? std::vector<int64_t>{1} : shape), o}, args[2]->getExprLoc());
    p = toShape(p, shape);
    if (m)
      m = toShape(m, shape);
    if (o)
      o = toShape(castTo(o, p->type.elem), shape);
    ir::Expr r = ir::Load::make(p, m, o, l, hints);
    if (auto elem = resultElem(call->getType(), at))
      r = castTo(r, *elem);
    return r;
  }
  if (name == "where") {
    nargs(3, 3);
    ir::Expr c = castTo(lowerExpr(args[0]), ScalarType::Bool);
    ir::Expr a = lowerOperand(args[1]), b = lowerOperand(args[2]);
    ir::Type rt = typeOf(call->getType(), at);
    ScalarType t = rt.pointer ? a->type.elem : rt.elem;
    auto shape = broadcastShape({c, a, b}, at);
    if (!rt.pointer) {
      a = castTo(a, t);
      b = castTo(b, t);
    }
    return ir::Select::make(toShape(c, shape), toShape(a, shape), toShape(b, shape), l);
  }
  if (name == "isnan" || name == "isinf" || name == "isfinite" || name == "signbit") {
    // As comparisons the output reads plainly: x != x, |x| == inf, |x| < inf, copysign(1, x) < 0.
    nargs(1, 1);
    ir::Expr x = lowerOperand(args[0]);
    if (x->type.pointer || !ir::isFloat(x->type.elem))
      fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {x->type.str(), qname, "floating-point values"});
    if (ir::isFloat8(x->type.elem)) // (exact) in float, whose infinity an fp8 constant cannot hold
      x = castTo(x, ScalarType::F32);
    auto constant = [&](double v) { return toShape(ir::FloatImm::make(x->type.elem, v, l), x->type.shape); };
    const double inf = std::numeric_limits<double>::infinity();
    if (name == "isnan")
      return ir::Binary::make(ir::BinaryOp::Ne, x, x, l);
    if (name == "isinf")
      return ir::Binary::make(ir::BinaryOp::Eq, ir::Math::make(ir::MathOp::Abs, {x}, l), constant(inf), l);
    if (name == "isfinite")
      return ir::Binary::make(ir::BinaryOp::Lt, ir::Math::make(ir::MathOp::Abs, {x}, l), constant(inf), l);
    return ir::Binary::make(ir::BinaryOp::Lt, ir::Math::make(ir::MathOp::Copysign, {constant(1.0), x}, l),
                            constant(0.0), l);
  }
  if (name == "clamp") { // minimum(maximum(x, lo), hi), as tl.hpp defines it
    nargs(3, 3);
    ir::Expr low = elementwise(ir::BinaryOp::Max, {lowerExpr(args[0]), lowerExpr(args[1])}, std::nullopt, at,
                               {args[0], args[1]});
    return elementwise(ir::BinaryOp::Min, {low, lowerExpr(args[2])}, resultElem(call->getType(), at), at,
                       {args[0], args[2]});
  }
  if (name == "minimum" || name == "maximum") {
    nargs(2, 2);
    return elementwise(name == "minimum" ? ir::BinaryOp::Min : ir::BinaryOp::Max,
                       {lowerExpr(args[0]), lowerExpr(args[1])}, resultElem(call->getType(), at), at,
                       {args[0], args[1]});
  }
  if (name == "cast") {
    nargs(1, 2);
    ir::Type t = typeOf(call->getType(), at);
    ir::Expr a = lowerOperand(args[0]);
    if (t.pointer || a->type.pointer)
      fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {a->type.str(), qname, "numbers"});
    if (a->type.elem == t.elem) // x itself, whatever the options ask (as Triton's cast)
      return a;
    const ir::CastMode mode =
        args.size() == 2 ? castMode(args[1], a->type.elem, t.elem) : ir::CastMode::Convert;
    // A bitcast between integers keeps the bits as the conversion does (two's complement wraps).
    if (mode == ir::CastMode::Bitcast && !ir::isFloat(a->type.elem) && !ir::isFloat(t.elem))
      return ir::Cast::make(t.elem, a, l);
    return ir::Cast::make(t.elem, a, l, mode);
  }
  static const std::map<std::string, ir::MathOp> math = {
      {"exp", ir::MathOp::Exp},     {"exp2", ir::MathOp::Exp2},   {"log", ir::MathOp::Log},
      {"log2", ir::MathOp::Log2},   {"sqrt", ir::MathOp::Sqrt},   {"rsqrt", ir::MathOp::Rsqrt},
      {"sigmoid", ir::MathOp::Sigmoid}, {"tanh", ir::MathOp::Tanh}, {"erf", ir::MathOp::Erf},
      {"abs", ir::MathOp::Abs},     {"floor", ir::MathOp::Floor}, {"ceil", ir::MathOp::Ceil},
      {"fma", ir::MathOp::Fma},     {"cdiv", ir::MathOp::Cdiv},
      {"sin", ir::MathOp::Sin},     {"cos", ir::MathOp::Cos},     {"tan", ir::MathOp::Tan},
      {"asin", ir::MathOp::Asin},   {"acos", ir::MathOp::Acos},   {"atan", ir::MathOp::Atan},
      {"sinh", ir::MathOp::Sinh},   {"cosh", ir::MathOp::Cosh},   {"asinh", ir::MathOp::Asinh},
      {"acosh", ir::MathOp::Acosh}, {"atanh", ir::MathOp::Atanh}, {"expm1", ir::MathOp::Expm1},
      {"log1p", ir::MathOp::Log1p}, {"log10", ir::MathOp::Log10}, {"cbrt", ir::MathOp::Cbrt},
      {"erfc", ir::MathOp::Erfc},   {"lgamma", ir::MathOp::Lgamma}, {"rint", ir::MathOp::Rint},
      {"round", ir::MathOp::Round}, {"trunc", ir::MathOp::Trunc}, {"pow", ir::MathOp::Pow},
      {"atan2", ir::MathOp::Atan2}, {"hypot", ir::MathOp::Hypot}, {"copysign", ir::MathOp::Copysign},
      {"fmod", ir::MathOp::Fmod},   {"remainder", ir::MathOp::Remainder},
      {"div_rn", ir::MathOp::DivRn}, {"div_rz", ir::MathOp::DivRz}, {"fdiv", ir::MathOp::Fdiv},
      {"sqrt_rn", ir::MathOp::SqrtRn}, {"popc", ir::MathOp::Popc}, {"clz", ir::MathOp::Clz},
      {"umulhi", ir::MathOp::Umulhi}};
  if (auto it = math.find(name); it != math.end()) {
    size_t n = static_cast<size_t>(ir::arity(it->second));
    nargs(n, n);
    std::vector<ir::Expr> xs;
    for (auto *a : args) {
      xs.push_back(lowerOperand(a));
      if (xs.back()->type.pointer)
        fe.fail(DiagId::BadOperand, a->getExprLoc(), {xs.back()->type.str(), qname, "numbers"});
    }
    auto elem = resultElem(call->getType(), at);
    ScalarType t = elem ? *elem : promoted(xs);
    const ir::MathOp op = it->second;
    const bool bits = op == ir::MathOp::Popc || op == ir::MathOp::Clz || op == ir::MathOp::Umulhi;
    if (op == ir::MathOp::Cdiv && !ir::isInt(t))
      fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {xs[0]->type.str(), qname, "integers"});
    if (bits && !(ir::isInt(t) && ir::byteSize(t) >= 4))
      fe.fail(DiagId::BadOperand, args[0]->getExprLoc(),
              {xs[0]->type.str(), qname, "32- or 64-bit integers"});
    if (op != ir::MathOp::Cdiv && op != ir::MathOp::Abs && !bits && !ir::isFloat(t))
      fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {xs[0]->type.str(), qname, "floating-point values"});
    auto shape = broadcastShape(xs, at);
    for (auto &x : xs)
      x = toShape(castTo(x, t), shape);
    return ir::Math::make(it->second, std::move(xs), l);
  }
  static const std::map<std::string, ir::ReduceOp> reductions = {
      {"sum", ir::ReduceOp::Sum}, {"max", ir::ReduceOp::Max}, {"min", ir::ReduceOp::Min},
      {"argmax", ir::ReduceOp::ArgMax}, {"argmin", ir::ReduceOp::ArgMin}};
  if (auto it = reductions.find(name); it != reductions.end()) {
    nargs(1, 1);
    ir::Expr a = needTile(lowerExpr(args[0]), args[0], qname);
    int axis = 0;
    if (explicitTemplateArgCount(call) > 0) {
      axis = axisArg(a->type.rank());
    } else if (a->type.rank() >= 2) {
      // Reducing every element: along the last dim, then the one before, down to dim 0.
      if (it->second == ir::ReduceOp::ArgMax || it->second == ir::ReduceOp::ArgMin)
        return flatArgBest(it->second, a, l);
      for (int d = a->type.rank() - 1; d >= 1; --d)
        a = ir::Reduce::make(it->second, d, a, l);
    }
    ir::Expr r = ir::Reduce::make(it->second, axis, a, l);
    if (auto elem = resultElem(call->getType(), at))
      r = castTo(r, *elem);
    return r;
  }
  if (name == "inline_asm_elementwise")
    return lowerInlineAsm(call, fd, args);
  if (name == "reduce") { // tl::reduce(x, f), tl::reduce<AXIS>(x, f)
    nargs(2, 2);
    ir::Expr a = needTile(lowerExpr(args[0]), args[0], qname);
    const int fn = lowerCombine(call, fd, a->type.elem, qname);
    if (explicitTemplateArgCount(call) == 0) { // every element: the last dim first, dim 0 last
      for (int d = a->type.rank() - 1; d >= 1; --d)
        a = ir::Reduce::make(ir::ReduceOp::Combine, d, a, l, fn);
      return ir::Reduce::make(ir::ReduceOp::Combine, 0, a, l, fn);
    }
    return ir::Reduce::make(ir::ReduceOp::Combine, axisArg(a->type.rank()), a, l, fn);
  }
  if (name == "associative_scan") { // tl::associative_scan<AXIS, REVERSE>(x, f)
    nargs(2, 2);
    ir::Expr a = needTile(lowerExpr(args[0]), args[0], qname);
    if (a->type.rank() == 3)
      fe.fail(DiagId::Rank3Unsupported, at, {qname});
    auto targs = intTemplateArgs(fd);
    if (targs.size() < 2)
      unsupportedCall(call);
    const int axis = axisArg(a->type.rank());
    const int fn = lowerCombine(call, fd, a->type.elem, qname);
    return ir::Scan::make(ir::ScanOp::Combine, axis, targs[1] != 0, a, l, fn);
  }
  if (name == "histogram") { // tl::histogram<NUM_BINS>(x[, mask])
    nargs(1, 2);
    ir::Expr x = needTile(lowerExpr(args[0]), args[0], qname);
    ir::Expr mask = args.size() == 2 ? castTo(lowerExpr(args[1]), ScalarType::Bool) : nullptr;
    auto targs = intTemplateArgs(fd);
    if (targs.empty() || x->type.rank() != 1)
      unsupportedCall(call);
    if (mask)
      mask = toShape(mask, x->type.shape);
    return ir::Histogram::make(x, mask, targs[0], l);
  }
  if (name == "gather") { // tl::gather<AXIS>(src, index)
    nargs(2, 2);
    ir::Expr src = needTile(lowerExpr(args[0]), args[0], qname);
    if (src->type.rank() == 3)
      fe.fail(DiagId::Rank3Unsupported, at, {qname});
    ir::Expr index = needTile(lowerExpr(args[1]), args[1], qname);
    if (!ir::isInt(index->type.elem))
      fe.fail(DiagId::BadOperand, args[1]->getExprLoc(),
              {index->type.str(), qname, "integer indices"});
    return ir::Gather::make(src, index, axisArg(src->type.rank()), l);
  }
  if (name == "flip") { // tl::flip<DIM>(x): a gather at n - 1 - i along DIM
    nargs(1, 1);
    ir::Expr x = needTile(lowerExpr(args[0]), args[0], qname);
    if (x->type.rank() == 3)
      fe.fail(DiagId::Rank3Unsupported, at, {qname});
    const int dim = axisArg(x->type.rank());
    const std::vector<int64_t> &shape = x->type.shape;
    const int64_t n = shape[dim];
    ir::Expr i = ir::Arange::make(0, n, l);
    if (x->type.rank() == 2)
      i = ir::Broadcast::make(ir::ExpandDims::make(i, 1 - dim, l), shape, l);
    ir::Expr last = ir::Splat::make(ir::IntImm::make(ScalarType::I32, n - 1, l), shape, l);
    return ir::Gather::make(x, ir::Binary::make(ir::BinaryOp::Sub, last, i, l), dim, l);
  }
  if (name == "cumsum" || name == "cumprod") {
    // tl.hpp's template arguments: AXIS, REVERSE, then the tile's element type and dims; the
    // result type is the scanned element type (integers widened for cumsum, bfloat16 to float).
    nargs(1, 1);
    ir::Expr a = needTile(lowerExpr(args[0]), args[0], qname);
    auto targs = intTemplateArgs(fd);
    auto elem = resultElem(call->getType(), at);
    if (a->type.rank() == 3)
      fe.fail(DiagId::Rank3Unsupported, at, {qname});
    if (targs.size() < 2 || !elem)
      unsupportedCall(call);
    return ir::Scan::make(name == "cumsum" ? ir::ScanOp::Sum : ir::ScanOp::Prod,
                          axisArg(a->type.rank()), targs[1] != 0, castTo(a, *elem), l);
  }
  if (name == "multiple_of" || name == "max_contiguous") {
    nargs(2, 2);
    ir::Expr a = lowerExpr(args[0]);
    int64_t n = constArg(args[1], "the argument of '" + qname + "'");
    std::vector<int64_t> values(static_cast<size_t>(std::max(1, a->type.rank())), n);
    return ir::Hint::make(name == "multiple_of" ? ir::HintKind::MultipleOf : ir::HintKind::MaxContiguous, a,
                          values, l);
  }
  if (name == "store")
    fe.fail(DiagId::UnsupportedExpr, at, {"use of the result of tl::store"});
  if (name == "dot") {
    // tl.hpp's static_asserts have checked the operand types and shapes; the first template
    // argument is the precision (tl::input_precision), the result's type the call's.
    nargs(2, 3);
    ir::DotPrecision precision = ir::DotPrecision::Ieee;
    if (auto *targs = fd->getTemplateSpecializationArgs();
        targs && targs->size() > 0 && targs->get(0).getKind() == clang::TemplateArgument::Integral)
      precision = static_cast<ir::DotPrecision>(targs->get(0).getAsIntegral().getExtValue());
    ir::Expr a = lowerExpr(args[0]), b = lowerExpr(args[1]);
    ir::Expr acc = args.size() == 3 ? lowerExpr(args[2]) : nullptr;
    auto elem = resultElem(call->getType(), at);
    if (!elem)
      unsupportedCall(call);
    return ir::Dot::make(a, b, acc, *elem, precision, l);
  }
  if (name == "trans") { // tl.hpp's signature takes rank-2 tiles only (Trans::make checks)
    nargs(1, 1);
    return ir::Trans::make(lowerExpr(args[0]), l);
  }
  if (name == "sort" || name == "topk") { // tl::sort<DIM, DESCENDING>(x), tl::topk<K, DIM>(x)
    nargs(1, 1);
    ir::Expr x = needTile(lowerExpr(args[0]), args[0], qname);
    if (x->type.rank() == 3)
      fe.fail(DiagId::Rank3Unsupported, at, {qname});
    auto targs = intTemplateArgs(fd); // tl.hpp's static_asserts have checked them
    if (targs.size() < 2)
      unsupportedCall(call);
    const ir::Type result = typeOf(call->getType(), at);
    return ir::Sort::make(x, name == "topk" || targs[1] != 0, result.shape.back(), l);
  }
  // Shapes (tl.hpp's static_asserts have checked the operands; the result's shape is the call's).
  if (name == "permute") { // tl::permute<DIMS...>(x): a view of x (the identity: x itself)
    nargs(1, 1);
    ir::Expr x = needTile(lowerExpr(args[0]), args[0], qname);
    auto targs = intTemplateArgs(fd); // DIMS first (tl.hpp's static_assert checked them)
    std::vector<int> perm, identity;
    for (int d = 0; d < x->type.rank() && d < static_cast<int>(targs.size()); ++d) {
      perm.push_back(static_cast<int>(targs[d]));
      identity.push_back(d);
    }
    if (perm.size() != identity.size() || !ir::isPermutation(perm))
      unsupportedCall(call);
    return perm == identity ? x : ir::Trans::permute(x, perm, l);
  }
  if (name == "reshape" || name == "ravel" || name == "join" || name == "interleave" ||
      name == "cat") {
    const bool two = name == "join" || name == "interleave" || name == "cat";
    const bool reorder = name == "reshape" || name == "cat"; // `can_reorder`: the order is kept
    nargs(two ? 2 : 1, (two ? 2 : 1) + (reorder ? 1 : 0));
    ir::Expr a = needTile(lowerExpr(args[0]), args[0], qname);
    ir::Expr b = two ? needTile(lowerExpr(args[1]), args[1], qname) : nullptr;
    const ir::Type result = typeOf(call->getType(), at);
    const ir::ReshapeKind how = name == "cat" ? ir::ReshapeKind::Cat
                                : name == "join" || name == "interleave"
                                    ? ir::ReshapeKind::Interleave
                                    : ir::ReshapeKind::Reshape;
    if (how == ir::ReshapeKind::Reshape) {
      if (auto *inner = ir::as<ir::Reshape>(a); inner && inner->how == ir::ReshapeKind::Reshape)
        a = inner->a; // a reshape of a reshape moves the elements once
      if (result.shape == a->type.shape)
        return a; // nothing moves
    }
    return ir::Reshape::make(how, a, b, result.shape, l);
  }
  if (name == "split") // the two tiles only a structured binding takes apart (lowerSplit)
    fe.fail(DiagId::SplitResults, at, {qname});
  unsupportedCall(call);
}

} // namespace tilec::translator
