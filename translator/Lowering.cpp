/// Lowers one kernel instantiation (a FunctionDecl whose template parameters are all substituted)
/// from Clang's AST to Tile IR.
///
/// Reject by default: `lowerStmt`, `lowerExprStmt`, `lowerExpr` and `lowerCall` each handle the
/// accepted subset explicitly; everything else falls through to one report (UnsupportedStmt,
/// UnsupportedExpr, UnsupportedCall). Result types of tile operations come from the types Clang
/// computed with tl.hpp; the promotion rules (docs/language.md) decide only where operand casts go.

#include "translator/FrontEnd.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Lex/Lexer.h>

#include <cmath>
#include <optional>
#include <sstream>

namespace tilec::translator {

using ir::ScalarType;

// ---- FrontEndContext -------------------------------------------------------------------------------

bool FrontEndContext::report(DiagId id, clang::SourceLocation loc,
                             const std::vector<std::string> &args) {
  clang::SourceLocation exp = loc.isValid() ? sm.getExpansionLoc(loc) : loc;
  if (!reported.insert({exp.getRawEncoding(), static_cast<int>(id)}).second &&
      severityOf(id) != Severity::Note)
    return false;
  auto &diags = ctx.getDiagnostics();
  Severity sev = severityOf(id);
  auto level = sev == Severity::Error     ? clang::DiagnosticIDs::Error
               : sev == Severity::Warning ? clang::DiagnosticIDs::Warning
                                          : clang::DiagnosticIDs::Note;
  unsigned diagId = diags.getDiagnosticIDs()->getCustomDiagID(level, formatOf(id));
  auto builder = diags.Report(exp, diagId);
  for (auto &a : args)
    builder << a;
  return true;
}

int FrontEndContext::fileIndex(clang::FileID fid) {
  auto it = files.find(fid);
  if (it != files.end())
    return it->second;
  ir::SourceFile f;
  if (auto entry = sm.getFileEntryRefForID(fid))
    f.name = entry->getName().str();
  else
    f.name = "<unknown>";
  bool invalid = false;
  llvm::StringRef data = sm.getBufferData(fid, &invalid);
  if (!invalid) {
    size_t start = 0;
    while (start <= data.size()) {
      size_t nl = data.find('\n', start);
      if (nl == llvm::StringRef::npos) {
        if (start < data.size())
          f.lines.push_back(data.substr(start).str());
        break;
      }
      std::string line = data.substr(start, nl - start).str();
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      f.lines.push_back(line);
      start = nl + 1;
    }
  }
  if (fid == sm.getMainFileID() && f.lines.size() > mainFileLines)
    f.lines.resize(mainFileLines); // drop the appended --instantiate code
  int idx = static_cast<int>(module.files.size());
  module.files.push_back(std::move(f));
  files[fid] = idx;
  return idx;
}

int FrontEndContext::mainFileIndex() { return fileIndex(sm.getMainFileID()); }

ir::SourceLoc FrontEndContext::irLoc(clang::SourceLocation loc) {
  if (loc.isInvalid())
    return {};
  clang::SourceLocation exp = sm.getExpansionLoc(loc);
  clang::FileID fid = sm.getFileID(exp);
  if (fid.isInvalid())
    return {};
  ir::SourceLoc r;
  r.file = fileIndex(fid);
  r.line = static_cast<int>(sm.getExpansionLineNumber(exp));
  r.col = static_cast<int>(sm.getExpansionColumnNumber(exp));
  return r;
}

std::string FrontEndContext::text(clang::SourceRange range) const {
  clang::CharSourceRange r = clang::CharSourceRange::getTokenRange(
      sm.getExpansionRange(range.getBegin()).getBegin(), sm.getExpansionRange(range.getEnd()).getEnd());
  std::string s = clang::Lexer::getSourceText(r, sm, ctx.getLangOpts()).str();
  size_t nl = s.find('\n');
  if (nl != std::string::npos)
    s = s.substr(0, nl) + " ...";
  if (s.size() > 60)
    s = s.substr(0, 57) + "...";
  return s;
}

namespace {

const char *kExpectedTypes = "bool, int8_t, int32_t, int64_t, float, tl::half, tl::bfloat16, a "
                             "pointer to one of those, or a tl::tile of them";

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

int kindRank(ScalarType t) { return t == ScalarType::Bool ? 0 : ir::isInt(t) ? 1 : 2; }

/// Triton's promotion of two element types of the same role (tile-tile or scalar-scalar).
ScalarType promote(ScalarType a, ScalarType b) {
  if (kindRank(a) != kindRank(b))
    return kindRank(a) > kindRank(b) ? a : b;
  if (ir::bitWidth(a) != ir::bitWidth(b))
    return ir::bitWidth(a) > ir::bitWidth(b) ? a : b;
  if (a == ScalarType::F16 || b == ScalarType::F16)
    return ScalarType::F16;
  return a;
}

/// Does a C++ scalar of type `s` take part in promotion with a tile of element `t`?
bool scalarJoins(ScalarType t, ScalarType s) {
  if (kindRank(s) > kindRank(t))
    return true;
  return ir::isInt(s) && ir::isInt(t) && ir::bitWidth(s) > 32 && ir::bitWidth(s) > ir::bitWidth(t);
}

/// Finds assignments to one variable (for-loop bodies that change their index are lowered as
/// while loops).
class AssignFinder : public clang::RecursiveASTVisitor<AssignFinder> {
public:
  explicit AssignFinder(const clang::VarDecl *vd) : vd(vd) {}
  bool found = false;
  bool refersTo(const clang::Expr *e) const {
    auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    return dre && dre->getDecl() == vd;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *b) {
    if (b->isAssignmentOp() && refersTo(b->getLHS()))
      found = true;
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *u) {
    if ((u->isIncrementDecrementOp() || u->getOpcode() == clang::UO_AddrOf) && refersTo(u->getSubExpr()))
      found = true;
    return true;
  }

private:
  const clang::VarDecl *vd;
};

class KernelLowering {
public:
  KernelLowering(FrontEndContext &fe, ir::Kernel &k) : fe(fe), ctx(fe.ctx), k(k) {}

  // ---- types ---------------------------------------------------------------------------------------
  std::optional<ScalarType> scalarOf(clang::QualType t) const {
    t = t.getCanonicalType().getUnqualifiedType();
    if (auto *bt = t->getAs<clang::BuiltinType>()) {
      switch (bt->getKind()) {
      case clang::BuiltinType::Bool: return ScalarType::Bool;
      case clang::BuiltinType::Char_S:
      case clang::BuiltinType::SChar: return ScalarType::I8;
      case clang::BuiltinType::Int: return ScalarType::I32;
      case clang::BuiltinType::Long:
      case clang::BuiltinType::LongLong: return ScalarType::I64;
      case clang::BuiltinType::Float:
      case clang::BuiltinType::Double: return ScalarType::F32; // a double scalar counts as fp32
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
    return std::nullopt;
  }

  /// Scalar or pointer element (no tiles).
  std::optional<ir::Type> elementOf(clang::QualType t) const {
    t = t.getCanonicalType();
    if (auto *pt = t->getAs<clang::PointerType>()) {
      clang::QualType pointee = pt->getPointeeType();
      if (pointee->isSpecificBuiltinType(clang::BuiltinType::Double))
        return std::nullopt; // no fp64 data in tilec
      if (auto s = scalarOf(pointee))
        return ir::Type::ptr(*s, pointee.isConstQualified());
      return std::nullopt;
    }
    if (auto s = scalarOf(t))
      return ir::Type::scalar(*s);
    return std::nullopt;
  }

  /// The Tile IR type of a Clang type; reports (at `loc`) and stops when unsupported.
  ir::Type typeOf(clang::QualType t, clang::SourceLocation loc) {
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
      if (shape.size() > 2)
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

  std::string typeName(clang::QualType t) const {
    clang::PrintingPolicy pp(ctx.getLangOpts());
    pp.SuppressTagKeyword = true;
    return t.getAsString(pp);
  }

  static constexpr int64_t kMaxTileElements = 1 << 20;

  // ---- kernel --------------------------------------------------------------------------------------
  bool lower(const clang::FunctionDecl *fn, const clang::FunctionDecl *primary) {
    try {
      k.name = fn->getNameAsString();
      k.loc = fe.irLoc(primary->getLocation());
      if (!fn->getReturnType()->isVoidType())
        fe.fail(DiagId::ReturnValue, primary->getReturnTypeSourceRange().getBegin().isValid()
                                         ? primary->getReturnTypeSourceRange().getBegin()
                                         : primary->getLocation());
      lowerTemplateArgs(fn);
      for (unsigned i = 0; i < fn->getNumParams(); ++i) {
        const clang::ParmVarDecl *p = fn->getParamDecl(i);
        auto t = elementOf(p->getType());
        if (p->getType()->isSpecificBuiltinType(clang::BuiltinType::Double))
          t.reset(); // a double argument would be silently narrowed
        std::string name = p->getName().empty() ? "arg" + std::to_string(i) : p->getNameAsString();
        if (!t)
          fe.fail(DiagId::UnsupportedParamType, p->getLocation(), {name, typeName(p->getType())});
        auto v = k.newVar(name, *t, ir::VarKind::Param, fe.irLoc(p->getLocation()));
        k.params.push_back(v);
        vars[p] = v;
      }
      parseSettings(fe, primary, k);
      auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(fn->getBody());
      if (!body)
        fe.fail(DiagId::UnsupportedStmt, fn->getLocation(), {"kernel without a body"});
      std::vector<ir::Stmt> stmts;
      auto items = body->body();
      size_t n = body->size(), i = 0;
      for (const clang::Stmt *s : items) {
        ++i;
        if (auto *ret = llvm::dyn_cast<clang::ReturnStmt>(s)) {
          if (ret->getRetValue())
            fe.fail(DiagId::ReturnValue, ret->getBeginLoc());
          if (i != n)
            fe.fail(DiagId::EarlyReturn, ret->getBeginLoc());
          continue;
        }
        lowerStmt(s, stmts);
      }
      k.body = ir::Block::make(std::move(stmts), fe.irLoc(body->getBeginLoc()));
      return true;
    } catch (const LoweringStopped &) {
      return false;
    }
  }

  void lowerTemplateArgs(const clang::FunctionDecl *fn) {
    const clang::TemplateArgumentList *args = fn->getTemplateSpecializationArgs();
    const clang::FunctionTemplateDecl *ftd = fn->getPrimaryTemplate();
    if (!args || !ftd)
      return;
    const clang::TemplateParameterList *params = ftd->getTemplateParameters();
    std::vector<std::string> spelled, mangled;
    for (unsigned i = 0; i < args->size() && i < params->size(); ++i) {
      const clang::NamedDecl *param = params->getParam(i);
      const clang::TemplateArgument &arg = args->get(i);
      std::string pname = param->getNameAsString();
      if (arg.getKind() == clang::TemplateArgument::Integral) {
        bool isBool = arg.getIntegralType()->isBooleanType();
        int64_t v = arg.getAsIntegral().getExtValue();
        k.metaParams.push_back({pname, v, isBool});
        spelled.push_back(isBool ? (v ? "true" : "false") : std::to_string(v));
        mangled.push_back(isBool ? (v ? "1" : "0")
                                 : (v < 0 ? "m" + std::to_string(-v) : std::to_string(v)));
      } else if (arg.getKind() == clang::TemplateArgument::Type) {
        auto e = elementOf(arg.getAsType());
        if (!e || e->pointer)
          fe.fail(DiagId::UnsupportedType, param->getLocation(),
                  {typeName(arg.getAsType()), "a scalar type or an int or bool meta-parameter"});
        spelled.push_back(typeName(arg.getAsType()));
        mangled.push_back(ir::name(e->elem));
      } else {
        fe.fail(DiagId::UnsupportedType, param->getLocation(),
                {pname, "an int or bool meta-parameter (or a scalar type)"});
      }
    }
    std::string ta = "<", in = k.name;
    for (size_t i = 0; i < spelled.size(); ++i) {
      ta += (i ? ", " : "") + spelled[i];
      in += "_" + mangled[i];
    }
    k.templateArgs = ta + ">";
    k.instanceName = in;
  }

  // ---- statements ----------------------------------------------------------------------------------
  ir::SourceLoc loc(const clang::Stmt *s) { return fe.irLoc(s->getBeginLoc()); }

  ir::Stmt lowerBlock(const clang::Stmt *s) {
    std::vector<ir::Stmt> out;
    if (auto *cs = llvm::dyn_cast<clang::CompoundStmt>(s)) {
      for (const clang::Stmt *c : cs->body())
        lowerStmt(c, out);
    } else {
      lowerStmt(s, out);
    }
    return ir::Block::make(std::move(out), loc(s));
  }

  void lowerStmt(const clang::Stmt *s, std::vector<ir::Stmt> &out) {
    using namespace clang;
    if (auto *cs = dyn_cast<CompoundStmt>(s)) {
      out.push_back(lowerBlock(cs));
    } else if (auto *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls())
        lowerDecl(d, ds, out);
    } else if (isa<NullStmt>(s)) {
      // an empty statement: nothing to lower
    } else if (auto *as = dyn_cast<AttributedStmt>(s)) {
      lowerStmt(as->getSubStmt(), out);
    } else if (auto *is = dyn_cast<IfStmt>(s)) {
      lowerIf(is, out);
    } else if (auto *fs = dyn_cast<ForStmt>(s)) {
      lowerFor(fs, out);
    } else if (auto *rf = dyn_cast<CXXForRangeStmt>(s)) {
      lowerRangeFor(rf, out);
    } else if (auto *ws = dyn_cast<WhileStmt>(s)) {
      if (ws->getConditionVariable())
        fe.fail(DiagId::UnsupportedStmt, ws->getBeginLoc(), {"while with a declaration"});
      ir::Expr c = lowerCond(ws->getCond());
      out.push_back(ir::While::make(c, lowerBlock(ws->getBody()), loc(ws)));
    } else if (isa<BreakStmt>(s)) {
      fe.fail(DiagId::BreakContinue, s->getBeginLoc(), {"break"});
    } else if (isa<ContinueStmt>(s)) {
      fe.fail(DiagId::BreakContinue, s->getBeginLoc(), {"continue"});
    } else if (isa<ReturnStmt>(s)) {
      if (cast<ReturnStmt>(s)->getRetValue())
        fe.fail(DiagId::ReturnValue, s->getBeginLoc());
      fe.fail(DiagId::EarlyReturn, s->getBeginLoc());
    } else if (auto *e = dyn_cast<Expr>(s)) {
      lowerExprStmt(e, out);
    } else {
      unsupportedStmt(s);
    }
  }

  [[noreturn]] void unsupportedStmt(const clang::Stmt *s) {
    std::string what;
    if (llvm::isa<clang::GotoStmt>(s) || llvm::isa<clang::IndirectGotoStmt>(s))
      what = "goto";
    else if (llvm::isa<clang::SwitchStmt>(s))
      what = "switch";
    else if (llvm::isa<clang::DoStmt>(s))
      what = "do";
    else if (llvm::isa<clang::LabelStmt>(s))
      what = "label";
    else if (llvm::isa<clang::CXXTryStmt>(s))
      what = "try";
    else if (llvm::isa<clang::AsmStmt>(s))
      what = "asm";
    else
      what = fe.text(s->getSourceRange());
    fe.fail(DiagId::UnsupportedStmt, s->getBeginLoc(), {what});
  }

  void lowerDecl(const clang::Decl *d, const clang::DeclStmt *ds, std::vector<ir::Stmt> &out) {
    using namespace clang;
    if (isa<TypedefNameDecl>(d) || isa<StaticAssertDecl>(d) || isa<UsingDecl>(d) ||
        isa<UsingDirectiveDecl>(d))
      return; // compile-time only: nothing to lower
    auto *vd = dyn_cast<VarDecl>(d);
    if (!vd || isa<DecompositionDecl>(vd))
      fe.fail(DiagId::UnsupportedStmt, d->getLocation(), {fe.text(ds->getSourceRange())});
    if (vd->getType()->isReferenceType())
      fe.fail(DiagId::UnsupportedType, vd->getLocation(), {typeName(vd->getType()), kExpectedTypes});
    if (vd->isStaticLocal() && !vd->isConstexpr())
      fe.fail(DiagId::UnsupportedStmt, vd->getLocation(), {"static local variable"});
    ir::Type t = typeOf(vd->getType(), vd->getLocation());
    const Expr *init = vd->getInit();
    if (!init || isDefaultConstruct(init))
      fe.fail(DiagId::UninitializedVar, vd->getLocation(), {vd->getNameAsString()});
    ir::Expr value = convertTo(lowerExpr(init), t, vd->getNameAsString(), init);
    auto v = k.newVar(vd->getNameAsString(), t, ir::VarKind::Local, fe.irLoc(vd->getLocation()));
    vars[vd] = v;
    out.push_back(ir::Decl::make(v, value, fe.irLoc(ds->getBeginLoc())));
  }

  static bool isDefaultConstruct(const clang::Expr *e) {
    e = e->IgnoreImplicit();
    if (auto *ce = llvm::dyn_cast<clang::CXXConstructExpr>(e))
      return ce->getNumArgs() == 0 || ce->getConstructor()->isDefaultConstructor();
    if (llvm::isa<clang::InitListExpr>(e) && llvm::cast<clang::InitListExpr>(e)->getNumInits() == 0)
      return true;
    return false;
  }

  /// Convert a value to the declared type of its variable (element cast; shapes must agree).
  ir::Expr convertTo(ir::Expr v, const ir::Type &t, const std::string &name, const clang::Expr *at) {
    if (v->type.shape != t.shape) {
      if (v->type.isScalar() && t.isTile())
        return ir::Splat::make(castTo(v, t), t.shape, v->loc);
      fe.fail(DiagId::TileTypeChange, at->getExprLoc(), {v->type.str(), name, t.str()});
    }
    if (t.pointer || v->type.pointer) {
      if (t.pointer != v->type.pointer || t.elem != v->type.elem)
        fe.fail(DiagId::TileTypeChange, at->getExprLoc(), {v->type.str(), name, t.str()});
      return v;
    }
    return castTo(v, t);
  }

  ir::Expr lowerCond(const clang::Expr *c) {
    ir::Expr e = lowerExpr(c);
    if (e->type.isTile())
      fe.fail(DiagId::TileCondition, c->getExprLoc(), {fe.text(c->getSourceRange())});
    if (e->type.pointer)
      fe.fail(DiagId::BadOperand, c->getExprLoc(), {e->type.str(), "condition", "a scalar bool or number"});
    return castTo(e, ScalarType::Bool);
  }

  void lowerIf(const clang::IfStmt *is, std::vector<ir::Stmt> &out) {
    if (is->isConsteval())
      unsupportedStmt(is);
    if (is->getConditionVariable())
      fe.fail(DiagId::UnsupportedStmt, is->getBeginLoc(), {"if with a declaration"});
    std::vector<ir::Stmt> *target = &out;
    std::vector<ir::Stmt> scoped;
    if (is->getInit()) {
      target = &scoped;
      lowerStmt(is->getInit(), scoped);
    }
    if (is->isConstexpr()) {
      bool v = false;
      if (!is->getCond()->EvaluateAsBooleanCondition(v, ctx))
        fe.fail(DiagId::NotConstant, is->getCond()->getExprLoc(),
                {"the condition of 'if constexpr'", fe.text(is->getCond()->getSourceRange())});
      const clang::Stmt *chosen = v ? is->getThen() : is->getElse();
      if (chosen)
        target->push_back(lowerBlock(chosen));
    } else {
      ir::Expr c = lowerCond(is->getCond());
      ir::Stmt thenS = lowerBlock(is->getThen());
      ir::Stmt elseS = is->getElse() ? lowerBlock(is->getElse()) : nullptr;
      target->push_back(ir::If::make(c, thenS, elseS, loc(is)));
    }
    if (is->getInit())
      out.push_back(ir::Block::make(std::move(scoped), loc(is)));
  }

  std::optional<int64_t> constInt(const clang::Expr *e) const {
    if (e->isValueDependent())
      return std::nullopt;
    clang::Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ctx) && !r.HasSideEffects)
      return r.Val.getInt().getExtValue();
    return std::nullopt;
  }

  /// `for (int i = b; i < e; i += s)` with constant s > 0 and a body that leaves i alone becomes a
  /// For; any other for loop becomes `{ init; while (cond) { body; inc; } }`.
  void lowerFor(const clang::ForStmt *fs, std::vector<ir::Stmt> &out) {
    using namespace clang;
    if (fs->getConditionVariable())
      fe.fail(DiagId::UnsupportedStmt, fs->getBeginLoc(), {"for with a condition declaration"});
    const VarDecl *iv = nullptr;
    if (auto *ds = dyn_cast_or_null<DeclStmt>(fs->getInit()); ds && ds->isSingleDecl())
      if (auto *vd = dyn_cast<VarDecl>(ds->getSingleDecl());
          vd && vd->getInit() && vd->getType()->isIntegerType() && !vd->getType()->isBooleanType())
        iv = vd;
    const Expr *end = nullptr;
    bool inclusive = false;
    if (iv && fs->getCond()) {
      if (auto *b = dyn_cast<BinaryOperator>(fs->getCond()->IgnoreParens());
          b && (b->getOpcode() == BO_LT || b->getOpcode() == BO_LE) && refersTo(b->getLHS(), iv)) {
        end = b->getRHS();
        inclusive = b->getOpcode() == BO_LE;
      }
    }
    std::optional<int64_t> step;
    std::string stepSymbol; // the meta-parameter the step is, so the output says `off += BLOCK`
    if (end && fs->getInc()) {
      const Expr *inc = fs->getInc()->IgnoreParens();
      if (auto *u = dyn_cast<UnaryOperator>(inc); u && u->isIncrementOp() && refersTo(u->getSubExpr(), iv))
        step = 1;
      else if (auto *ca = dyn_cast<CompoundAssignOperator>(inc);
               ca && ca->getOpcode() == BO_AddAssign && refersTo(ca->getLHS(), iv)) {
        step = constInt(ca->getRHS());
        stepSymbol = metaParameterName(ca->getRHS());
      }
    }
    bool counted = step && *step > 0;
    if (counted) {
      AssignFinder f(iv);
      f.TraverseStmt(const_cast<Stmt *>(fs->getBody()));
      AssignFinder g(iv);
      g.TraverseStmt(const_cast<Expr *>(end));
      counted = !f.found && !g.found;
    }
    if (counted) {
      ir::Type t = typeOf(iv->getType(), iv->getLocation());
      ir::Expr begin = castTo(lowerExpr(iv->getInit()), t.elem);
      auto v = k.newVar(iv->getNameAsString(), t, ir::VarKind::LoopIndex, fe.irLoc(iv->getLocation()));
      vars[iv] = v;
      ir::Expr e = lowerExpr(end);
      if (e->type.isTile())
        fe.fail(DiagId::TileCondition, end->getExprLoc(), {fe.text(fs->getCond()->getSourceRange())});
      e = castTo(e, t.elem);
      if (inclusive)
        e = foldAdd(e, 1);
      out.push_back(ir::For::make(v, begin, e,
                                  ir::IntImm::makeSymbol(t.elem, *step, stepSymbol, loc(fs->getInc())),
                                  lowerBlock(fs->getBody()), false, loc(fs)));
      return;
    }
    std::vector<ir::Stmt> scoped, body;
    if (fs->getInit())
      lowerStmt(fs->getInit(), scoped);
    ir::Expr c = fs->getCond() ? lowerCond(fs->getCond())
                               : ir::IntImm::make(ScalarType::Bool, 1, loc(fs));
    body.push_back(lowerBlock(fs->getBody()));
    if (fs->getInc())
      lowerExprStmt(fs->getInc(), body);
    scoped.push_back(ir::While::make(c, ir::Block::make(std::move(body), loc(fs)), loc(fs)));
    out.push_back(ir::Block::make(std::move(scoped), loc(fs)));
  }

  static ir::Expr foldAdd(ir::Expr e, int64_t d) {
    if (auto *imm = ir::as<ir::IntImm>(e))
      return ir::IntImm::make(e->type.elem, imm->value + d, e->loc);
    return ir::Binary::make(ir::BinaryOp::Add, e, ir::IntImm::make(e->type.elem, d, e->loc), e->loc);
  }

  static bool refersTo(const clang::Expr *e, const clang::VarDecl *vd) {
    auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    return dre && dre->getDecl() == vd;
  }

  void lowerRangeFor(const clang::CXXForRangeStmt *rf, std::vector<ir::Stmt> &out) {
    const clang::Expr *range = rf->getRangeInit();
    const auto *spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
        range ? range->getType().getCanonicalType()->getAsCXXRecordDecl() : nullptr);
    if (!spec || spec->getName() != "static_range" || !inTl(spec) || rf->getInit())
      fe.fail(DiagId::UnsupportedStmt, rf->getBeginLoc(),
              {"range-based for over anything but tl::static_range"});
    std::vector<int64_t> vals;
    for (const auto &arg : spec->getTemplateArgs().asArray())
      if (arg.getKind() == clang::TemplateArgument::Integral)
        vals.push_back(arg.getAsIntegral().getExtValue());
    if (vals.size() < 2)
      fe.fail(DiagId::UnsupportedStmt, rf->getBeginLoc(), {"tl::static_range without bounds"});
    int64_t step = vals.size() > 2 ? vals[2] : 1;
    const clang::VarDecl *lv = rf->getLoopVariable();
    ir::Type t = typeOf(lv->getType().getNonReferenceType(), lv->getLocation());
    if (t.isTile() || t.pointer || !ir::isInt(t.elem))
      fe.fail(DiagId::UnsupportedType, lv->getLocation(),
              {typeName(lv->getType()), "an integer loop variable"});
    auto v = k.newVar(lv->getNameAsString(), t, ir::VarKind::LoopIndex, fe.irLoc(lv->getLocation()));
    vars[lv] = v;
    ir::SourceLoc l = fe.irLoc(range->getExprLoc());
    out.push_back(ir::For::make(v, ir::IntImm::make(t.elem, vals[0], l), ir::IntImm::make(t.elem, vals[1], l),
                                ir::IntImm::make(t.elem, step, l), lowerBlock(rf->getBody()), true,
                                loc(rf)));
  }

  // ---- expression statements: stores and assignments -----------------------------------------------
  ir::Var assignedVar(const clang::Expr *lhs) {
    auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(lhs->IgnoreParenImpCasts());
    if (dre)
      if (auto *vd = llvm::dyn_cast<clang::VarDecl>(dre->getDecl())) {
        auto it = vars.find(vd);
        if (it != vars.end())
          return it->second;
      }
    fe.fail(DiagId::UnsupportedExpr, lhs->getExprLoc(),
            {"assignment to " + fe.text(lhs->getSourceRange()) + " (only local variables can be assigned)"});
  }

  void assign(const ir::Var &v, ir::Expr value, const clang::Expr *at, std::vector<ir::Stmt> &out,
              ir::SourceLoc l) {
    if (v->type.shape != value->type.shape && !(value->type.isScalar() && v->type.isTile())) {
      fe.report(DiagId::TileTypeChange, at->getExprLoc(), {value->type.str(), v->name, v->type.str()});
      for (auto &[decl, var] : vars)
        if (var == v)
          fe.report(DiagId::NoteDeclaredHere, decl->getLocation(), {v->name});
      throw LoweringStopped();
    }
    out.push_back(ir::Assign::make(v, convertTo(value, v->type, v->name, at), l));
  }

  void lowerExprStmt(const clang::Expr *e, std::vector<ir::Stmt> &out) {
    using namespace clang;
    ir::SourceLoc l = loc(e);
    e = strip(e);
    if (auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getDirectCallee() && inTl(oc->getDirectCallee())) {
      OverloadedOperatorKind ok = oc->getOperator();
      if (ok == OO_Equal && oc->getNumArgs() == 2) {
        ir::Var v = assignedVar(oc->getArg(0));
        assign(v, lowerExpr(oc->getArg(1)), oc->getArg(1), out, l);
        return;
      }
      if (auto op = compoundOp(ok); op && oc->getNumArgs() == 2) {
        ir::Var v = assignedVar(oc->getArg(0));
        ir::Expr cur = ir::VarRef::make(v, fe.irLoc(oc->getArg(0)->getExprLoc()));
        ir::Expr r = elementwise(*op, {cur, lowerExpr(oc->getArg(1))}, std::nullopt, oc->getOperatorLoc(),
                                 {oc->getArg(0), oc->getArg(1)});
        assign(v, r, oc, out, l);
        return;
      }
    }
    if (auto *oc = dyn_cast<CXXOperatorCallExpr>(e);
        oc && oc->getOperator() == OO_Equal && oc->getNumArgs() == 2) {
      // copy/move assignment of a tl type (half, bfloat16 or tile) declared as a member.
      if (auto *md = dyn_cast_or_null<CXXMethodDecl>(oc->getDirectCallee());
          md && (md->isCopyAssignmentOperator() || md->isMoveAssignmentOperator())) {
        ir::Var v = assignedVar(oc->getArg(0));
        assign(v, lowerExpr(oc->getArg(1)), oc->getArg(1), out, l);
        return;
      }
    }
    if (auto *ca = dyn_cast<CompoundAssignOperator>(e)) {
      ir::Var v = assignedVar(ca->getLHS());
      auto op = builtinBinaryOp(ca->getOpcode());
      if (!op)
        fe.fail(DiagId::UnsupportedExpr, ca->getOperatorLoc(), {ca->getOpcodeStr().str()});
      ir::Expr cur = ir::VarRef::make(v, fe.irLoc(ca->getLHS()->getExprLoc()));
      ir::Expr rhs = lowerExpr(ca->getRHS());
      ir::Expr r;
      if (v->type.pointer) {
        r = ir::Binary::make(*op, cur, rhs, fe.irLoc(ca->getOperatorLoc()));
      } else {
        auto compT = scalarOf(ca->getComputationLHSType());
        if (!compT)
          fe.fail(DiagId::UnsupportedType, ca->getOperatorLoc(),
                  {typeName(ca->getComputationLHSType()), kExpectedTypes});
        r = ir::Binary::make(*op, castTo(cur, *compT), castTo(rhs, *compT), fe.irLoc(ca->getOperatorLoc()));
      }
      assign(v, castTo(r, v->type), ca, out, l);
      return;
    }
    if (auto *b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Assign) {
      ir::Var v = assignedVar(b->getLHS());
      assign(v, lowerExpr(b->getRHS()), b->getRHS(), out, l);
      return;
    }
    if (auto *u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) {
      ir::Var v = assignedVar(u->getSubExpr());
      if (v->type.isTile() || (!v->type.pointer && !ir::isInt(v->type.elem)))
        fe.fail(DiagId::BadOperand, u->getOperatorLoc(),
                {v->type.str(), u->isIncrementOp() ? "++" : "--", "an integer or pointer scalar"});
      ir::Expr one = ir::IntImm::make(v->type.pointer ? ScalarType::I32 : v->type.elem, 1, l);
      ir::Expr cur = ir::VarRef::make(v, l);
      out.push_back(ir::Assign::make(
          v, ir::Binary::make(u->isIncrementOp() ? ir::BinaryOp::Add : ir::BinaryOp::Sub, cur, one, l), l));
      return;
    }
    if (auto *call = dyn_cast<CallExpr>(e); call && !isa<CXXOperatorCallExpr>(e)) {
      const FunctionDecl *fd = call->getDirectCallee();
      if (fd && inTl(fd) && fd->getDeclName().isIdentifier() && fd->getName() == "store") {
        out.push_back(lowerStore(call));
        return;
      }
      if (!fd || !inTl(fd))
        unsupportedCall(call);
    }
    fe.fail(DiagId::UnsupportedStmt, e->getExprLoc(), {fe.text(e->getSourceRange())});
  }

  [[noreturn]] void unsupportedCall(const clang::CallExpr *call) {
    const clang::FunctionDecl *fd = call->getDirectCallee();
    std::string n = fd ? fd->getQualifiedNameAsString() : fe.text(call->getCallee()->getSourceRange());
    fe.fail(DiagId::UnsupportedCall, call->getExprLoc(), {n});
  }

  static std::optional<ir::BinaryOp> compoundOp(clang::OverloadedOperatorKind k) {
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
  static std::optional<ir::BinaryOp> overloadedBinaryOp(clang::OverloadedOperatorKind k) {
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
  static std::optional<ir::BinaryOp> builtinBinaryOp(clang::BinaryOperatorKind k) {
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

  // ---- expressions ---------------------------------------------------------------------------------
  /// Skip the nodes that do not change a value: parentheses, no-op casts, temporaries, copies.
  static const clang::Expr *strip(const clang::Expr *e) {
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

  /// The name of the non-type template parameter `e` is (through parentheses and integral
  /// conversions), or "".
  static std::string metaParameterName(const clang::Expr *e) {
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

  /// A scalar of builtin arithmetic type that Clang can fold becomes an IntImm/FloatImm.
  ir::Expr tryFold(const clang::Expr *e, const clang::Expr *written = nullptr) {
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
      if (std::string sym = metaParameterName(written ? written : e); !sym.empty())
        return ir::IntImm::makeSymbol(*st, v, sym, l);
      return ir::IntImm::make(*st, v, l);
    }
    if (r.Val.isFloat()) {
      double v = r.Val.getFloat().convertToDouble();
      if (*st == ScalarType::F32)
        v = static_cast<double>(static_cast<float>(v));
      if (ir::isFloat(*st))
        return ir::FloatImm::make(*st, v, l);
      return nullptr;
    }
    return nullptr;
  }

  ir::Expr castTo(ir::Expr e, ScalarType to) {
    if (e->type.pointer || e->type.elem == to)
      return e;
    if (auto *imm = ir::as<ir::IntImm>(e)) {
      if (to == ScalarType::Bool)
        return ir::IntImm::make(to, imm->value != 0, e->loc);
      if (ir::isInt(to))
        return imm->symbol.empty() ? ir::IntImm::make(to, imm->value, e->loc)
                                   : ir::IntImm::makeSymbol(to, imm->value, imm->symbol, e->loc);
      if (to == ScalarType::F32)
        return ir::FloatImm::make(to, static_cast<float>(imm->value), e->loc);
    }
    if (auto *imm = ir::as<ir::FloatImm>(e)) {
      if (to == ScalarType::F32)
        return ir::FloatImm::make(to, static_cast<float>(imm->value), e->loc);
      if (to == ScalarType::Bool)
        return ir::IntImm::make(to, imm->value != 0, e->loc);
      if (ir::isInt(to) && std::isfinite(imm->value))
        return ir::IntImm::make(to, static_cast<int64_t>(imm->value), e->loc);
    }
    return ir::Cast::make(to, e, e->loc);
  }
  ir::Expr castTo(ir::Expr e, const ir::Type &t) { return t.pointer ? e : castTo(e, t.elem); }

  std::vector<int64_t> broadcastShape(const std::vector<ir::Expr> &xs, clang::SourceLocation at) {
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

  static ir::Expr toShape(ir::Expr e, const std::vector<int64_t> &shape) {
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

  /// The element type the operands of an elementwise op are promoted to (Triton's rules).
  static ScalarType promoted(const std::vector<ir::Expr> &xs) {
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

  std::optional<ScalarType> resultElem(clang::QualType t, clang::SourceLocation at) {
    ir::Type rt = typeOf(t, at);
    if (rt.pointer)
      return std::nullopt;
    return rt.elem;
  }

  /// An elementwise binary op on tiles and/or scalars: promotion casts, explicit broadcasts.
  /// `elem`: the element type Clang computed for the result (arithmetic ops), else promotion.
  ir::Expr elementwise(ir::BinaryOp op, std::vector<ir::Expr> xs, std::optional<ScalarType> elem,
                       clang::SourceLocation at, std::vector<const clang::Expr *> srcs) {
    ir::SourceLoc l = fe.irLoc(at);
    ir::Expr a = xs[0], b = xs[1];
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
    auto shape = broadcastShape({a, b}, at);
    a = toShape(castTo(a, t), shape);
    b = toShape(castTo(b, t), shape);
    return ir::Binary::make(op, a, b, l);
  }

  std::vector<const clang::Expr *> callArgs(const clang::CallExpr *call) {
    std::vector<const clang::Expr *> r;
    for (const clang::Expr *a : call->arguments())
      if (!llvm::isa<clang::CXXDefaultArgExpr>(a))
        r.push_back(a);
    return r;
  }

  ir::Expr lowerExpr(const clang::Expr *e) {
    using namespace clang;
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
        fe.fail(DiagId::UnsupportedExpr, e->getExprLoc(),
                {fe.text(e->getSourceRange()) + "' (a '" + ce->getCastKindName() + "' conversion"});
      }
    }
    if (auto *ce = dyn_cast<CXXConstructExpr>(e)) {
      // tl::half(x) / tl::bfloat16(x): a conversion.
      auto st = scalarOf(ce->getType());
      if (st && ce->getNumArgs() == 1 && (*st == ScalarType::F16 || *st == ScalarType::BF16)) {
        ir::Expr a = lowerExpr(ce->getArg(0));
        if (a->type.isTile() || a->type.pointer)
          fe.fail(DiagId::BadOperand, ce->getArg(0)->getExprLoc(),
                  {a->type.str(), typeName(ce->getType()), "a scalar number"});
        return castTo(a, *st);
      }
      fe.fail(DiagId::UnsupportedExpr, e->getExprLoc(), {fe.text(e->getSourceRange())});
    }
    if (auto *mc = dyn_cast<CXXMemberCallExpr>(e)) {
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
      ir::Expr x = lowerExpr(b->getLHS()), y = lowerExpr(b->getRHS());
      ir::SourceLoc ol = fe.irLoc(b->getOperatorLoc());
      if (*op == ir::BinaryOp::Shl || *op == ir::BinaryOp::Shr)
        y = castTo(y, x->type.elem);
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
      default:
        fe.fail(DiagId::UnsupportedExpr, u->getOperatorLoc(), {fe.text(u->getSourceRange())});
      }
    }
    if (auto *co = dyn_cast<ConditionalOperator>(e)) {
      ir::Expr c = lowerCond(co->getCond());
      ir::Expr a = lowerExpr(co->getTrueExpr()), b = lowerExpr(co->getFalseExpr());
      if (a->type != b->type)
        fe.fail(DiagId::UnsupportedExpr, co->getQuestionLoc(), {fe.text(co->getSourceRange())});
      return ir::Select::make(c, a, b, l);
    }
    if (auto *call = dyn_cast<CallExpr>(e))
      return lowerCall(call);
    fe.fail(DiagId::UnsupportedExpr, e->getExprLoc(), {fe.text(e->getSourceRange())});
  }

  std::vector<int64_t> intTemplateArgs(const clang::FunctionDecl *fd) {
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

  static unsigned explicitTemplateArgCount(const clang::CallExpr *call) {
    if (auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts()))
      return dre->getNumTemplateArgs();
    return 0;
  }

  int64_t constArg(const clang::Expr *e, const std::string &what) {
    auto v = constInt(e);
    if (!v)
      fe.fail(DiagId::NotConstant, e->getExprLoc(), {what, fe.text(e->getSourceRange())});
    return *v;
  }

  ir::Expr needTile(ir::Expr x, const clang::Expr *src, const std::string &op) {
    if (!x->type.isTile() || x->type.pointer)
      fe.fail(DiagId::BadOperand, src->getExprLoc(), {x->type.str(), op, "a tile of numbers"});
    return x;
  }

  ir::Stmt lowerStore(const clang::CallExpr *call) {
    auto args = callArgs(call);
    ir::SourceLoc l = fe.irLoc(call->getBeginLoc());
    if (args.size() < 2 || args.size() > 3)
      unsupportedCall(call);
    ir::Expr p = lowerExpr(args[0]);
    if (!p->type.pointer)
      fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {p->type.str(), "tl::store", "a pointer or a tile of pointers"});
    ir::Expr v = lowerExpr(args[1]);
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
    return ir::Store::make(p, v, m, l);
  }

  ir::Expr lowerCall(const clang::CallExpr *call) {
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
        v = lowerExpr(args[0]);
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
      nargs(1, 3);
      ir::Expr p = lowerExpr(args[0]);
      if (!p->type.pointer)
        fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {p->type.str(), qname, "a pointer or a tile of pointers"});
      ir::Expr m = args.size() > 1 ? castTo(lowerExpr(args[1]), ScalarType::Bool) : nullptr;
      ir::Expr o = args.size() > 2 ? lowerExpr(args[2]) : nullptr;
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
      ir::Expr r = ir::Load::make(p, m, o, l);
      if (auto elem = resultElem(call->getType(), at))
        r = castTo(r, *elem);
      return r;
    }
    if (name == "where") {
      nargs(3, 3);
      ir::Expr c = castTo(lowerExpr(args[0]), ScalarType::Bool);
      ir::Expr a = lowerExpr(args[1]), b = lowerExpr(args[2]);
      ir::Type rt = typeOf(call->getType(), at);
      ScalarType t = rt.pointer ? a->type.elem : rt.elem;
      auto shape = broadcastShape({c, a, b}, at);
      if (!rt.pointer) {
        a = castTo(a, t);
        b = castTo(b, t);
      }
      return ir::Select::make(toShape(c, shape), toShape(a, shape), toShape(b, shape), l);
    }
    if (name == "minimum" || name == "maximum") {
      nargs(2, 2);
      return elementwise(name == "minimum" ? ir::BinaryOp::Min : ir::BinaryOp::Max,
                         {lowerExpr(args[0]), lowerExpr(args[1])}, resultElem(call->getType(), at), at,
                         {args[0], args[1]});
    }
    if (name == "cast") {
      nargs(1, 1);
      ir::Type t = typeOf(call->getType(), at);
      ir::Expr a = lowerExpr(args[0]);
      if (t.pointer || a->type.pointer)
        fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {a->type.str(), qname, "numbers"});
      if (a->type.elem == t.elem)
        return a;
      return ir::Cast::make(t.elem, a, l);
    }
    static const std::map<std::string, ir::MathOp> math = {
        {"exp", ir::MathOp::Exp},     {"exp2", ir::MathOp::Exp2},   {"log", ir::MathOp::Log},
        {"log2", ir::MathOp::Log2},   {"sqrt", ir::MathOp::Sqrt},   {"rsqrt", ir::MathOp::Rsqrt},
        {"sigmoid", ir::MathOp::Sigmoid}, {"tanh", ir::MathOp::Tanh}, {"erf", ir::MathOp::Erf},
        {"abs", ir::MathOp::Abs},     {"floor", ir::MathOp::Floor}, {"ceil", ir::MathOp::Ceil},
        {"fma", ir::MathOp::Fma},     {"cdiv", ir::MathOp::Cdiv}};
    if (auto it = math.find(name); it != math.end()) {
      size_t n = static_cast<size_t>(ir::arity(it->second));
      nargs(n, n);
      std::vector<ir::Expr> xs;
      for (auto *a : args) {
        xs.push_back(lowerExpr(a));
        if (xs.back()->type.pointer)
          fe.fail(DiagId::BadOperand, a->getExprLoc(), {xs.back()->type.str(), qname, "numbers"});
      }
      auto elem = resultElem(call->getType(), at);
      ScalarType t = elem ? *elem : promoted(xs);
      if (it->second == ir::MathOp::Cdiv && !ir::isInt(t))
        fe.fail(DiagId::BadOperand, args[0]->getExprLoc(), {xs[0]->type.str(), qname, "integers"});
      if (it->second != ir::MathOp::Cdiv && it->second != ir::MathOp::Abs && !ir::isFloat(t))
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
      int64_t axis = 0;
      if (explicitTemplateArgCount(call) > 0) {
        auto targs = intTemplateArgs(fd);
        axis = targs.empty() ? 0 : targs[0];
        if (axis < 0)
          axis += a->type.rank();
        if (axis < 0 || axis >= a->type.rank())
          fe.fail(DiagId::BadAxis, at, {std::to_string(targs.empty() ? 0 : targs[0]), std::to_string(a->type.rank())});
      } else if (a->type.rank() == 2) {
        // Reducing every element: along dim 1, then dim 0 (argmax/argmin would need the flattened
        // index, which two reductions do not give).
        if (it->second == ir::ReduceOp::ArgMax || it->second == ir::ReduceOp::ArgMin)
          fe.fail(DiagId::BadOperand, args[0]->getExprLoc(),
                  {a->type.str(), qname, "a 1-D tile (give the axis for 2-D tiles: " + qname + "<AXIS>(x))"});
        a = ir::Reduce::make(it->second, 1, a, l);
      }
      ir::Expr r = ir::Reduce::make(it->second, static_cast<int>(axis), a, l);
      if (auto elem = resultElem(call->getType(), at))
        r = castTo(r, *elem);
      return r;
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
    unsupportedCall(call);
  }

  FrontEndContext &fe;
  clang::ASTContext &ctx;
  ir::Kernel &k;
  std::map<const clang::VarDecl *, ir::Var> vars;
};

} // namespace

bool lowerKernel(FrontEndContext &fe, const clang::FunctionDecl *fn, const clang::FunctionDecl *primary,
                 ir::Kernel &out) {
  KernelLowering l(fe, out);
  return l.lower(fn, primary);
}

} // namespace tilec::translator
