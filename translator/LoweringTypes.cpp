/// KernelLowering, types and values: Clang types to Tile IR types (with the checks on tile shapes),
/// Triton's promotion rules for elementwise operands, element casts that fold immediates, constant
/// folding through Clang's evaluator (keeping a meta-parameter's name on the folded value), and
/// explicit broadcasting to a common shape.

#include "translator/Lowering.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tilec::translator {

using ir::ScalarType;

bool inTl(const clang::Decl *d) {
  const clang::DeclContext *dc = d->getDeclContext();
  while (dc && !dc->isTranslationUnit()) {
    if (auto *ns = llvm::dyn_cast<clang::NamespaceDecl>(dc))
      if (ns->getName() == "tl" && ns->getParent()->getRedeclContext()->isTranslationUnit())
        return true;
    dc = dc->getParent();
  }
  return false;
}

bool isTlRecord(clang::QualType t, llvm::StringRef name) {
  const auto *rd = t.getCanonicalType()->getAsCXXRecordDecl();
  return rd && rd->getName() == name && inTl(rd);
}

std::string shapeStr(const std::vector<int64_t> &s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

namespace {

int kindRank(ScalarType t) { return t == ScalarType::Bool ? 0 : ir::isInt(t) ? 1 : 2; }

/// Triton's promotion of two element types of the same role (tile-tile or scalar-scalar). Its fp8
/// rules: two different fp8 types give fp16, an fp8 type next to bf16 gives fp32.
ScalarType promote(ScalarType a, ScalarType b) {
  if (a == b)
    return a;
  if (ir::isFloat8(a) && ir::isFloat8(b))
    return ScalarType::F16;
  if ((ir::isFloat8(a) && b == ScalarType::BF16) || (ir::isFloat8(b) && a == ScalarType::BF16))
    return ScalarType::F32;
  if (kindRank(a) != kindRank(b))
    return kindRank(a) > kindRank(b) ? a : b;
  if (ir::bitWidth(a) != ir::bitWidth(b))
    return ir::bitWidth(a) > ir::bitWidth(b) ? a : b;
  if (a == ScalarType::F16 || b == ScalarType::F16)
    return ScalarType::F16;
  return ir::isUnsigned(a) ? a : b; // integers of one width: unsigned wins (as in C)
}

/// Does a C++ scalar of type `s` take part in promotion with a tile of element `t`?
bool scalarJoins(ScalarType t, ScalarType s) {
  if (kindRank(s) > kindRank(t))
    return true;
  return ir::isInt(s) && ir::isInt(t) && ir::bitWidth(s) > 32 && ir::bitWidth(s) > ir::bitWidth(t);
}

} // namespace

std::optional<ScalarType> KernelLowering::scalarOf(clang::QualType t) const {
  t = t.getCanonicalType().getUnqualifiedType();
  if (auto *bt = t->getAs<clang::BuiltinType>()) {
    switch (bt->getKind()) {
    case clang::BuiltinType::Bool: return ScalarType::Bool;
    case clang::BuiltinType::Char_S:
    case clang::BuiltinType::SChar: return ScalarType::I8;
    case clang::BuiltinType::Short:
      return ScalarType::I16;
    case clang::BuiltinType::Int: return ScalarType::I32;
    case clang::BuiltinType::Long:
    case clang::BuiltinType::LongLong: return ScalarType::I64;
    case clang::BuiltinType::Char_U:
    case clang::BuiltinType::UChar:
      return ScalarType::U8;
    case clang::BuiltinType::UShort:
      return ScalarType::U16;
    case clang::BuiltinType::UInt:
      return ScalarType::U32;
    case clang::BuiltinType::ULong:
    case clang::BuiltinType::ULongLong:
      return ScalarType::U64;
    case clang::BuiltinType::Float:
      return ScalarType::F32;
    // fp64 as in C++; next to a tile a double scalar counts as fp32 (Canon in tl.hpp, promoted())
    case clang::BuiltinType::Double:
      return ScalarType::F64;
    case clang::BuiltinType::Float16:
    case clang::BuiltinType::Half: return ScalarType::F16;
    case clang::BuiltinType::BFloat16: return ScalarType::BF16;
    default: return std::nullopt;
    }
  }
  if (isTlRecord(t, "half"))
    return ScalarType::F16;
  if (isTlRecord(t, "bfloat16"))
    return ScalarType::BF16;
  if (isTlRecord(t, "float8_e4m3"))
    return ScalarType::F8E4M3;
  if (isTlRecord(t, "float8_e5m2"))
    return ScalarType::F8E5M2;
  return std::nullopt;
}

std::optional<ir::Type> KernelLowering::elementOf(clang::QualType t) const {
  t = t.getCanonicalType();
  if (auto *pt = t->getAs<clang::PointerType>()) {
    clang::QualType pointee = pt->getPointeeType();
    if (auto s = scalarOf(pointee))
      return ir::Type::ptr(*s, pointee.isConstQualified());
    return std::nullopt;
  }
  if (auto s = scalarOf(t))
    return ir::Type::scalar(*s);
  return std::nullopt;
}

ir::Type KernelLowering::typeOf(clang::QualType t, clang::SourceLocation loc) {
  if (auto e = elementOf(t))
    return *e;
  const auto *rd = t.getCanonicalType()->getAsCXXRecordDecl();
  if (auto *spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(rd);
      spec && spec->getName() == "tile" && inTl(spec)) {
    std::optional<ir::Type> elem;
    std::vector<int64_t> shape;
    for (const auto &arg : spec->getTemplateArgs().asArray()) {
      if (arg.getKind() == clang::TemplateArgument::Type)
        elem = elementOf(arg.getAsType());
      else if (arg.getKind() == clang::TemplateArgument::Integral)
        shape.push_back(arg.getAsIntegral().getExtValue());
      else if (arg.getKind() == clang::TemplateArgument::Pack)
        for (const auto &p : arg.pack_elements())
          if (p.getKind() == clang::TemplateArgument::Integral)
            shape.push_back(p.getAsIntegral().getExtValue());
    }
    if (!elem || shape.empty())
      fe.fail(DiagId::UnsupportedType, loc, {typeName(t), kExpectedTypes});
    if (shape.size() > 3)
      fe.fail(DiagId::RankTooHigh, loc, {std::to_string(shape.size())});
    int64_t n = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] <= 0 || (shape[d] & (shape[d] - 1)) != 0)
        fe.fail(DiagId::BadTileShape, loc, {std::to_string(d), std::to_string(shape[d])});
      n *= shape[d];
    }
    if (n > kMaxTileElements)
      fe.fail(DiagId::TileTooLarge, loc, {std::to_string(n), std::to_string(kMaxTileElements)});
    return elem->withShape(shape);
  }
  fe.fail(DiagId::UnsupportedType, loc, {typeName(t), kExpectedTypes});
}

std::string KernelLowering::typeName(clang::QualType t) const {
  clang::PrintingPolicy pp(ctx.getLangOpts());
  pp.SuppressTagKeyword = true;
  return t.getAsString(pp);
}

ScalarType KernelLowering::promoted(const std::vector<ir::Expr> &xs) {
  std::optional<ScalarType> tileElem, scalarElem;
  for (auto &x : xs) {
    auto &slot = x->type.isTile() ? tileElem : scalarElem;
    slot = slot ? promote(*slot, x->type.elem) : x->type.elem;
  }
  if (!tileElem)
    return *scalarElem;
  if (scalarElem && scalarJoins(*tileElem, *scalarElem))
    return promote(*tileElem, *scalarElem);
  return *tileElem;
}

std::optional<ScalarType> KernelLowering::resultElem(clang::QualType t, clang::SourceLocation at) {
  ir::Type rt = typeOf(t, at);
  if (rt.pointer)
    return std::nullopt;
  return rt.elem;
}

namespace {

/// `v` converted to the integer type `to` (tl::cast: modulo 2^width).
/// (An IntImm holds a u64 value past INT64_MAX as its bits, i.e. negative.)
int64_t wrapInt(int64_t v, ScalarType to) {
  switch (to) {
  case ScalarType::I8: return static_cast<int8_t>(v);
  case ScalarType::I16:
    return static_cast<int16_t>(v);
  case ScalarType::I32: return static_cast<int32_t>(v);
  case ScalarType::U8:
    return static_cast<uint8_t>(v);
  case ScalarType::U16:
    return static_cast<uint16_t>(v);
  case ScalarType::U32:
    return static_cast<uint32_t>(v);
  default: return v;
  }
}

/// The finite float `v` converted to the integer type `to`: truncation toward zero, saturating out
/// of range (tl::cast on the CPU; undefined in Triton).
int64_t truncInt(double v, ScalarType to) {
  const int w = ir::bitWidth(to);
  if (ir::isUnsigned(to)) {
    const double lim = std::ldexp(1.0, w); // 2^w
    if (v >= lim)
      return w == 64 ? -1 : (int64_t{1} << w) - 1; // the maximum (u64: its bits)
    if (v <= 0)
      return 0;
    return static_cast<int64_t>(static_cast<uint64_t>(v));
  }
  const int64_t max = w == 64 ? INT64_MAX : (int64_t{1} << (w - 1)) - 1;
  const double lim = std::ldexp(1.0, w - 1); // 2^(w-1)
  if (v >= lim)
    return max;
  if (v <= -lim)
    return -max - 1;
  return static_cast<int64_t>(v);
}

} // namespace

ir::Expr KernelLowering::castTo(ir::Expr e, ScalarType to) {
  if (e->type.pointer || e->type.elem == to)
    return e;
  if (auto *imm = ir::as<ir::IntImm>(e);
      imm && !(e->type.elem == ScalarType::U64 && imm->value < 0)) { // (u64 past INT64_MAX: a Cast)
    if (to == ScalarType::Bool)
      return ir::IntImm::make(to, imm->value != 0, e->loc);
    if (ir::isInt(to)) {
      int64_t v = wrapInt(imm->value, to);
      return imm->symbol.empty() || v != imm->value ? ir::IntImm::make(to, v, e->loc)
                                                   : ir::IntImm::makeSymbol(to, v, imm->symbol, e->loc);
    }
    if (to == ScalarType::F32)
      return ir::FloatImm::make(to, static_cast<float>(imm->value), e->loc);
    if (to == ScalarType::F64)
      return ir::FloatImm::make(to, static_cast<double>(imm->value), e->loc);
  }
  if (auto *imm = ir::as<ir::FloatImm>(e)) {
    if (to == ScalarType::F32)
      return ir::FloatImm::make(to, static_cast<float>(imm->value), e->loc);
    if (to == ScalarType::F64)
      return ir::FloatImm::make(to, imm->value, e->loc);
    // A double constant that float holds exactly reads as a float one (`to_f16(0.5f)`).
    if (e->type.elem == ScalarType::F64 &&
        static_cast<double>(static_cast<float>(imm->value)) == imm->value)
      return ir::Cast::make(to, ir::FloatImm::make(ScalarType::F32, imm->value, e->loc), e->loc);
    if (to == ScalarType::Bool)
      return ir::IntImm::make(to, imm->value != 0, e->loc);
    if (ir::isInt(to) && std::isfinite(imm->value))
      return ir::IntImm::make(to, truncInt(imm->value, to), e->loc);
  }
  return ir::Cast::make(to, e, e->loc);
}

ir::Expr KernelLowering::canonical(ir::Expr e) {
  if (e->type.isScalar() && !e->type.pointer && e->type.elem == ScalarType::F64)
    return castTo(e, ScalarType::F32);
  return e;
}

ir::Expr KernelLowering::castTo(ir::Expr e, const ir::Type &t) {
  return t.pointer ? e : castTo(e, t.elem);
}

std::optional<int64_t> KernelLowering::constInt(const clang::Expr *e) const {
  if (e->isValueDependent())
    return std::nullopt;
  clang::Expr::EvalResult r;
  if (e->EvaluateAsInt(r, ctx) && !r.HasSideEffects)
    return r.Val.getInt().getExtValue();
  return std::nullopt;
}

void KernelLowering::checkConstantOperand(ir::BinaryOp op, ScalarType t, const clang::Expr *rhs) {
  bool divides = op == ir::BinaryOp::Div || op == ir::BinaryOp::Mod;
  bool shifts = op == ir::BinaryOp::Shl || op == ir::BinaryOp::Shr;
  if (!rhs || !(divides || shifts) || !ir::isInt(t))
    return;
  std::optional<int64_t> v = constInt(rhs);
  if (!v)
    return;
  if (divides && *v == 0)
    fe.fail(DiagId::DivisionByZero, rhs->getExprLoc(),
            {op == ir::BinaryOp::Div ? "division" : "remainder"});
  int64_t bits = 8 * ir::byteSize(t);
  if (shifts && (*v < 0 || *v >= bits))
    fe.fail(DiagId::ShiftOutOfRange, rhs->getExprLoc(),
            {std::to_string(*v), ir::name(t), std::to_string(bits - 1)});
}

std::string KernelLowering::metaParameterName(const clang::Expr *e) {
  using namespace clang;
  for (;;) {
    if (auto *p = dyn_cast<ParenExpr>(e))
      e = p->getSubExpr();
    else if (auto *ic = dyn_cast<ImplicitCastExpr>(e);
             ic && (ic->getCastKind() == CK_IntegralCast || ic->getCastKind() == CK_NoOp ||
                    ic->getCastKind() == CK_LValueToRValue))
      e = ic->getSubExpr();
    else if (auto *fe = dyn_cast<FullExpr>(e))
      e = fe->getSubExpr();
    else
      break;
  }
  if (auto *s = dyn_cast<SubstNonTypeTemplateParmExpr>(e))
    return s->getParameter()->getName().str();
  return "";
}

std::string KernelLowering::intMetaParameterName(const clang::Expr *e) const {
  std::string name = metaParameterName(e);
  for (const ir::MetaParam &mp : k.metaParams)
    if (mp.name == name)
      return mp.promotesToInt ? name : "";
  return "";
}

ir::Expr KernelLowering::tryFold(const clang::Expr *e, const clang::Expr *written) {
  clang::QualType t = e->getType();
  if (e->isValueDependent() || !t->isArithmeticType())
    return nullptr;
  auto st = scalarOf(t);
  if (!st)
    return nullptr;
  clang::Expr::EvalResult r;
  if (!e->EvaluateAsRValue(r, ctx) || r.HasSideEffects)
    return nullptr;
  ir::SourceLoc l = fe.irLoc(e->getExprLoc());
  if (r.Val.isInt()) {
    int64_t v = r.Val.getInt().getExtValue();
    if (ir::isFloat(*st))
      return ir::FloatImm::make(*st, static_cast<double>(v), l);
    if (*st == ScalarType::Bool)
      return ir::IntImm::make(*st, v != 0, l);
    // A template parameter keeps its name, so the output can say `BLOCK` rather than `1024`.
    if (std::string sym = intMetaParameterName(written ? written : e); !sym.empty())
      return ir::IntImm::makeSymbol(*st, v, sym, l);
    return ir::IntImm::make(*st, v, l);
  }
  if (r.Val.isFloat()) {
    double v = r.Val.getFloat().convertToDouble();
    if (*st == ScalarType::F32)
      v = static_cast<double>(static_cast<float>(v));
    if (!ir::isFloat(*st))
      return nullptr;
    // A float meta-parameter keeps its name (`EPS`), as an int one does.
    std::string sym = metaParameterName(written ? written : e);
    for (const ir::MetaParam &mp : k.metaParams)
      if (mp.isFloat && mp.name == sym && !sym.empty())
        return ir::FloatImm::makeSymbol(*st, v, sym, l);
    return ir::FloatImm::make(*st, v, l);
  }
  return nullptr;
}

std::vector<int64_t> KernelLowering::broadcastShape(const std::vector<ir::Expr> &xs,
                                                   clang::SourceLocation at) {
  std::vector<int64_t> r;
  for (auto &x : xs) {
    const auto &s = x->type.shape;
    if (s.empty())
      continue;
    if (r.empty()) {
      r = s;
      continue;
    }
    std::vector<int64_t> a = r, b = s, out(std::max(a.size(), b.size()));
    while (a.size() < out.size())
      a.insert(a.begin(), 1);
    while (b.size() < out.size())
      b.insert(b.begin(), 1);
    for (size_t d = 0; d < out.size(); ++d) {
      if (a[d] != b[d] && a[d] != 1 && b[d] != 1)
        fe.fail(DiagId::ShapeMismatch, at, {shapeStr(r), shapeStr(s)});
      out[d] = a[d] == 1 ? b[d] : a[d];
    }
    r = out;
  }
  return r;
}

ir::Expr KernelLowering::toShape(ir::Expr e, const std::vector<int64_t> &shape) {
  if (shape.empty() || e->type.shape == shape)
    return e;
  if (e->type.isScalar())
    return ir::Splat::make(e, shape, e->loc);
  while (e->type.rank() < static_cast<int>(shape.size()))
    e = ir::ExpandDims::make(e, 0, e->loc);
  if (e->type.shape != shape)
    e = ir::Broadcast::make(e, shape, e->loc);
  return e;
}

} // namespace tilec::translator
