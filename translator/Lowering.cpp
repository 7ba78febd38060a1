/// Lowers one kernel instantiation (a FunctionDecl whose template parameters are all substituted)
/// from Clang's AST to Tile IR.
///
/// Reject by default: `lowerStmt`, `lowerExprStmt`, `lowerExpr` and `lowerCall` each handle the
/// accepted subset explicitly; everything else falls through to one report (UnsupportedStmt,
/// UnsupportedExpr, UnsupportedCall). Result types of tile operations come from the types Clang
/// computed with tl.hpp; the promotion rules (docs/language.md) decide only where operand casts go.
///
/// KernelLowering's member functions are spread over seven files, one per kind of construct:
///   Lowering.cpp          the kernel: parameters, template arguments (meta-parameters), body
///   LoweringStmt.cpp      statements, including assignments and other expression statements
///   LoweringExpr.cpp      expressions: operators, casts, conversions, elementwise promotion
///   LoweringTileOps.cpp   calls to tile operations (tl::load, tl::sum, tl::exp, ...)
///   LoweringCalls.cpp     calls to the user's own functions and lambdas, inlined
///   LoweringDescriptors.cpp  tensor descriptors (tl::make_tensor_descriptor, load, store)
///   LoweringTypes.cpp     Clang types to Tile IR types, promotion, casts, constant folding and
///                         broadcasting
/// FrontEndContext (diagnostics, source locations) lives in FrontEndContext.cpp.

#include "translator/Lowering.h"

#include "ir/Identifier.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/StringExtras.h>

namespace tilec::translator {

using ir::ScalarType;

KernelLowering::Nesting::Nesting(FrontEndContext &fe, int &depth, const char *what,
                                 const char *hint, clang::SourceLocation at)
    : depth(depth) {
  if (depth == kMaxNesting)
    fe.fail(DiagId::NestingTooDeep, at, {what, std::to_string(kMaxNesting), hint});
  ++depth;
}

bool KernelLowering::lower(const clang::FunctionDecl *fn, const clang::FunctionDecl *primary) {
  try {
    k.name = fn->getNameAsString();
    k.loc = fe.irLoc(primary->getLocation());
    lowerScope(fn);
    if (!fn->getReturnType()->isVoidType())
      fe.fail(DiagId::ReturnValue, primary->getReturnTypeSourceRange().getBegin().isValid()
                                       ? primary->getReturnTypeSourceRange().getBegin()
                                       : primary->getLocation());
    lowerTemplateArgs(fn);
    int64_t paramBytes = 0;
    for (unsigned i = 0; i < fn->getNumParams(); ++i) {
      const clang::ParmVarDecl *p = fn->getParamDecl(i);
      auto t = elementOf(p->getType());
      std::string name = p->getName().empty() ? "arg" + std::to_string(i) : p->getNameAsString();
      if (!t)
        fe.fail(DiagId::UnsupportedParamType, p->getLocation(), {name, typeName(p->getType())});
      // The launch ABI's parameter space: CUDA takes 32764 bytes (sm_70 and later, CUDA 12.1 and
      // later); tilec applies the same limit to HIP.
      const int64_t size = t->pointer ? 8 : ir::byteSize(t->elem);
      paramBytes = (paramBytes + size - 1) / size * size + size;
      if (paramBytes > kMaxParamBytes)
        fe.fail(DiagId::ParamSpaceExceeded, p->getLocation(),
                {std::to_string(paramBytes), name, std::to_string(kMaxParamBytes)});
      auto v = k.newVar(name, *t, ir::VarKind::Param, fe.irLoc(p->getLocation()));
      k.params.push_back(v);
      vars[p] = v;
    }
    parseSettings(fe, primary, k);
    auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(fn->getBody());
    if (!body)
      fe.fail(DiagId::UnsupportedStmt, fn->getLocation(), {"kernel without a body"});
    std::vector<ir::Stmt> stmts;
    std::vector<const clang::Stmt *> items(body->body_begin(), body->body_end());
    lowerKernelStmts(items, stmts);
    k.body = ir::Block::make(std::move(stmts), fe.irLoc(body->getBeginLoc()));
    return true;
  } catch (const LoweringStopped &) {
    return false;
  }
}

std::vector<const clang::Stmt *> KernelLowering::stmtList(const clang::Stmt *s) {
  std::vector<const clang::Stmt *> r;
  if (auto *cs = llvm::dyn_cast_or_null<clang::CompoundStmt>(s))
    r.assign(cs->body_begin(), cs->body_end());
  else if (s)
    r.push_back(s);
  return r;
}

/// The statement `s` (a branch of an `if`) as a list, and whether it ends in `return;`.
static std::vector<const clang::Stmt *> branchStmts(const clang::Stmt *s,
                                                    const clang::ReturnStmt **ret) {
  std::vector<const clang::Stmt *> r = KernelLowering::stmtList(s);
  *ret = r.empty() ? nullptr : llvm::dyn_cast<clang::ReturnStmt>(r.back());
  return r;
}

void KernelLowering::lowerKernelStmts(const std::vector<const clang::Stmt *> &items,
                                      std::vector<ir::Stmt> &out) {
  for (size_t i = 0; i < items.size(); ++i) {
    const clang::Stmt *s = items[i];
    if (auto *ret = llvm::dyn_cast<clang::ReturnStmt>(s)) {
      if (i + 1 != items.size())
        fe.fail(DiagId::EarlyReturn, ret->getBeginLoc());
      // `return tl::store(...);`: a void expression, which a void function may return.
      if (const clang::Expr *v = ret->getRetValue()) {
        if (!v->getType()->isVoidType())
          fe.fail(DiagId::ReturnValue, ret->getBeginLoc());
        lowerStmt(v, out);
      }
      return;
    }
    // An early return: an `if` of the kernel's own block whose branch ends in `return;`. Its
    // condition is a scalar, the same in every thread of the program, so the rest of the block
    // becomes the other branch: `if (c) { A; return; } B;` is `if (c) { A; } else { B; }`.
    auto *is = llvm::dyn_cast<clang::IfStmt>(s);
    const clang::ReturnStmt *thenRet = nullptr, *elseRet = nullptr;
    std::vector<const clang::Stmt *> thenItems, elseItems;
    if (is && !is->isConstexpr() && !is->isConsteval() && !is->getInit() &&
        !is->getConditionVariable()) {
      thenItems = branchStmts(is->getThen(), &thenRet);
      elseItems = branchStmts(is->getElse(), &elseRet);
    }
    if (!thenRet && !elseRet) {
      lowerStmt(s, out);
      continue;
    }
    std::vector<const clang::Stmt *> rest(items.begin() + long(i) + 1, items.end());
    if (thenRet && elseRet && !rest.empty()) // both branches return: nothing after runs
      fe.fail(DiagId::EarlyReturn, elseRet->getBeginLoc());
    if (!thenRet)
      thenItems.insert(thenItems.end(), rest.begin(), rest.end());
    if (!elseRet)
      elseItems.insert(elseItems.end(), rest.begin(), rest.end());
    ir::Expr c;
    {
      PendingScope here(*this, &out); // the condition's calls run before the `if`
      c = lowerCond(is->getCond());
    }
    std::vector<ir::Stmt> thenOut, elseOut;
    lowerKernelStmts(thenItems, thenOut);
    lowerKernelStmts(elseItems, elseOut);
    // Emitted as written (`if (c) { A; return; } B;`) where the `then` branch returns.
    ir::Stmt branch = ir::If::make(
        c, ir::Block::make(std::move(thenOut), loc(is->getThen())),
        elseOut.empty() ? nullptr : ir::Block::make(std::move(elseOut), loc(is)), loc(is));
    std::const_pointer_cast<ir::If>(std::static_pointer_cast<const ir::If>(branch))->earlyReturn =
        thenRet != nullptr;
    out.push_back(branch);
    return;
  }
}

void KernelLowering::lowerScope(const clang::FunctionDecl *fn) {
  // Named namespaces become the scope of what the output declares; the classes of a static member
  // kernel (`S::k<128>`) prefix its instance name (`S_k_128`), as a namespace cannot be declared in
  // a class. Anonymous namespaces and linkage specifications are left out.
  std::vector<ir::EnclosingNamespace> scope;
  std::string classes;
  for (const clang::DeclContext *dc = fn->getDeclContext(); dc && !dc->isTranslationUnit();
       dc = dc->getParent()) {
    if (auto *ns = llvm::dyn_cast<clang::NamespaceDecl>(dc)) {
      if (!ns->isAnonymousNamespace())
        scope.insert(scope.begin(), {ns->getNameAsString(), ns->isInline()});
    } else if (auto *rd = llvm::dyn_cast<clang::RecordDecl>(dc)) {
      classes = rd->getNameAsString() + "_" + classes;
    }
  }
  k.scope = std::move(scope);
  baseName = ir::asciiIdentifier(classes + k.name);
}

/// `value` as a C++ literal of `type` (an integer type other than bool), as the output's constant of
/// that type is initialized: `4294967295U`, `-3L`, `(-9223372036854775807LL - 1)` (no literal spells
/// the most negative value of a type).
std::string KernelLowering::literalOf(const llvm::APSInt &value, clang::QualType type) {
  const bool isUnsigned = type->isUnsignedIntegerType();
  const bool isLong = type->isSpecificBuiltinType(clang::BuiltinType::Long) ||
                      type->isSpecificBuiltinType(clang::BuiltinType::ULong);
  const bool isLongLong = type->isSpecificBuiltinType(clang::BuiltinType::LongLong) ||
                          type->isSpecificBuiltinType(clang::BuiltinType::ULongLong);
  const bool isInt = type->isSpecificBuiltinType(clang::BuiltinType::Int) ||
                     type->isSpecificBuiltinType(clang::BuiltinType::UInt);
  // Narrower types (char, short) take an int literal, which converts without loss.
  std::string suffix = std::string(isUnsigned && (isInt || isLong || isLongLong) ? "U" : "") +
                       (isLong ? "L" : isLongLong ? "LL" : "");
  if (value.isSigned() && value.isMinSignedValue() && (isInt || isLong || isLongLong)) {
    llvm::APSInt max = value;
    max.flipAllBits(); // the largest value of the type: -(max) - 1 is the smallest
    return "(-" + llvm::toString(max, 10, max.isSigned()) + suffix + " - 1)";
  }
  return llvm::toString(value, 10, value.isSigned()) + suffix;
}

void KernelLowering::lowerTemplateArgs(const clang::FunctionDecl *fn) {
  const clang::TemplateArgumentList *args = fn->getTemplateSpecializationArgs();
  const clang::FunctionTemplateDecl *ftd = fn->getPrimaryTemplate();
  if (!args || !ftd) {
    // A kernel that is not a template: its instance cannot be named after the kernel alone, since
    // the namespace would collide with the function itself in a file that holds both the CPU
    // reference and the generated code.
    k.instanceName = baseName + "_instance";
    return;
  }
  const clang::TemplateParameterList *params = ftd->getTemplateParameters();
  std::vector<std::string> spelled, mangled;
  for (unsigned i = 0; i < args->size() && i < params->size(); ++i) {
    const clang::NamedDecl *param = params->getParam(i);
    const clang::TemplateArgument &arg = args->get(i);
    std::string pname = param->getNameAsString();
    if (arg.getKind() == clang::TemplateArgument::Integral) {
      const llvm::APSInt &value = arg.getAsIntegral();
      clang::QualType type = arg.getIntegralType().getCanonicalType();
      const clang::EnumConstantDecl *enumerator = nullptr;
      if (const auto *et = type->getAs<clang::EnumType>()) {
        for (const clang::EnumConstantDecl *c : et->getDecl()->enumerators())
          if (llvm::APSInt::isSameValue(c->getInitVal(), value) && !enumerator)
            enumerator = c;
        type = et->getDecl()->getIntegerType().getCanonicalType();
      }
      if (value.getBitWidth() > 64)
        fe.fail(DiagId::UnsupportedType, param->getLocation(),
                {typeName(arg.getIntegralType()), "a meta-parameter of an integer type of at most 64 bits"});
      ir::MetaParam mp;
      mp.name = pname;
      mp.isBool = type->isBooleanType();
      mp.value = value.isSigned() ? value.getSExtValue() : static_cast<int64_t>(value.getZExtValue());
      const uint64_t magnitude = value.isNegative() ? 0 - static_cast<uint64_t>(mp.value) : value.getZExtValue();
      const std::string digits = std::to_string(magnitude);
      if (!mp.isBool) {
        mp.type = type.getAsString();
        mp.promotesToInt = ctx.getTypeSize(type) < 32 || type->isSpecificBuiltinType(clang::BuiltinType::Int);
        mp.literal = literalOf(value, type);
      }
      if (enumerator) // `Edge::Clip` as the source would qualify it
        mp.enumerator = enumerator->getQualifiedNameAsString();
      k.metaParams.push_back(mp);
      std::string text;
      llvm::raw_string_ostream os(text);
      arg.print(ctx.getPrintingPolicy(), os, /*IncludeType=*/false);
      spelled.push_back(os.str());
      // The instance name reads the enumerator (`affine_f16_Clip_256`), else the number.
      mangled.push_back(mp.isBool     ? (mp.value ? "1" : "0")
                        : enumerator ? ir::asciiIdentifier(enumerator->getNameAsString())
                                     : (value.isNegative() ? "m" : "") + digits);
    } else if (arg.getKind() == clang::TemplateArgument::StructuralValue &&
               arg.getAsStructuralValue().isFloat() &&
               (arg.getStructuralValueType()->isSpecificBuiltinType(clang::BuiltinType::Float) ||
                arg.getStructuralValueType()->isSpecificBuiltinType(clang::BuiltinType::Double))) {
      // A float or double meta-parameter (C++20): a named constant of the output, spelled so that
      // it reads back as the same value.
      const bool isDouble = arg.getStructuralValueType()->isSpecificBuiltinType(clang::BuiltinType::Double);
      const double v = arg.getAsStructuralValue().getFloat().convertToDouble();
      if (!std::isfinite(v))
        fe.fail(DiagId::UnsupportedType, param->getLocation(),
                {typeName(arg.getStructuralValueType()), "a finite floating-point meta-parameter"});
      ir::MetaParam mp;
      mp.name = pname;
      mp.isFloat = true;
      mp.floatValue = v;
      mp.promotesToInt = false;
      mp.type = isDouble ? "double" : "float";
      // The shortest spelling that reads back as the value (1e-06f, not 9.99999997e-07f).
      char buf[64];
      for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        const double back = std::strtod(buf, nullptr);
        if (isDouble ? back == v : static_cast<float>(back) == static_cast<float>(v))
          break;
      }
      std::string lit = buf;
      if (lit.find_first_of(".e") == std::string::npos)
        lit += ".0";
      mp.literal = lit + (isDouble ? "" : "f");
      k.metaParams.push_back(mp);
      std::string text;
      llvm::raw_string_ostream os(text);
      arg.print(ctx.getPrintingPolicy(), os, /*IncludeType=*/false);
      spelled.push_back(os.str());
      // 1e-06 -> 1em06, 0.5 -> 0p5, -2.5 -> m2p5: letters and digits only.
      std::string m;
      for (char c : lit)
        m += c == '.' ? std::string("p") : c == '-' ? std::string("m") : c == '+' ? std::string() : std::string(1, c);
      mangled.push_back(m);
    } else if (arg.getKind() == clang::TemplateArgument::Type) {
      auto e = elementOf(arg.getAsType());
      if (!e || e->pointer)
        fe.fail(DiagId::UnsupportedType, param->getLocation(),
                {typeName(arg.getAsType()), "a scalar type or an int or bool meta-parameter"});
      spelled.push_back(typeName(arg.getAsType()));
      mangled.push_back(ir::name(e->elem));
    } else {
      fe.fail(DiagId::UnsupportedType, param->getLocation(),
              {pname, "an integer, bool, enumeration, float or double meta-parameter (or a scalar type)"});
    }
  }
  std::string ta = "<", in = baseName;
  for (size_t i = 0; i < spelled.size(); ++i) {
    ta += (i ? ", " : "") + spelled[i];
    in += "_" + mangled[i];
  }
  k.templateArgs = ta + ">";
  k.instanceName = in;
}

bool lowerKernel(FrontEndContext &fe, const clang::FunctionDecl *fn, const clang::FunctionDecl *primary,
                 ir::Kernel &out) {
  KernelLowering l(fe, out);
  return l.lower(fn, primary);
}

} // namespace tilec::translator
