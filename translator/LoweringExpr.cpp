/// KernelLowering, expressions: variables, casts and conversions, builtin operators on scalars and
/// pointers, the ?: operator, the operator tables from Clang's opcodes to ir::BinaryOp, and
/// `elementwise`, which gives tl::tile's operators and compound assignments their promotion casts
/// and explicit broadcasts. Constants are folded first (LoweringTypes.cpp); calls go to lowerCall
/// (LoweringTileOps.cpp). Other expressions are reported as UnsupportedExpr.

#include "translator/Lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

namespace tilec::translator {

using ir::ScalarType;

std::optional<ir::BinaryOp> KernelLowering::compoundOp(clang::OverloadedOperatorKind k) {
  switch (k) {
  case clang::OO_PlusEqual: return ir::BinaryOp::Add;
  case clang::OO_MinusEqual: return ir::BinaryOp::Sub;
  case clang::OO_StarEqual: return ir::BinaryOp::Mul;
  case clang::OO_SlashEqual: return ir::BinaryOp::Div;
  case clang::OO_PercentEqual: return ir::BinaryOp::Mod;
  case clang::OO_AmpEqual: return ir::BinaryOp::And;
  case clang::OO_PipeEqual: return ir::BinaryOp::Or;
  case clang::OO_CaretEqual: return ir::BinaryOp::Xor;
  case clang::OO_LessLessEqual: return ir::BinaryOp::Shl;
  case clang::OO_GreaterGreaterEqual: return ir::BinaryOp::Shr;
  default: return std::nullopt;
  }
}

std::optional<ir::BinaryOp> KernelLowering::overloadedBinaryOp(clang::OverloadedOperatorKind k) {
  switch (k) {
  case clang::OO_Plus: return ir::BinaryOp::Add;
  case clang::OO_Minus: return ir::BinaryOp::Sub;
  case clang::OO_Star: return ir::BinaryOp::Mul;
  case clang::OO_Slash: return ir::BinaryOp::Div;
  case clang::OO_Percent: return ir::BinaryOp::Mod;
  case clang::OO_Amp: return ir::BinaryOp::And;
  case clang::OO_Pipe: return ir::BinaryOp::Or;
  case clang::OO_Caret: return ir::BinaryOp::Xor;
  case clang::OO_LessLess: return ir::BinaryOp::Shl;
  case clang::OO_GreaterGreater: return ir::BinaryOp::Shr;
  case clang::OO_AmpAmp: return ir::BinaryOp::LAnd;
  case clang::OO_PipePipe: return ir::BinaryOp::LOr;
  case clang::OO_Less: return ir::BinaryOp::Lt;
  case clang::OO_LessEqual: return ir::BinaryOp::Le;
  case clang::OO_Greater: return ir::BinaryOp::Gt;
  case clang::OO_GreaterEqual: return ir::BinaryOp::Ge;
  case clang::OO_EqualEqual: return ir::BinaryOp::Eq;
  case clang::OO_ExclaimEqual: return ir::BinaryOp::Ne;
  default: return compoundOp(k);
  }
}

std::optional<ir::BinaryOp> KernelLowering::builtinBinaryOp(clang::BinaryOperatorKind k) {
  switch (k) {
  case clang::BO_Add: case clang::BO_AddAssign: return ir::BinaryOp::Add;
  case clang::BO_Sub: case clang::BO_SubAssign: return ir::BinaryOp::Sub;
  case clang::BO_Mul: case clang::BO_MulAssign: return ir::BinaryOp::Mul;
  case clang::BO_Div: case clang::BO_DivAssign: return ir::BinaryOp::Div;
  case clang::BO_Rem: case clang::BO_RemAssign: return ir::BinaryOp::Mod;
  case clang::BO_And: case clang::BO_AndAssign: return ir::BinaryOp::And;
  case clang::BO_Or: case clang::BO_OrAssign: return ir::BinaryOp::Or;
  case clang::BO_Xor: case clang::BO_XorAssign: return ir::BinaryOp::Xor;
  case clang::BO_Shl: case clang::BO_ShlAssign: return ir::BinaryOp::Shl;
  case clang::BO_Shr: case clang::BO_ShrAssign: return ir::BinaryOp::Shr;
  case clang::BO_LAnd: return ir::BinaryOp::LAnd;
  case clang::BO_LOr: return ir::BinaryOp::LOr;
  case clang::BO_LT: return ir::BinaryOp::Lt;
  case clang::BO_LE: return ir::BinaryOp::Le;
  case clang::BO_GT: return ir::BinaryOp::Gt;
  case clang::BO_GE: return ir::BinaryOp::Ge;
  case clang::BO_EQ: return ir::BinaryOp::Eq;
  case clang::BO_NE: return ir::BinaryOp::Ne;
  default: return std::nullopt;
  }
}

const clang::Expr *KernelLowering::strip(const clang::Expr *e) {
  using namespace clang;
  while (true) {
    if (auto *p = dyn_cast<ParenExpr>(e))
      e = p->getSubExpr();
    else if (auto *ic = dyn_cast<ImplicitCastExpr>(e);
             ic && (ic->getCastKind() == CK_NoOp || ic->getCastKind() == CK_LValueToRValue ||
                    ic->getCastKind() == CK_ConstructorConversion))
      e = ic->getSubExpr();
    else if (auto *fc = dyn_cast<CXXFunctionalCastExpr>(e);
             fc && (fc->getCastKind() == CK_NoOp || fc->getCastKind() == CK_ConstructorConversion))
      e = fc->getSubExpr();
    else if (auto *sc = dyn_cast<CXXStaticCastExpr>(e); sc && sc->getCastKind() == CK_NoOp)
      e = sc->getSubExpr();
    else if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (auto *b = dyn_cast<CXXBindTemporaryExpr>(e))
      e = b->getSubExpr();
    else if (auto *fe = dyn_cast<FullExpr>(e)) // ExprWithCleanups, ConstantExpr
      e = fe->getSubExpr();
    else if (auto *s = dyn_cast<SubstNonTypeTemplateParmExpr>(e))
      e = s->getReplacement();
    else if (auto *ce = dyn_cast<CXXConstructExpr>(e);
             ce && ce->getNumArgs() >= 1 && ce->getConstructor()->isCopyOrMoveConstructor())
      e = ce->getArg(0);
    else
      return e;
  }
}

ir::Expr KernelLowering::elementwise(ir::BinaryOp op, std::vector<ir::Expr> xs,
                                     std::optional<ScalarType> elem, clang::SourceLocation at,
                                     std::vector<const clang::Expr *> srcs) {
  ir::SourceLoc l = fe.irLoc(at);
  ir::Expr a = canonical(xs[0]), b = canonical(xs[1]);
  xs = {a, b};
  if (a->type.pointer || b->type.pointer) {
    bool ok = (op == ir::BinaryOp::Add && (a->type.pointer != b->type.pointer)) ||
              (op == ir::BinaryOp::Sub && a->type.pointer && !b->type.pointer);
    const ir::Expr &off = a->type.pointer ? b : a;
    if (!ok || !ir::isInt(off->type.elem) || off->type.pointer) {
      size_t bad = a->type.pointer && !(op == ir::BinaryOp::Add || op == ir::BinaryOp::Sub) ? 0 : 1;
      fe.fail(DiagId::BadOperand, srcs[bad]->getExprLoc(),
              {xs[bad]->type.str(), ir::name(op), "an integer offset added to a pointer"});
    }
    auto shape = broadcastShape({a, b}, at);
    return ir::Binary::make(op, toShape(a, shape), toShape(b, shape), l);
  }
  ScalarType t;
  if (op == ir::BinaryOp::LAnd || op == ir::BinaryOp::LOr)
    t = ScalarType::Bool;
  else if (ir::isComparison(op) || !elem)
    t = promoted({a, b});
  else
    t = *elem;
  if (op == ir::BinaryOp::Shl || op == ir::BinaryOp::Shr || op == ir::BinaryOp::And ||
      op == ir::BinaryOp::Or || op == ir::BinaryOp::Xor || op == ir::BinaryOp::Mod) {
    for (size_t i = 0; i < 2; ++i)
      if (ir::isFloat(xs[i]->type.elem) && op != ir::BinaryOp::Mod)
        fe.fail(DiagId::BadOperand, srcs[i]->getExprLoc(),
                {xs[i]->type.str(), ir::name(op), "integer or bool operands"});
  }
  if (srcs.size() > 1)
    checkConstantOperand(op, t, srcs[1]);
  auto shape = broadcastShape({a, b}, at);
  a = toShape(castTo(a, t), shape);
  b = toShape(castTo(b, t), shape);
  return ir::Binary::make(op, a, b, l);
}

ir::Expr KernelLowering::lowerExpr(const clang::Expr *e) {
  using namespace clang;
  Nesting nesting(fe, exprNesting, "expression", "compute parts of it into variables",
                  e->getExprLoc());
  const clang::Expr *written = e;
  e = strip(e);
  if (ir::Expr c = tryFold(e, written))
    return c;
  ir::SourceLoc l = fe.irLoc(e->getExprLoc());
  if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
    if (auto *vd = dyn_cast<VarDecl>(dre->getDecl())) {
      auto it = vars.find(vd);
      if (it != vars.end())
        return ir::VarRef::make(it->second, l);
    }
    if (auto *bd = dyn_cast<BindingDecl>(dre->getDecl())) {
      auto it = bindings.find(bd);
      if (it != bindings.end())
        return ir::VarRef::make(it->second, l);
    }
    fe.fail(DiagId::UnsupportedExpr, e->getExprLoc(), {fe.text(e->getSourceRange())});
  }
  if (auto *ce = dyn_cast<CastExpr>(e)) {
    switch (ce->getCastKind()) {
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_ConstructorConversion:
    case CK_UserDefinedConversion:
      return lowerExpr(ce->getSubExpr());
    case CK_IntegralCast:
    case CK_FloatingCast:
    case CK_IntegralToFloating:
    case CK_FloatingToIntegral:
    case CK_IntegralToBoolean:
    case CK_FloatingToBoolean:
    case CK_BooleanToSignedIntegral: {
      ir::Type t = typeOf(ce->getType(), ce->getExprLoc());
      return castTo(lowerExpr(ce->getSubExpr()), t.elem);
    }
    default:
      fe.fail(DiagId::UnsupportedConversion, e->getExprLoc(),
              {ce->getCastKindName(), fe.text(e->getSourceRange())});
    }
  }
  if (auto *ce = dyn_cast<CXXConstructExpr>(e)) {
    // tl::half(x), tl::bfloat16(x), tl::float8_e4m3(x) ...: a conversion.
    auto st = scalarOf(ce->getType());
    if (st && ce->getNumArgs() == 1 &&
        (*st == ScalarType::F16 || *st == ScalarType::BF16 || ir::isFloat8(*st))) {
      ir::Expr a = lowerExpr(ce->getArg(0));
      if (a->type.isTile() || a->type.pointer)
        fe.fail(DiagId::BadOperand, ce->getArg(0)->getExprLoc(),
                {a->type.str(), typeName(ce->getType()), "a scalar number"});
      return castTo(a, *st);
    }
    fe.fail(DiagId::UnsupportedExpr, e->getExprLoc(), {fe.text(e->getSourceRange())});
  }
  if (auto *mc = dyn_cast<CXXMemberCallExpr>(e)) {
    if (isDescriptorMethod(mc, "load"))
      return lowerDescriptorLoad(mc);
    if (isa_and_nonnull<CXXConversionDecl>(mc->getMethodDecl()) && scalarOf(mc->getImplicitObjectArgument()->getType())) {
      auto st = scalarOf(mc->getType());
      if (!st)
        fe.fail(DiagId::UnsupportedType, e->getExprLoc(), {typeName(mc->getType()), kExpectedTypes});
      return castTo(lowerExpr(mc->getImplicitObjectArgument()), *st);
    }
    // A tile's conversion (e.g. to bool in a condition): the tile itself, which the context
    // then rejects with a precise diagnostic (TileCondition).
    if (isa_and_nonnull<CXXConversionDecl>(mc->getMethodDecl()) && isTlRecord(mc->getImplicitObjectArgument()->getType(), "tile"))
      return lowerExpr(mc->getImplicitObjectArgument());
    unsupportedCall(mc);
  }
  if (auto *b = dyn_cast<BinaryOperator>(e)) {
    auto op = b->isAssignmentOp() || b->isCompoundAssignmentOp() ? std::nullopt : builtinBinaryOp(b->getOpcode());
    if (!op)
      fe.fail(DiagId::UnsupportedExpr, b->getOperatorLoc(), {fe.text(b->getSourceRange())});
    ir::Expr x = lowerExpr(b->getLHS()), y;
    if (b->isLogicalOp()) {
      PendingScope none(*this, nullptr,
                        "onto the right of && or || (C++ may skip it); test the left side with an "
                        "'if' and make the call inside it");
      y = lowerExpr(b->getRHS());
    } else {
      y = lowerExpr(b->getRHS());
    }
    ir::SourceLoc ol = fe.irLoc(b->getOperatorLoc());
    if (*op == ir::BinaryOp::Shl || *op == ir::BinaryOp::Shr)
      y = castTo(y, x->type.elem);
    if (!x->type.pointer)
      checkConstantOperand(*op, ir::isInt(x->type.elem) ? x->type.elem : y->type.elem, b->getRHS());
    if ((x->type.pointer || y->type.pointer) && !(*op == ir::BinaryOp::Add || *op == ir::BinaryOp::Sub))
      fe.fail(DiagId::UnsupportedExpr, b->getOperatorLoc(), {fe.text(b->getSourceRange())});
    if (x->type.pointer && y->type.pointer)
      fe.fail(DiagId::UnsupportedExpr, b->getOperatorLoc(), {fe.text(b->getSourceRange())});
    return ir::Binary::make(*op, x, y, ol);
  }
  if (auto *u = dyn_cast<UnaryOperator>(e)) {
    ir::SourceLoc ol = fe.irLoc(u->getOperatorLoc());
    switch (u->getOpcode()) {
    case UO_Plus: return lowerExpr(u->getSubExpr());
    case UO_Minus: return ir::Unary::make(ir::UnaryOp::Neg, lowerExpr(u->getSubExpr()), ol);
    case UO_Not: return ir::Unary::make(ir::UnaryOp::BitNot, lowerExpr(u->getSubExpr()), ol);
    case UO_LNot: return ir::Unary::make(ir::UnaryOp::Not, castTo(lowerExpr(u->getSubExpr()), ScalarType::Bool), ol);
    case UO_Deref: // C++'s way to read memory; a kernel reads it with tl::load
      fe.fail(DiagId::UnsupportedExpr, u->getOperatorLoc(),
              {fe.text(u->getSourceRange()) + " (read memory with tl::load(pointer))"});
    default:
      fe.fail(DiagId::UnsupportedExpr, u->getOperatorLoc(), {fe.text(u->getSourceRange())});
    }
  }
  if (auto *co = dyn_cast<ConditionalOperator>(e)) {
    ir::Expr c = lowerCond(co->getCond()), a, b;
    {
      PendingScope none(*this, nullptr,
                        "into a branch of ?: (C++ evaluates only the chosen one); use an 'if' "
                        "statement and make the call in its branch");
      a = lowerExpr(co->getTrueExpr());
      b = lowerExpr(co->getFalseExpr());
    }
    // C++ evaluates one side; tile code evaluates a tile's every element (its loads included), so
    // a choice between tiles must say that both sides run.
    if (!a->type.isScalar() || !b->type.isScalar())
      fe.fail(DiagId::TileConditional, co->getQuestionLoc(), {fe.text(co->getCond()->getSourceRange())});
    if (a->type != b->type)
      fe.fail(DiagId::UnsupportedExpr, co->getQuestionLoc(), {fe.text(co->getSourceRange())});
    return ir::Select::make(c, a, b, l);
  }
  if (auto *call = dyn_cast<CallExpr>(e)) {
    if ((isUserFunction(call->getDirectCallee()) && !isa<CXXOperatorCallExpr>(call)) ||
        lambdaCallOperator(call)) {
      ir::Expr r = inlineCall(call);
      if (!r)
        fe.fail(DiagId::UnsupportedExpr, e->getExprLoc(), {fe.text(e->getSourceRange()) + " (a void function's value)"});
      return r;
    }
    return lowerCall(call);
  }
  if (isa<ArraySubscriptExpr>(e)) // C++'s way to read memory; a kernel reads it with tl::load
    fe.fail(DiagId::UnsupportedExpr, e->getExprLoc(),
            {fe.text(e->getSourceRange()) + " (read memory with tl::load(pointer + offset))"});
  fe.fail(DiagId::UnsupportedExpr, e->getExprLoc(), {fe.text(e->getSourceRange())});
}

} // namespace tilec::translator
