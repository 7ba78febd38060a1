/// KernelLowering, statements: blocks, declarations, if (if constexpr is decided here), the loop
/// forms (counted for loops become ir::For, other for loops and while loops ir::While,
/// tl::static_range loops an unrolled ir::For), and expression statements: assignments, compound
/// assignments, ++/-- and tl::store. Other statements are reported here, most through
/// unsupportedStmt.

#include "translator/Lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>

#include <map>

namespace tilec::translator {

using ir::ScalarType;

/// A walk over the statement's children, which include declarations' initializers and lambda
/// bodies; clang::RecursiveASTVisitor would also walk types and declarations that cannot assign,
/// and its instantiation is most of the compile time of a unit that uses it.
bool assignsTo(const clang::Stmt *s, const clang::ValueDecl *v) {
  using namespace clang;
  if (!s)
    return false;
  auto refersTo = [v](const Expr *e) {
    auto *dre = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return dre && dre->getDecl() == v;
  };
  if (auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && refersTo(b->getLHS()))
    return true;
  if (auto *u = dyn_cast<UnaryOperator>(s);
      u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) &&
      refersTo(u->getSubExpr()))
    return true;
  if (auto *c = dyn_cast<CXXOperatorCallExpr>(s);
      c && c->isAssignmentOp() && c->getNumArgs() > 0 && refersTo(c->getArg(0)))
    return true;
  for (const Stmt *child : s->children())
    if (assignsTo(child, v))
      return true;
  return false;
}

ir::Stmt KernelLowering::lowerBlock(const clang::Stmt *s) {
  std::vector<ir::Stmt> out;
  if (auto *cs = llvm::dyn_cast<clang::CompoundStmt>(s)) {
    for (const clang::Stmt *c : cs->body())
      lowerStmt(c, out);
  } else {
    lowerStmt(s, out);
  }
  return ir::Block::make(std::move(out), loc(s));
}

void KernelLowering::lowerStmt(const clang::Stmt *s, std::vector<ir::Stmt> &out) {
  using namespace clang;
  Nesting nesting(fe, stmtNesting, "statement", "restructure the nested statements",
                  s->getBeginLoc());
  PendingScope here(*this, &out); // inlined calls' statements run before this statement
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
    std::vector<ir::Stmt> scoped;
    lowerWhile(ws, ws->getCond(), ws->getBody(), nullptr, scoped);
    if (scoped.size() > 1) // the loop's flag, then the loop
      out.push_back(ir::Block::make(std::move(scoped), loc(ws)));
    else
      out.push_back(scoped.back());
  } else if (isa<BreakStmt>(s)) {
    fe.fail(DiagId::BreakContinue, s->getBeginLoc(), {"break"});
  } else if (isa<ContinueStmt>(s)) {
    fe.fail(DiagId::BreakContinue, s->getBeginLoc(), {"continue"});
  } else if (isa<ReturnStmt>(s)) {
    if (!inlineStack.empty()) // in a function of the user's, inlined: not the kernel's return
      fe.fail(DiagId::FunctionEarlyReturn, s->getBeginLoc(),
              {inlineStack.back()->getQualifiedNameAsString()});
    if (cast<ReturnStmt>(s)->getRetValue())
      fe.fail(DiagId::ReturnValue, s->getBeginLoc());
    fe.fail(DiagId::EarlyReturn, s->getBeginLoc());
  } else if (auto *e = dyn_cast<Expr>(s)) {
    lowerExprStmt(e, out);
  } else {
    unsupportedStmt(s);
  }
}

void KernelLowering::unsupportedStmt(const clang::Stmt *s) {
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

void KernelLowering::lowerDecl(const clang::Decl *d, const clang::DeclStmt *ds,
                               std::vector<ir::Stmt> &out) {
  using namespace clang;
  if (isa<TypedefNameDecl>(d) || isa<StaticAssertDecl>(d) || isa<UsingDecl>(d) ||
      isa<UsingDirectiveDecl>(d))
    return; // compile-time only: nothing to lower
  if (auto *dd = dyn_cast<DecompositionDecl>(d))
    return lowerDecomposition(dd, ds, out);
  auto *vd = dyn_cast<VarDecl>(d);
  if (vd && isClosure(vd->getType()))
    return lowerClosure(vd, ds, out);
  if (vd && isDescriptor(vd->getType()))
    return lowerDescriptorDecl(vd, ds, out);
  if (vd && (isMemoryOptions(vd->getType()) || isCastOptions(vd->getType()))) { // read where used
    if (!vd->isConstexpr())
      fe.fail(
          DiagId::NotConstant, vd->getLocation(),
          {isCastOptions(vd->getType()) ? "the options of a cast" : "the hints of a load or store",
           vd->getNameAsString()});
    return;
  }
  if (!vd)
    fe.fail(DiagId::UnsupportedStmt, d->getLocation(), {fe.text(ds->getSourceRange())});
  if (vd->getType()->isReferenceType())
    fe.fail(DiagId::UnsupportedType, vd->getLocation(), {typeName(vd->getType()), kExpectedTypes});
  if (vd->isStaticLocal() && !vd->isConstexpr())
    fe.fail(DiagId::UnsupportedStmt, vd->getLocation(), {"static local variable"});
  // `auto t = tl::rand4x(...)`: a tuple of four tiles, which only a structured binding takes apart.
  if (auto *call = vd->getInit() ? dyn_cast<CallExpr>(strip(vd->getInit())) : nullptr) {
    const FunctionDecl *fd = call->getDirectCallee();
    if (isRandomFour(fd))
      fe.fail(DiagId::FourResults, call->getExprLoc(), {"tl::" + fd->getName().str()});
    if (isSplit(fd))
      fe.fail(DiagId::SplitResults, call->getExprLoc(), {"tl::split"});
  }
  ir::Type t = typeOf(vd->getType(), vd->getLocation());
  const Expr *init = vd->getInit();
  if (!init || isDefaultConstruct(init))
    fe.fail(DiagId::UninitializedVar, vd->getLocation(), {vd->getNameAsString()});
  // `auto old = tl::atomic_add(...)`: the variable, then the atomic that writes its old values.
  if (auto *call = dyn_cast<CallExpr>(strip(init)); call && isAtomicCall(call)) {
    auto v = k.newVar(vd->getNameAsString(), t, ir::VarKind::Local, fe.irLoc(vd->getLocation()));
    vars[vd] = v;
    out.push_back(ir::Decl::make(v, nullptr, fe.irLoc(ds->getBeginLoc())));
    out.push_back(lowerAtomic(call, v));
    return;
  }
  ir::Expr value = convertTo(lowerExpr(init), t, vd->getNameAsString(), init);
  auto v = k.newVar(vd->getNameAsString(), t, ir::VarKind::Local, fe.irLoc(vd->getLocation()));
  vars[vd] = v;
  out.push_back(ir::Decl::make(v, value, fe.irLoc(ds->getBeginLoc())));
}

void KernelLowering::lowerClosure(const clang::VarDecl *vd, const clang::DeclStmt *ds,
                                  std::vector<ir::Stmt> &out) {
  using namespace clang;
  // `auto f = [k](auto x) { return x * k; };`: the closure has no value in the kernel (its calls
  // are inlined by type), but an init-capture (`[k = 2.0f * s]`) is a variable of its own,
  // computed here, where C++ computes it.
  const Expr *init = vd->getInit() ? vd->getInit()->IgnoreImplicit() : nullptr;
  while (init && !isa<LambdaExpr>(init)) {
    const Expr *next = strip(init);
    if (next == init)
      break;
    init = next;
  }
  auto *le = dyn_cast_or_null<LambdaExpr>(init);
  if (!le)
    return; // a copy of another lambda: nothing to compute
  for (const LambdaCapture &c : le->captures()) {
    if (!c.capturesVariable())
      continue;
    auto *cv = dyn_cast<VarDecl>(c.getCapturedVar());
    if (!cv)
      continue;
    if (!cv->isInitCapture()) {
      // Captured by copy, and assigned somewhere in the kernel: the lambda keeps the value it had
      // here, in a copy that its calls read instead.
      auto *fn = dyn_cast<FunctionDecl>(cv->getDeclContext());
      auto it = vars.find(cv);
      if (c.getCaptureKind() != LCK_ByCopy || !fn || !fn->getBody() || it == vars.end())
        continue;
      if (!assignsTo(fn->getBody(), cv))
        continue;
      auto copy = k.newVar(cv->getNameAsString(), it->second->type, ir::VarKind::Local, fe.irLoc(c.getLocation()));
      out.push_back(ir::Decl::make(copy, ir::VarRef::make(it->second), fe.irLoc(ds->getBeginLoc())));
      closureCopies[le->getLambdaClass()][cv] = copy;
      continue;
    }
    ir::Type t = typeOf(cv->getType(), cv->getLocation());
    ir::Expr value = convertTo(lowerExpr(cv->getInit()), t, cv->getNameAsString(), cv->getInit());
    auto v = k.newVar(cv->getNameAsString(), t, ir::VarKind::Local, fe.irLoc(cv->getLocation()));
    vars[cv] = v;
    out.push_back(ir::Decl::make(v, value, fe.irLoc(ds->getBeginLoc())));
  }
}

bool KernelLowering::isDefaultConstruct(const clang::Expr *e) {
  e = e->IgnoreImplicit();
  if (auto *ce = llvm::dyn_cast<clang::CXXConstructExpr>(e))
    return ce->getNumArgs() == 0 || ce->getConstructor()->isDefaultConstructor();
  if (llvm::isa<clang::InitListExpr>(e) && llvm::cast<clang::InitListExpr>(e)->getNumInits() == 0)
    return true;
  return false;
}

ir::Expr KernelLowering::convertTo(ir::Expr v, const ir::Type &t, const std::string &name,
                                   const clang::Expr *at) {
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

ir::Expr KernelLowering::lowerCond(const clang::Expr *c) {
  ir::Expr e = lowerExpr(c);
  if (e->type.isTile())
    fe.fail(DiagId::TileCondition, c->getExprLoc(), {fe.text(c->getSourceRange())});
  if (e->type.pointer)
    fe.fail(DiagId::BadOperand, c->getExprLoc(), {e->type.str(), "condition", "a scalar bool or number"});
  return castTo(e, ScalarType::Bool);
}

void KernelLowering::lowerIf(const clang::IfStmt *is, std::vector<ir::Stmt> &out) {
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
  PendingScope afterInit(*this, target); // a call in the condition may use the init's variables
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

void KernelLowering::lowerFor(const clang::ForStmt *fs, std::vector<ir::Stmt> &out) {
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
      stepSymbol = intMetaParameterName(ca->getRHS());
    }
  }
  // A counted loop keeps the source's comparison in the loop variable's type; a variable narrower
  // than int compares in int (`i < 200` with an int8_t i holds always), so such a loop is lowered
  // as written, as a while loop.
  bool counted = step && *step > 0 && iv->getType()->isIntegerType() &&
                 ctx.getTypeSize(iv->getType()) >= 32;
  if (counted) // (a loop with a break becomes a while loop that tests a flag)
    counted = !assignsTo(fs->getBody(), iv) && !assignsTo(end, iv) && !loopBreak(fs->getBody());
  if (counted) {
    ir::Type t = typeOf(iv->getType(), iv->getLocation());
    ir::Expr begin = castTo(lowerExpr(iv->getInit()), t.elem);
    auto v = k.newVar(iv->getNameAsString(), t, ir::VarKind::LoopIndex, fe.irLoc(iv->getLocation()));
    vars[iv] = v;
    ir::Expr e;
    {
      PendingScope none(
          *this, nullptr,
          "into a counted for loop's bound (it runs every iteration); compute it into a "
          "variable before the loop if it does not change, or write a while loop");
      e = lowerExpr(end);
    }
    if (e->type.isTile())
      fe.fail(DiagId::TileCondition, end->getExprLoc(), {fe.text(fs->getCond()->getSourceRange())});
    e = castTo(e, t.elem);
    // `i <= end` stays as written: `i < end + 1` would overflow at the type's largest value.
    out.push_back(ir::For::make(
        v, begin, e, ir::IntImm::makeSymbol(t.elem, *step, stepSymbol, loc(fs->getInc())),
        lowerLoopBody(fs->getBody(), {}), false, loc(fs), inclusive));
    return;
  }
  std::vector<ir::Stmt> scoped;
  if (fs->getInit())
    lowerStmt(fs->getInit(), scoped);
  lowerWhile(fs, fs->getCond(), fs->getBody(), fs->getInc(), scoped);
  out.push_back(ir::Block::make(std::move(scoped), loc(fs)));
}

void KernelLowering::lowerWhile(const clang::Stmt *loop, const clang::Expr *cond,
                                const clang::Stmt *body, const clang::Expr *tail,
                                std::vector<ir::Stmt> &scoped) {
  const ir::SourceLoc l = loc(loop);
  LoopJumps jumps;
  jumps.tail = tail;
  jumps.stop = breakFlag(body, loop, scoped);
  std::vector<ir::Stmt> condStmts; // what the condition's calls run before it, every iteration
  ir::Expr c;
  {
    PendingScope each(*this, &condStmts);
    c = cond ? lowerCond(cond) : ir::IntImm::make(ScalarType::Bool, 1, l);
  }
  if (condStmts.empty()) {
    scoped.push_back(ir::While::make(stopTest(jumps.stop, c, l), lowerLoopBody(body, jumps), l));
    return;
  }
  // `while (!stop_loop) { condStmts; if (!c) stop_loop = true; else { body } }`
  if (!jumps.stop) {
    jumps.stop = k.newVar("stop_loop", ir::Type::scalar(ScalarType::Bool), ir::VarKind::Local, l);
    scoped.push_back(ir::Decl::make(jumps.stop, ir::IntImm::make(ScalarType::Bool, 0, l), l));
  }
  ir::Stmt b = lowerLoopBody(body, jumps);
  std::vector<ir::Stmt> stop{
      ir::Assign::make(jumps.stop, ir::IntImm::make(ScalarType::Bool, 1, l), l)};
  condStmts.push_back(ir::If::make(negated(c), ir::Block::make(std::move(stop), l),
                                   ir::as<ir::Block>(b)->stmts.empty() ? nullptr : b, l));
  scoped.push_back(
      ir::While::make(stopTest(jumps.stop, ir::IntImm::make(ScalarType::Bool, 1, l), l),
                      ir::Block::make(std::move(condStmts), l), l));
}

const clang::BreakStmt *KernelLowering::loopBreak(const clang::Stmt *s) {
  using namespace clang;
  if (!s || isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) ||
      isa<SwitchStmt>(s) || isa<LambdaExpr>(s))
    return nullptr;
  if (auto *b = dyn_cast<BreakStmt>(s))
    return b;
  for (const Stmt *child : s->children())
    if (const BreakStmt *b = loopBreak(child))
      return b;
  return nullptr;
}

ir::Var KernelLowering::breakFlag(const clang::Stmt *body, const clang::Stmt *loop,
                                  std::vector<ir::Stmt> &out) {
  if (!loopBreak(body))
    return nullptr;
  auto v = k.newVar("stop_loop", ir::Type::scalar(ScalarType::Bool), ir::VarKind::Local, loc(loop));
  out.push_back(ir::Decl::make(v, ir::IntImm::make(ScalarType::Bool, 0, loc(loop)), loc(loop)));
  return v;
}

/// `!c`, written as the opposite comparison where that means the same (`a != b` for `!(a == b)`;
/// not for floats, where a NaN makes both false).
ir::Expr KernelLowering::negated(const ir::Expr &c) {
  using ir::BinaryOp;
  if (auto *u = ir::as<ir::Unary>(c); u && u->op == ir::UnaryOp::Not)
    return u->a;
  static const std::map<BinaryOp, BinaryOp> opposite = {
      {BinaryOp::Lt, BinaryOp::Ge}, {BinaryOp::Le, BinaryOp::Gt}, {BinaryOp::Gt, BinaryOp::Le},
      {BinaryOp::Ge, BinaryOp::Lt}, {BinaryOp::Eq, BinaryOp::Ne}, {BinaryOp::Ne, BinaryOp::Eq}};
  if (auto *b = ir::as<ir::Binary>(c); b && opposite.count(b->op) && !ir::isFloat(b->a->type.elem))
    return ir::Binary::make(opposite.at(b->op), b->a, b->b, c->loc);
  return ir::Unary::make(ir::UnaryOp::Not, c, c->loc);
}

ir::Expr KernelLowering::stopTest(const ir::Var &stop, ir::Expr c, ir::SourceLoc l) {
  if (!stop)
    return c;
  ir::Expr go = ir::Unary::make(ir::UnaryOp::Not, ir::VarRef::make(stop, l), l);
  if (auto *imm = ir::as<ir::IntImm>(c); imm && imm->value != 0) // `while (true)`
    return go;
  return ir::Binary::make(ir::BinaryOp::LAnd, go, c, l);
}

ir::Stmt KernelLowering::lowerLoopBody(const clang::Stmt *body, const LoopJumps &jumps) {
  std::vector<ir::Stmt> out;
  ir::Var skip; // made by the first jump inside a nested statement
  LoopJumps j = jumps;
  j.skip = &skip;
  lowerLoopItems(stmtList(body), out, j);
  if (skip) // false at the top of every iteration
    out.insert(out.begin(),
               ir::Decl::make(skip, ir::IntImm::make(ScalarType::Bool, 0, loc(body)), loc(body)));
  return ir::Block::make(std::move(out), loc(body));
}

const clang::Stmt *KernelLowering::loopJump(const clang::Stmt *s) {
  using namespace clang;
  if (!s || isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) ||
      isa<SwitchStmt>(s) || isa<LambdaExpr>(s))
    return nullptr;
  if (isa<BreakStmt>(s) || isa<ContinueStmt>(s))
    return s;
  for (const Stmt *child : s->children())
    if (const Stmt *j = loopJump(child))
      return j;
  return nullptr;
}

void KernelLowering::lowerLoopItems(const std::vector<const clang::Stmt *> &items,
                                    std::vector<ir::Stmt> &out, const LoopJumps &jumps) {
  using namespace clang;
  auto tail = [&] { // what the end of the body and a `continue` run (the outermost level's)
    if (jumps.tail && !jumps.nested) {
      PendingScope inc(*this, &out);
      lowerExprStmt(jumps.tail, out);
    }
  };
  auto setSkip = [&](const Stmt *at) { // a jump inside a nested statement: skip the rest
    if (!*jumps.skip)
      *jumps.skip =
          k.newVar("skip_rest", ir::Type::scalar(ScalarType::Bool), ir::VarKind::Local, loc(at));
    out.push_back(
        ir::Assign::make(*jumps.skip, ir::IntImm::make(ScalarType::Bool, 1, loc(at)), loc(at)));
  };
  auto endsInJump = [](const std::vector<const Stmt *> &b) {
    return !b.empty() && (isa<BreakStmt>(b.back()) || isa<ContinueStmt>(b.back()));
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const Stmt *s = items[i];
    while (auto *as = dyn_cast<AttributedStmt>(s)) // `[[likely]] { ... }`: the statement itself
      s = as->getSubStmt();
    if (isa<BreakStmt>(s) || isa<ContinueStmt>(s)) {
      const bool isBreak = isa<BreakStmt>(s);
      for (size_t j = i + 1; j < items.size(); ++j) // (C++ allows them; they would be lost)
        if (!isa<NullStmt>(items[j]))               // `continue;;` is fine
          fe.fail(DiagId::AfterJump, items[j]->getBeginLoc(), {isBreak ? "break" : "continue"});
      if (isBreak) { // the loop's condition tests `stop` first
        if (!jumps.stop)
          fe.fail(DiagId::BreakInRange, s->getBeginLoc());
        out.push_back(
            ir::Assign::make(jumps.stop, ir::IntImm::make(ScalarType::Bool, 1, loc(s)), loc(s)));
      }
      if (jumps.nested)
        setSkip(s);
      else if (!isBreak)
        tail();
      return;
    }
    auto *is = dyn_cast<IfStmt>(s);
    const bool plainIf = is && !is->isConstexpr() && !is->isConsteval() && !is->getInit() &&
                         !is->getConditionVariable();
    std::vector<const Stmt *> thenItems, elseItems;
    if (plainIf) {
      thenItems = stmtList(is->getThen());
      elseItems = stmtList(is->getElse());
    }
    const bool thenJumps = endsInJump(thenItems), elseJumps = endsInJump(elseItems);
    std::vector<const Stmt *> rest(items.begin() + long(i) + 1, items.end());
    if (thenJumps || elseJumps) {
      // `if (c) { A; continue; } B;` is `if (c) { A; } else { B; }`.
      if (!thenJumps)
        thenItems.insert(thenItems.end(), rest.begin(), rest.end());
      if (!elseJumps)
        elseItems.insert(elseItems.end(), rest.begin(), rest.end());
      ir::Expr c;
      {
        PendingScope here(*this, &out); // the condition's calls run before the `if`
        c = lowerCond(is->getCond());
      }
      std::vector<ir::Stmt> thenOut, elseOut;
      lowerLoopItems(thenItems, thenOut, jumps);
      lowerLoopItems(elseItems, elseOut, jumps);
      if (thenOut.empty() && !elseOut.empty()) { // `if (c) continue; B;` is `if (!c) { B; }`
        out.push_back(ir::If::make(negated(c), ir::Block::make(std::move(elseOut), loc(is)),
                                   nullptr, loc(is)));
        return;
      }
      out.push_back(ir::If::make(
          c, ir::Block::make(std::move(thenOut), loc(is->getThen())),
          elseOut.empty() ? nullptr : ir::Block::make(std::move(elseOut), loc(is)), loc(is)));
      return;
    }
    if (!loopJump(s)) {
      lowerStmt(s, out);
      continue;
    }
    // A jump deeper inside `s` (an `if` in an `if`, a block): it sets the body's skip flag, and
    // the statements after `s` run where it is not set.
    LoopJumps inner = jumps;
    inner.nested = true;
    auto nestedBlock = [&](const Stmt *b) {
      std::vector<ir::Stmt> o;
      if (b)
        lowerLoopItems(stmtList(b), o, inner);
      return ir::Block::make(std::move(o), loc(b ? b : s));
    };
    if (isa<CompoundStmt>(s)) {
      out.push_back(nestedBlock(s));
    } else if (is && !is->isConsteval() && !is->getConditionVariable()) {
      std::vector<ir::Stmt> scoped; // an init statement's variables live in the `if`
      std::vector<ir::Stmt> &target = is->getInit() ? scoped : out;
      if (is->getInit())
        lowerStmt(is->getInit(), scoped);
      if (is->isConstexpr()) {
        bool v = false;
        if (!is->getCond()->EvaluateAsBooleanCondition(v, ctx))
          fe.fail(DiagId::NotConstant, is->getCond()->getExprLoc(),
                  {"the condition of 'if constexpr'", fe.text(is->getCond()->getSourceRange())});
        target.push_back(nestedBlock(v ? is->getThen() : is->getElse()));
      } else {
        ir::Expr c;
        {
          PendingScope here(*this, &target);
          c = lowerCond(is->getCond());
        }
        ir::Stmt thenS = nestedBlock(is->getThen());
        ir::Stmt elseS = is->getElse() ? nestedBlock(is->getElse()) : nullptr;
        target.push_back(ir::If::make(c, thenS, elseS, loc(is)));
      }
      if (is->getInit())
        out.push_back(ir::Block::make(std::move(scoped), loc(is)));
    } else {
      lowerStmt(s, out); // reports the jump where it cannot be lowered
      continue;
    }
    std::vector<ir::Stmt> restOut, skipped;
    const ir::SourceLoc at = loc(loopJump(s)); // the guard's comment names the jump
    lowerLoopItems(rest, restOut, jumps);
    if (*jumps.skip == nullptr) { // the jump was in a branch that `if constexpr` left out
      out.insert(out.end(), restOut.begin(), restOut.end());
      return;
    }
    if (jumps.tail && !jumps.nested) { // a `continue` still runs the increment, a `break` not
      PendingScope inc(*this, &skipped);
      lowerExprStmt(jumps.tail, skipped);
      if (jumps.stop) {
        ir::Expr go = ir::Unary::make(ir::UnaryOp::Not, ir::VarRef::make(jumps.stop, at), at);
        skipped = {ir::If::make(go, ir::Block::make(std::move(skipped), at), nullptr, at)};
      }
    }
    ir::Expr skip = ir::VarRef::make(*jumps.skip, at);
    if (!restOut.empty())
      out.push_back(ir::If::make(
          ir::Unary::make(ir::UnaryOp::Not, skip, at), ir::Block::make(std::move(restOut), at),
          skipped.empty() ? nullptr : ir::Block::make(std::move(skipped), at), at));
    else if (!skipped.empty())
      out.push_back(ir::If::make(skip, ir::Block::make(std::move(skipped), at), nullptr, at));
    return;
  }
  tail();
}

bool KernelLowering::refersTo(const clang::Expr *e, const clang::VarDecl *vd) {
  auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  return dre && dre->getDecl() == vd;
}

void KernelLowering::lowerRangeFor(const clang::CXXForRangeStmt *rf, std::vector<ir::Stmt> &out) {
  const clang::Expr *range = rf->getRangeInit();
  const auto *spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      range ? range->getType().getCanonicalType()->getAsCXXRecordDecl() : nullptr);
  if (spec && spec->getName() == "range" && inTl(spec) && !rf->getInit())
    return lowerStagedRange(rf, spec, out);
  if (!spec || spec->getName() != "static_range" || !inTl(spec) || rf->getInit())
    fe.fail(DiagId::UnsupportedStmt, rf->getBeginLoc(),
            {"range-based for over anything but tl::static_range or tl::range"});
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
  // The values are ints, BEGIN + k * STEP for k below the count (tl.hpp). The plain loop
  // `for (int i = BEGIN; i < END; i += STEP)` means the same when i is an int the body leaves
  // alone and the increment after the last value does not overflow; otherwise the loop counts k
  // and the body starts with `i = BEGIN + k * STEP` converted to i's type.
  const int64_t begin = vals[0], end = vals[1];
  const int64_t count = step > 0 ? (end > begin ? (end - begin + step - 1) / step : 0)
                                 : (end < begin ? (begin - end - step - 1) / -step : 0);
  const int64_t after = begin + count * step; // the value the plain loop's increment reaches
  const bool assigned = assignsTo(rf->getBody(), lv);
  ir::SourceLoc l = fe.irLoc(range->getExprLoc());
  if (!assigned && t.elem == ScalarType::I32 && after >= INT32_MIN && after <= INT32_MAX) {
    auto v = k.newVar(lv->getNameAsString(), t, ir::VarKind::LoopIndex, fe.irLoc(lv->getLocation()));
    vars[lv] = v;
    out.push_back(ir::For::make(v, ir::IntImm::make(t.elem, begin, l),
                                ir::IntImm::make(t.elem, end, l), ir::IntImm::make(t.elem, step, l),
                                lowerLoopBody(rf->getBody(), {}), true, loc(rf)));
    return;
  }
  auto counter = k.newVar(lv->getNameAsString() + "_k", ir::Type::scalar(ScalarType::I32),
                          ir::VarKind::LoopIndex, fe.irLoc(lv->getLocation()));
  auto v = k.newVar(lv->getNameAsString(), t, ir::VarKind::Local, fe.irLoc(lv->getLocation()));
  vars[lv] = v;
  ir::Expr value = ir::Binary::make(
      ir::BinaryOp::Add, ir::IntImm::make(ScalarType::I32, begin, l),
      ir::Binary::make(ir::BinaryOp::Mul, ir::VarRef::make(counter, l), ir::IntImm::make(ScalarType::I32, step, l), l),
      l);
  std::vector<ir::Stmt> body;
  body.push_back(ir::Decl::make(v, castTo(value, t.elem), fe.irLoc(lv->getLocation())));
  body.push_back(lowerLoopBody(rf->getBody(), {}));
  out.push_back(ir::For::make(counter, ir::IntImm::make(ScalarType::I32, 0, l),
                              ir::IntImm::make(ScalarType::I32, count, l), ir::IntImm::make(ScalarType::I32, 1, l),
                              ir::Block::make(std::move(body), loc(rf)), true, loc(rf)));
}

void KernelLowering::lowerStagedRange(const clang::CXXForRangeStmt *rf,
                                      const clang::ClassTemplateSpecializationDecl *spec,
                                      std::vector<ir::Stmt> &out) {
  // `for (int k : tl::range<S>(begin, end, step))` is `for (int k = begin; k < end; k += step)`
  // with S as the loop's num_stages: the loop variable an int the body leaves alone, the step a
  // positive constant (a counted loop).
  const clang::Expr *range = rf->getRangeInit();
  int stages = 0;
  for (const auto &arg : spec->getTemplateArgs().asArray())
    if (arg.getKind() == clang::TemplateArgument::Integral)
      stages = static_cast<int>(arg.getAsIntegral().getExtValue());
  const auto *ctor = llvm::dyn_cast<clang::CXXConstructExpr>(range->IgnoreImplicit());
  if (auto *cast = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(range->IgnoreImplicit()))
    ctor = llvm::dyn_cast<clang::CXXConstructExpr>(cast->getSubExpr()->IgnoreImplicit());
  if (!ctor || ctor->getNumArgs() < 1)
    fe.fail(
        DiagId::UnsupportedStmt, range->getExprLoc(),
        {"tl::range other than tl::range<S>(end) or tl::range<S>(begin, end[, step]) in the for"});
  const clang::VarDecl *lv = rf->getLoopVariable();
  ir::Type t = typeOf(lv->getType().getNonReferenceType(), lv->getLocation());
  if (t.isTile() || t.pointer || t.elem != ScalarType::I32 || assignsTo(rf->getBody(), lv))
    fe.fail(DiagId::UnsupportedType, lv->getLocation(),
            {typeName(lv->getType()), "an int loop variable that the body does not assign"});
  auto arg = [&](unsigned i) -> const clang::Expr * {
    if (i >= ctor->getNumArgs() || llvm::isa<clang::CXXDefaultArgExpr>(ctor->getArg(i)))
      return nullptr;
    return ctor->getArg(i);
  };
  const bool one = ctor->getNumArgs() == 1;
  const clang::Expr *beginE = one ? nullptr : arg(0), *endE = one ? arg(0) : arg(1),
                    *stepE = one ? nullptr : arg(2);
  ir::SourceLoc l = fe.irLoc(range->getExprLoc());
  int64_t step = 1;
  std::string stepSymbol;
  if (stepE) {
    std::optional<int64_t> c = constInt(stepE);
    if (!c)
      fe.fail(DiagId::NotConstant, stepE->getExprLoc(),
              {"the step of tl::range", fe.text(stepE->getSourceRange())});
    if (*c <= 0)
      fe.fail(DiagId::UnsupportedStmt, stepE->getExprLoc(),
              {"tl::range with a step that is not positive (" + std::to_string(*c) + ")"});
    step = *c;
    stepSymbol = intMetaParameterName(stepE);
  }
  ir::Expr begin = beginE ? castTo(lowerExpr(beginE), t.elem) : ir::IntImm::make(t.elem, 0, l);
  ir::Expr end;
  {
    PendingScope none(*this, nullptr,
                      "into a loop bound (it runs every iteration); compute it into a variable "
                      "before the loop");
    end = lowerExpr(endE);
  }
  if (begin->type.isTile() || end->type.isTile())
    fe.fail(DiagId::TileCondition, range->getExprLoc(), {fe.text(range->getSourceRange())});
  end = castTo(end, t.elem);
  auto v = k.newVar(lv->getNameAsString(), t, ir::VarKind::LoopIndex, fe.irLoc(lv->getLocation()));
  vars[lv] = v;
  out.push_back(ir::For::make(v, begin, end, ir::IntImm::makeSymbol(t.elem, step, stepSymbol, l),
                              lowerLoopBody(rf->getBody(), {}), false, loc(rf), false, stages));
}

ir::Var KernelLowering::assignedVar(const clang::Expr *lhs) {
  auto *dre = llvm::dyn_cast<clang::DeclRefExpr>(lhs->IgnoreParenImpCasts());
  if (dre)
    if (auto *vd = llvm::dyn_cast<clang::VarDecl>(dre->getDecl())) {
      auto it = vars.find(vd);
      if (it != vars.end())
        return it->second;
    }
  fe.fail(DiagId::UnsupportedExpr, lhs->getExprLoc(),
          {"assignment to " + fe.text(lhs->getSourceRange()) +
           " (only local variables can be assigned; write memory with tl::store(pointer, "
           "value))"});
}

void KernelLowering::assign(const ir::Var &v, ir::Expr value, const clang::Expr *at,
                            std::vector<ir::Stmt> &out, ir::SourceLoc l) {
  if (v->type.shape != value->type.shape && !(value->type.isScalar() && v->type.isTile())) {
    fe.report(DiagId::TileTypeChange, at->getExprLoc(), {value->type.str(), v->name, v->type.str()});
    for (auto &[decl, var] : vars)
      if (var == v)
        fe.report(DiagId::NoteDeclaredHere, decl->getLocation(), {v->name});
    throw LoweringStopped();
  }
  out.push_back(ir::Assign::make(v, convertTo(value, v->type, v->name, at), l));
}

void KernelLowering::lowerExprStmt(const clang::Expr *e, std::vector<ir::Stmt> &out) {
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
  if (auto *call = dyn_cast<CallExpr>(e); call && lambdaCallOperator(call)) {
    PendingScope here(*this, &out);
    inlineCall(call); // a value it returns is not used
    return;
  }
  if (auto *mc = dyn_cast<CXXMemberCallExpr>(e); mc && isDescriptorMethod(mc, "store")) {
    out.push_back(lowerDescriptorStore(mc));
    return;
  }
  if (auto *call = dyn_cast<CallExpr>(e); call && !isa<CXXOperatorCallExpr>(e)) {
    const FunctionDecl *fd = call->getDirectCallee();
    if (fd && inTl(fd) && fd->getDeclName().isIdentifier() && fd->getName() == "store") {
      out.push_back(lowerStore(call));
      return;
    }
    if (isAtomicCall(call)) {
      out.push_back(lowerAtomic(call, nullptr)); // the old values are not kept
      return;
    }
    if (fd && inTl(fd) && fd->getDeclName().isIdentifier() && fd->getName() == "debug_barrier") {
      out.push_back(ir::Barrier::make(loc(call), /*debug=*/true));
      return;
    }
    if (fd && inTl(fd) && fd->getDeclName().isIdentifier() && fd->getName() == "device_assert") {
      out.push_back(lowerDeviceAssert(call));
      return;
    }
    if (fd && inTl(fd) && fd->getDeclName().isIdentifier() && fd->getName() == "device_print") {
      lowerDevicePrint(call, out);
      return;
    }
    if (isUserFunction(fd) && !isa<CXXMemberCallExpr>(e)) {
      PendingScope here(*this, &out);
      inlineCall(call); // a value it returns is not used
      return;
    }
    if (!fd || !inTl(fd))
      unsupportedCall(call);
  }
  fe.fail(DiagId::UnsupportedStmt, e->getExprLoc(), {fe.text(e->getSourceRange())});
}

/// tl::device_assert(cond[, "message"]): cond a tile or scalar of numbers or bools (a number is
/// true when not 0), the message a string literal.
ir::Stmt KernelLowering::lowerDeviceAssert(const clang::CallExpr *call) {
  auto args = callArgs(call); // (the std::source_location argument is a default one)
  if (args.empty())
    unsupportedCall(call);
  ir::Expr cond = lowerExpr(args[0]); // (pointers: tl.hpp's conversion to bool rejects them)
  std::string message;
  if (args.size() > 1) {
    const auto *lit = dyn_cast<clang::StringLiteral>(args[1]->IgnoreParenImpCasts());
    if (!lit || !lit->isOrdinary())
      fe.fail(DiagId::NotConstant, args[1]->getExprLoc(),
              {"the message of 'tl::device_assert' (a string literal)",
               fe.text(args[1]->getSourceRange())});
    message = lit->getString().str();
  }
  return ir::Assert::make(castTo(cond, ir::ScalarType::Bool), message,
                          fe.text(args[0]->getSourceRange()), loc(call));
}

/// tl::device_print("prefix", operands...[, tl::hex]): a Print statement per operand (one for the
/// prefix alone), the prefix shaped as Triton shapes it.
void KernelLowering::lowerDevicePrint(const clang::CallExpr *call, std::vector<ir::Stmt> &out) {
  auto args = callArgs(call);
  if (args.empty())
    unsupportedCall(call);
  const auto *lit = dyn_cast<clang::StringLiteral>(args[0]->IgnoreParenImpCasts());
  if (!lit || !lit->isOrdinary())
    fe.fail(DiagId::NotConstant, args[0]->getExprLoc(),
            {"the prefix of 'tl::device_print' (a string literal)",
             fe.text(args[0]->getSourceRange())});
  std::string prefix = lit->getString().str();
  bool hex = false;
  std::vector<const clang::Expr *> operands(args.begin() + 1, args.end());
  if (!operands.empty() && isTlRecord(operands.back()->getType(), "print_hex_t")) {
    hex = true; // (tl.hpp allows tl::hex only last)
    operands.pop_back();
  }
  // Triton's shaping (its semantic.device_print), as tl.hpp's detail::printPrefix.
  if (!operands.empty() && (prefix.empty() || prefix.back() != ' '))
    prefix += ' ';
  if (!operands.empty() && !(prefix.size() >= 2 && prefix.compare(prefix.size() - 2, 2, ": ") == 0))
    prefix = prefix.substr(0, prefix.size() - 1) + ": ";
  if (prefix.size() > 2 && prefix.front() != ' ')
    prefix = " " + prefix;
  if (operands.empty()) {
    out.push_back(ir::Print::make(nullptr, prefix, 0, 0, hex, loc(call)));
    return;
  }
  const int n = static_cast<int>(operands.size());
  for (int i = 0; i < n; ++i)
    out.push_back(ir::Print::make(lowerExpr(operands[i]), prefix, i, n, hex, loc(call)));
}

} // namespace tilec::translator
