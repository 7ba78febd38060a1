/// KernelLowering, calls to the user's own functions: free functions and function templates with a
/// definition in the translation unit (the kernel's file or a header it includes) are inlined
/// where they are called. Their parameters become variables bound to the arguments (a variable
/// argument of a parameter the function leaves alone is used as it is), their statements go before
/// the statement that holds the call, and the call's value is the expression the function returns.
/// A function returns at its end only (as a kernel does); an `if constexpr` at the end may choose
/// between returns, and so may a runtime `if` whose every branch ends in one (a variable holds the
/// value). Recursion is a located error; statements of a call cannot run where the
/// surrounding statement evaluates the call several times or not at all (a loop condition, the
/// right side of && or ||, a branch of ?:), which is a located error too.
/// docs/internals.md ("Device functions") says why tilec inlines.

#include "translator/Lowering.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <set>

namespace tilec::translator {

bool KernelLowering::isUserFunction(const clang::FunctionDecl *fd) {
  return fd && !inTl(fd) && !fd->isInStdNamespace();
}

const clang::CXXMethodDecl *KernelLowering::lambdaCallOperator(const clang::CallExpr *call) {
  auto *oc = llvm::dyn_cast_or_null<clang::CXXOperatorCallExpr>(call);
  if (!oc || oc->getOperator() != clang::OO_Call)
    return nullptr;
  auto *md = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(oc->getDirectCallee());
  return md && md->getParent()->isLambda() ? md : nullptr;
}

bool KernelLowering::isClosure(clang::QualType t) {
  const auto *rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->isLambda();
}

KernelLowering::PendingScope::PendingScope(KernelLowering &l, std::vector<ir::Stmt> *out, const char *why)
    : l(l), saved(l.pending), savedWhy(l.noPendingWhy) {
  l.pending = out;
  l.noPendingWhy = why;
}

KernelLowering::PendingScope::~PendingScope() {
  l.pending = saved;
  l.noPendingWhy = savedWhy;
}

std::vector<ir::Stmt> &KernelLowering::needPending(const clang::CallExpr *call, const clang::FunctionDecl *fd) {
  if (!pending)
    fe.fail(DiagId::CallNeedsStatements, call->getExprLoc(),
            {fd->getQualifiedNameAsString(),
             noPendingWhy ? noPendingWhy : "here; compute it into a variable first"});
  return *pending;
}

ir::Expr KernelLowering::inlineCall(const clang::CallExpr *call, std::vector<ir::Expr> *parts,
                                    const std::vector<ir::Type> *partTypes) {
  using namespace clang;
  const FunctionDecl *fd = call->getDirectCallee();
  const FunctionDecl *def = nullptr;
  if (!fd || !fd->hasBody(def) || !def)
    unsupportedCall(call);
  // A lambda's call operator is named by where the lambda is written; its object (the first
  // argument of the operator call) has no value in the kernel: captures are the kernel's variables.
  const CXXMethodDecl *lambda = lambdaCallOperator(call);
  std::string name = fd->getQualifiedNameAsString();
  if (lambda) {
    clang::PresumedLoc p = ctx.getSourceManager().getPresumedLoc(lambda->getParent()->getLocation());
    name = p.isValid() ? "the lambda at " + llvm::sys::path::filename(p.getFilename()).str() + ":" +
                             std::to_string(p.getLine())
                       : "a lambda";
  }
  const unsigned argOffset = lambda ? 1 : 0;
  if (lambda && !lambda->isConst())
    fe.fail(DiagId::UnsupportedFunction, call->getExprLoc(),
            {name, "it is mutable (the copies a lambda makes of what it captures cannot change in a kernel; "
                   "capture by reference, or return the new value)"});
  if (auto *md = dyn_cast<CXXMethodDecl>(def); md && !md->isStatic() && !lambda)
    unsupportedCall(call); // objects of classes are not kernel values: their members never run here
  if (std::find(inlineStack.begin(), inlineStack.end(), def->getCanonicalDecl()) != inlineStack.end())
    fe.fail(DiagId::RecursiveCall, call->getExprLoc(), {name});
  auto *body = dyn_cast_or_null<CompoundStmt>(def->getBody());
  if (!body)
    unsupportedCall(call);
  // The arguments first, outside the call (they may call the same function: f(f(x))).
  std::vector<const Expr *> argExprs;
  std::vector<ir::Expr> args;
  std::vector<std::pair<const ParmVarDecl *, TensorDescriptor>> passedDescriptors;
  for (unsigned i = 0; i < def->getNumParams(); ++i) {
    const ParmVarDecl *p = def->getParamDecl(i);
    const Expr *arg = i + argOffset < call->getNumArgs() ? call->getArg(i + argOffset) : p->getDefaultArg();
    if (auto *da = dyn_cast_or_null<CXXDefaultArgExpr>(arg))
      arg = da->getExpr();
    if (!arg)
      unsupportedCall(call);
    argExprs.push_back(arg);
    // A function object (a lambda) passed on has no value: calls of it name its operator. A tensor
    // descriptor has none either: the parameter stands for the argument's parts.
    if (isDescriptor(p->getType()))
      passedDescriptors.emplace_back(p, descriptorOf(arg));
    args.push_back(isClosure(p->getType()) || isDescriptor(p->getType()) ? nullptr
                                                                         : lowerExpr(arg));
  }
  // A lambda reads its copies of the variables it captured where they are assigned later.
  struct SwapCopies {
    std::map<const clang::VarDecl *, ir::Var> &vars;
    std::map<const clang::VarDecl *, ir::Var> saved;
    ~SwapCopies() {
      for (auto &[d, v] : saved)
        vars[d] = v;
    }
  } swapCopies{vars, {}};
  if (lambda)
    if (auto it = closureCopies.find(lambda->getParent()); it != closureCopies.end())
      for (auto &[d, copy] : it->second) {
        swapCopies.saved[d] = vars[d];
        vars[d] = copy;
      }
  // Then the function: errors in it get a note at the call. Its statements say, in the output,
  // which call they come from (the first one that remains after the passes names it).
  std::vector<ir::Stmt> *into = pending;
  const size_t firstStmt = into ? into->size() : 0;
  struct MarkFirst {
    ir::Kernel &k;
    std::vector<ir::Stmt> *into;
    size_t first;
    ir::InlinedCall what;
    ~MarkFirst() {
      if (!into || into->size() <= first)
        return; // no statement: the call's value is all there is, in the calling statement
      int own = -1;
      std::set<int> nested; // chains of calls inside this one: this call goes first in each
      for (size_t i = first; i < into->size(); ++i) {
        // The statements were made just now by this lowering and are not shared yet.
        ir::SourceLoc &loc = std::const_pointer_cast<ir::StmtNode>((*into)[i])->loc;
        if (loc.inlined >= 0) {
          if (nested.insert(loc.inlined).second) {
            auto &chain = k.inlinedCalls[static_cast<size_t>(loc.inlined)];
            chain.insert(chain.begin(), what);
          }
          continue;
        }
        if (own < 0) {
          own = static_cast<int>(k.inlinedCalls.size());
          k.inlinedCalls.push_back({what});
        }
        loc.inlined = own;
      }
    }
  } mark{k, into, firstStmt, {name, fe.irLoc(call->getExprLoc())}};
  fe.inlinedCalls.push_back({call->getExprLoc(), name});
  inlineStack.push_back(def->getCanonicalDecl());
  struct Pop {
    FrontEndContext &fe;
    std::vector<const clang::FunctionDecl *> &stack;
    ~Pop() {
      fe.inlinedCalls.pop_back();
      stack.pop_back();
    }
  } pop{fe, inlineStack};
  {
    // Parameters: bound to the arguments' values, in order.
    for (auto &[p, d] : passedDescriptors)
      descriptors[p] = d;
    for (unsigned i = 0; i < def->getNumParams(); ++i) {
      const ParmVarDecl *p = def->getParamDecl(i);
      const Expr *arg = argExprs[i];
      QualType pt = p->getType();
      if (!args[i])
        continue; // a lambda
      if (pt->isReferenceType() && !pt.getNonReferenceType().isConstQualified())
        fe.fail(DiagId::UnsupportedFunction, p->getLocation(),
                {name, "its parameter '" + p->getNameAsString() + "' is a reference to non-const (take it by "
                       "value or by const reference, and return the result)"});
      ir::Type t = typeOf(pt.getNonReferenceType(), p->getLocation());
      std::string pname = p->getName().empty() ? "arg" + std::to_string(i) : p->getNameAsString();
      ir::Expr value = convertTo(args[i], t, pname, arg);
      if (auto *ref = ir::as<ir::VarRef>(value); ref && !assignsTo(body, p)) {
        vars[p] = ref->var; // the caller's variable, read only
        continue;
      }
      auto v = k.newVar(pname, t, ir::VarKind::Local, fe.irLoc(p->getLocation()));
      needPending(call, fd).push_back(ir::Decl::make(v, value, fe.irLoc(p->getLocation())));
      vars[p] = v;
    }
    // The body: statements, then the returned value.
    const bool isVoid = def->getReturnType()->isVoidType();
    returningIf = nullptr;
    const Expr *result = inlineBody(body, call, fd);
    if (const IfStmt *is = returningIf) {
      // `if (c) return a; else return b;` at the end: a variable for the value, assigned in each
      // branch (it starts as zero, so that every path of the output defines it).
      returningIf = nullptr;
      if (isVoid || parts)
        fe.fail(DiagId::EarlyReturn, is->getBeginLoc());
      ir::Type rt = typeOf(def->getReturnType(), is->getBeginLoc());
      ir::Expr zero = castTo(ir::IntImm::make(ir::ScalarType::I32, 0), rt.elem);
      if (rt.isTile())
        zero = ir::Splat::make(zero, rt.shape);
      auto v = k.newVar(name + "_result", rt, ir::VarKind::Local, fe.irLoc(is->getBeginLoc()));
      needPending(call, fd).push_back(ir::Decl::make(v, zero, fe.irLoc(is->getBeginLoc())));
      needPending(call, fd).push_back(lowerReturningIf(is, v, rt, name));
      return ir::VarRef::make(v);
    }
    if (isVoid) {
      if (result) // `return tl::store(...);`: the void expression runs as a statement
        lowerStmt(result, needPending(call, fd));
      return nullptr;
    }
    if (!result)
      fe.fail(DiagId::UnsupportedStmt, body->getRBracLoc(),
              {"the end of '" + name + "' without a return statement"});
    if (parts) { // several values, each to its binding's type
      // `return other(x);` where the other function makes the values: inlined in turn.
      if (auto *inner = dyn_cast<CallExpr>(strip(result));
          inner && !isa<CXXOperatorCallExpr>(inner) && isUserFunction(inner->getDirectCallee())) {
        inlineCall(inner, parts, partTypes);
        return nullptr;
      }
      std::vector<const Expr *> ps = partsOf(result, partTypes->size(), "the value '" + name + "' returns");
      for (size_t i = 0; i < ps.size(); ++i)
        parts->push_back(convertTo(lowerExpr(ps[i]), (*partTypes)[i], name, ps[i]));
      return nullptr;
    }
    ir::Type rt = typeOf(def->getReturnType(), result->getExprLoc());
    return convertTo(lowerExpr(result), rt, name, result);
  }
}

std::vector<const clang::Expr *> KernelLowering::partsOf(const clang::Expr *e, size_t count,
                                                        const std::string &what) {
  using namespace clang;
  const Expr *s = strip(e);
  std::vector<const Expr *> out;
  if (auto *il = dyn_cast<InitListExpr>(s)) {
    out.assign(il->inits().begin(), il->inits().end());
  } else if (auto *ce = dyn_cast<CXXConstructExpr>(s); ce && !ce->getConstructor()->isCopyOrMoveConstructor()) {
    out.assign(ce->arg_begin(), ce->arg_end());
  } else if (auto *call = dyn_cast<CallExpr>(s)) {
    const FunctionDecl *fd = call->getDirectCallee();
    const std::string n = fd ? fd->getQualifiedNameAsString() : "";
    if (n == "std::make_pair" || n == "std::make_tuple")
      out.assign(call->arg_begin(), call->arg_end());
  }
  if (out.size() != count)
    fe.fail(DiagId::SeveralValues, e->getExprLoc(), {fe.text(e->getSourceRange()), std::to_string(count), what});
  return out;
}

void KernelLowering::lowerDecomposition(const clang::DecompositionDecl *dd, const clang::DeclStmt *ds,
                                        std::vector<ir::Stmt> &out) {
  using namespace clang;
  std::vector<ir::Type> types;
  for (const BindingDecl *b : dd->bindings())
    types.push_back(typeOf(b->getType().getNonReferenceType(), b->getLocation()));
  const Expr *init = dd->getInit();
  if (!init)
    fe.fail(DiagId::UninitializedVar, dd->getLocation(), {"[...]"});
  std::vector<ir::Expr> values;
  const Expr *s = strip(init);
  const auto *callee = isa<CallExpr>(s) ? cast<CallExpr>(s)->getDirectCallee() : nullptr;
  if (auto *call = dyn_cast<CallExpr>(s);
      call && !isa<CXXOperatorCallExpr>(call) && isUserFunction(call->getDirectCallee())) {
    inlineCall(call, &values, &types);
  } else if (isSplit(callee)) {
    // auto [a, b] = tl::split(x); the pairs, when computed here, are named `a_b`.
    std::string pairs;
    for (const BindingDecl *b : dd->bindings())
      pairs += (pairs.empty() ? "" : "_") + b->getNameAsString();
    values = lowerSplit(cast<CallExpr>(s), pairs, out);
    if (values.size() != types.size())
      fe.fail(DiagId::SeveralValues, init->getExprLoc(),
              {fe.text(init->getSourceRange()), std::to_string(types.size()),
               "a structured binding's initializer"});
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = convertTo(values[i], types[i], "[...]", init);
  } else if (isRandomFour(callee)) {
    // auto [r0, r1, r2, r3] = tl::rand4x(seed, offsets);
    values = lowerRandom(cast<CallExpr>(s), callee->getName().str());
    if (values.size() != types.size())
      fe.fail(DiagId::SeveralValues, init->getExprLoc(),
              {fe.text(init->getSourceRange()), std::to_string(types.size()),
               "a structured binding's initializer"});
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = convertTo(values[i], types[i], "[...]", init);
  } else {
    std::vector<const Expr *> ps = partsOf(init, types.size(), "a structured binding's initializer");
    for (size_t i = 0; i < ps.size(); ++i)
      values.push_back(convertTo(lowerExpr(ps[i]), types[i], "[...]", ps[i]));
  }
  size_t i = 0;
  for (const BindingDecl *b : dd->bindings()) {
    auto v = k.newVar(b->getNameAsString(), types[i], ir::VarKind::Local, fe.irLoc(b->getLocation()));
    bindings[b] = v;
    out.push_back(ir::Decl::make(v, values[i], fe.irLoc(ds->getBeginLoc())));
    ++i;
  }
}

const clang::Expr *KernelLowering::inlineBody(const clang::Stmt *s, const clang::CallExpr *call,
                                              const clang::FunctionDecl *fd) {
  using namespace clang;
  std::vector<const Stmt *> stmts;
  if (auto *cs = dyn_cast<CompoundStmt>(s))
    stmts.assign(cs->body_begin(), cs->body_end());
  else
    stmts.push_back(s);
  for (size_t i = 0; i < stmts.size(); ++i) {
    const Stmt *st = stmts[i];
    const bool last = i + 1 == stmts.size();
    if (auto *ret = dyn_cast<ReturnStmt>(st)) {
      if (!last)
        fe.fail(DiagId::EarlyReturn, ret->getBeginLoc());
      return ret->getRetValue();
    }
    // A runtime `if` at the end whose every path returns: the caller assigns the value per branch.
    if (auto *is = dyn_cast<IfStmt>(st); last && is && !is->isConstexpr() && returnsOnEveryPath(is)) {
      returningIf = is;
      return nullptr;
    }
    // `if constexpr` at the end may hold the returns: its chosen branch goes on in this scope.
    if (auto *is = dyn_cast<IfStmt>(st); last && is && is->isConstexpr() && !is->getInit()) {
      bool v = false;
      if (!is->getCond()->EvaluateAsBooleanCondition(v, ctx))
        fe.fail(DiagId::NotConstant, is->getCond()->getExprLoc(),
                {"the condition of 'if constexpr'", fe.text(is->getCond()->getSourceRange())});
      const Stmt *chosen = v ? is->getThen() : is->getElse();
      return chosen ? inlineBody(chosen, call, fd) : nullptr;
    }
    lowerStmt(st, needPending(call, fd));
  }
  return nullptr;
}

bool KernelLowering::returnsOnEveryPath(const clang::Stmt *s) {
  using namespace clang;
  if (!s)
    return false;
  if (auto *cs = dyn_cast<CompoundStmt>(s))
    return cs->size() > 0 && returnsOnEveryPath(cs->body_back());
  if (auto *ret = dyn_cast<ReturnStmt>(s))
    return ret->getRetValue() != nullptr;
  if (auto *is = dyn_cast<IfStmt>(s)) {
    if (is->getInit() || is->getConditionVariable())
      return false;
    if (is->isConstexpr()) {
      bool v = false;
      if (!is->getCond()->EvaluateAsBooleanCondition(v, ctx))
        return false;
      return returnsOnEveryPath(v ? is->getThen() : is->getElse());
    }
    return returnsOnEveryPath(is->getThen()) && returnsOnEveryPath(is->getElse());
  }
  return false;
}

ir::Stmt KernelLowering::lowerReturningIf(const clang::IfStmt *is, const ir::Var &result, const ir::Type &t,
                                          const std::string &name) {
  ir::Expr c = lowerCond(is->getCond());
  ir::Stmt thenS = lowerReturningBranch(is->getThen(), result, t, name);
  ir::Stmt elseS = lowerReturningBranch(is->getElse(), result, t, name);
  return ir::If::make(c, thenS, elseS, fe.irLoc(is->getBeginLoc()));
}

ir::Stmt KernelLowering::lowerReturningBranch(const clang::Stmt *s, const ir::Var &result, const ir::Type &t,
                                              const std::string &name) {
  using namespace clang;
  std::vector<ir::Stmt> out;
  std::vector<const Stmt *> stmts;
  if (auto *cs = dyn_cast<CompoundStmt>(s))
    stmts.assign(cs->body_begin(), cs->body_end());
  else
    stmts.push_back(s);
  for (size_t i = 0; i + 1 < stmts.size(); ++i)
    lowerStmt(stmts[i], out);
  const Stmt *last = stmts.back();
  PendingScope here(*this, &out); // calls in the returned value run in this branch
  if (auto *ret = dyn_cast<ReturnStmt>(last)) {
    const Expr *e = ret->getRetValue();
    out.push_back(ir::Assign::make(result, convertTo(lowerExpr(e), t, name, e), fe.irLoc(ret->getBeginLoc())));
  } else if (auto *is = dyn_cast<IfStmt>(last); is && is->isConstexpr()) {
    bool v = false;
    is->getCond()->EvaluateAsBooleanCondition(v, ctx); // (returnsOnEveryPath evaluated it)
    out.push_back(lowerReturningBranch(v ? is->getThen() : is->getElse(), result, t, name));
  } else {
    out.push_back(lowerReturningIf(cast<IfStmt>(last), result, t, name));
  }
  return ir::Block::make(std::move(out), fe.irLoc(s->getBeginLoc()));
}

} // namespace tilec::translator
