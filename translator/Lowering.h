#pragma once
/// \file Internal to translator/: KernelLowering, the AST-to-Tile-IR lowering of one kernel
/// instantiation, whose member functions are spread over the Lowering*.cpp files (Lowering.cpp
/// lists which file holds what), and the helpers those files share.

#include "translator/FrontEnd.h"

#include <clang/AST/Expr.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/OperatorKinds.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilec::translator {

/// What UnsupportedType says tilec accepts.
inline constexpr const char *kExpectedTypes =
    "bool, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, float, "
    "double, tl::half, tl::bfloat16, tl::float8_e4m3, tl::float8_e5m2, a pointer to one of those, "
    "or a tl::tile of them";

/// Is `d` declared in the top-level namespace tl (tl.hpp), possibly nested inside it?
bool inTl(const clang::Decl *d);
/// Is `t` the record tl::`name` (e.g. "tile", "half")?
bool isTlRecord(clang::QualType t, llvm::StringRef name);
/// A shape as diagnostics print it: `[16, 32]`.
std::string shapeStr(const std::vector<int64_t> &s);
/// Whether `s` (null: no) assigns to `v` (`=`, a compound assignment, `++`/`--`, a class's
/// `operator=`) or takes its address, anywhere inside it: nested statements, declarations'
/// initializers, lambda bodies (LoweringStmt.cpp).
bool assignsTo(const clang::Stmt *s, const clang::ValueDecl *v);

/// Lowers one kernel instantiation. Reports user errors through `fe` and throws LoweringStopped;
/// `lower` catches it.
class KernelLowering {
public:
  KernelLowering(FrontEndContext &fe, ir::Kernel &k) : fe(fe), ctx(fe.ctx), k(k) {}

  // ---- types, promotion, casts, constants, broadcasting (LoweringTypes.cpp) ---------------------
  std::optional<ir::ScalarType> scalarOf(clang::QualType t) const;
  /// Scalar or pointer element (no tiles).
  std::optional<ir::Type> elementOf(clang::QualType t) const;
  /// The Tile IR type of a Clang type; reports (at `loc`) and stops when unsupported.
  ir::Type typeOf(clang::QualType t, clang::SourceLocation loc);
  std::string typeName(clang::QualType t) const;

  static constexpr int64_t kMaxTileElements = 1 << 20;
  static constexpr int64_t kMaxParamBytes = 32764;

  /// The element type the operands of an elementwise op are promoted to (Triton's rules).
  static ir::ScalarType promoted(const std::vector<ir::Expr> &xs);
  std::optional<ir::ScalarType> resultElem(clang::QualType t, clang::SourceLocation at);
  /// A value operand of a tile operation (tl:: functions, tile operators): a double scalar there
  /// is an fp32 constant (Triton's float constants; tl.hpp's Canon), so it is rounded to float.
  ir::Expr canonical(ir::Expr e);
  ir::Expr lowerOperand(const clang::Expr *e) { return canonical(lowerExpr(e)); }
  ir::Expr castTo(ir::Expr e, ir::ScalarType to);
  ir::Expr castTo(ir::Expr e, const ir::Type &t);
  std::optional<int64_t> constInt(const clang::Expr *e) const;
  /// A constant right operand that makes `op` undefined on `t` operands (an integer division or
  /// remainder by zero, a shift by a negative count or by the width or more) is a located error.
  void checkConstantOperand(ir::BinaryOp op, ir::ScalarType t, const clang::Expr *rhs);
  /// The name of the non-type template parameter `e` is (through parentheses and integral
  /// conversions), or "".
  static std::string metaParameterName(const clang::Expr *e);
  /// A scalar of builtin arithmetic type that Clang can fold becomes an IntImm/FloatImm.
  ir::Expr tryFold(const clang::Expr *e, const clang::Expr *written = nullptr);
  std::vector<int64_t> broadcastShape(const std::vector<ir::Expr> &xs, clang::SourceLocation at);
  static ir::Expr toShape(ir::Expr e, const std::vector<int64_t> &shape);

  // ---- kernel (Lowering.cpp) --------------------------------------------------------------------
  bool lower(const clang::FunctionDecl *fn, const clang::FunctionDecl *primary);
  /// Statements of the kernel's own block (`items`, from the first), where an `if` whose branch
  /// ends in `return;` takes the statements after it into its other branch (an early return).
  void lowerKernelStmts(const std::vector<const clang::Stmt *> &items, std::vector<ir::Stmt> &out);
  /// The statements of `s`: a compound statement's, else `s` alone (none for null).
  static std::vector<const clang::Stmt *> stmtList(const clang::Stmt *s);
  /// The kernel's enclosing namespaces (k.scope) and the start of its instance name (baseName).
  void lowerScope(const clang::FunctionDecl *fn);
  void lowerTemplateArgs(const clang::FunctionDecl *fn);
  static std::string literalOf(const llvm::APSInt &value, clang::QualType type);
  /// The name of the meta-parameter `e` is (metaParameterName), if the output's constant of that
  /// name can stand for it in int arithmetic (MetaParam::promotesToInt); else "".
  std::string intMetaParameterName(const clang::Expr *e) const;

  // ---- statements (LoweringStmt.cpp) ------------------------------------------------------------
  ir::SourceLoc loc(const clang::Stmt *s) { return fe.irLoc(s->getBeginLoc()); }
  ir::Stmt lowerBlock(const clang::Stmt *s);
  void lowerStmt(const clang::Stmt *s, std::vector<ir::Stmt> &out);
  [[noreturn]] void unsupportedStmt(const clang::Stmt *s);
  void lowerDecl(const clang::Decl *d, const clang::DeclStmt *ds, std::vector<ir::Stmt> &out);
  static bool isDefaultConstruct(const clang::Expr *e);
  /// Convert a value to the declared type of its variable (element cast; shapes must agree).
  ir::Expr convertTo(ir::Expr v, const ir::Type &t, const std::string &name, const clang::Expr *at);
  ir::Expr lowerCond(const clang::Expr *c);
  void lowerIf(const clang::IfStmt *is, std::vector<ir::Stmt> &out);
  /// `for (int i = b; i < e; i += s)` with constant s > 0 and a body that leaves i alone becomes a
  /// For; any other for loop becomes `{ init; while (cond) { body; inc; } }`.
  void lowerFor(const clang::ForStmt *fs, std::vector<ir::Stmt> &out);
  /// A loop's `break` and `continue`, lowered without jumps: one as the last statement of a branch
  /// of an `if` (of a scalar condition) in the loop's body makes the statements after the `if` its
  /// other branch, as an early return does; a `continue` then runs `tail` (a for's increment, which
  /// the body's end runs too), a `break` sets `stop`, which the loop's condition tests first. In a
  /// loop whose condition cannot take `stop` (tl::range, tl::static_range) `stop` is null.
  /// A jump inside a statement nested in the body (an `if` in an `if`, a block) sets the body's
  /// flag `skip_rest` instead (and a `break` `stop` too); the statements after that statement run
  /// under `if (!skip_rest)`, and where they do not, a `continue`'s `tail` still runs.
  struct LoopJumps {
    const clang::Expr *tail = nullptr;
    ir::Var stop;
    ir::Var *skip = nullptr; ///< the body's skip flag, made by the first nested jump
    bool nested = false;     ///< lowering inside such a statement (its caller runs the tail)
  };
  ir::Stmt lowerLoopBody(const clang::Stmt *body, const LoopJumps &jumps);
  /// `while (cond) body` (`tail` a for loop's increment, run after the body and by a `continue`) as
  /// an ir::While into `scoped`, after its break flag's declaration if it has one. A condition
  /// whose calls need statements of their own (an atomic's old value, a function of the user's)
  /// runs them at the top of each iteration, under a flag:
  /// `while (!stop_loop) { stmts; if (!cond) stop_loop = true; else { body } }`.
  void lowerWhile(const clang::Stmt *loop, const clang::Expr *cond, const clang::Stmt *body,
                  const clang::Expr *tail, std::vector<ir::Stmt> &scoped);
  void lowerLoopItems(const std::vector<const clang::Stmt *> &items, std::vector<ir::Stmt> &out,
                      const LoopJumps &jumps);
  /// The first `break` or `continue` of this loop's body in `s` (not in a loop or switch within).
  static const clang::Stmt *loopJump(const clang::Stmt *s);
  /// The `break` that leaves this loop's body `s` (in it, not in a loop or switch within), if any.
  static const clang::BreakStmt *loopBreak(const clang::Stmt *s);
  /// The flag a loop with a `break` stops on (declared false in `out`), null without one.
  ir::Var breakFlag(const clang::Stmt *body, const clang::Stmt *loop, std::vector<ir::Stmt> &out);
  /// A loop's condition `c` with its break flag tested first: `!stop && c` (`c` without a flag).
  static ir::Expr stopTest(const ir::Var &stop, ir::Expr c, ir::SourceLoc l);
  /// `!c`, as the opposite comparison where that means the same (integers), else `Not`.
  static ir::Expr negated(const ir::Expr &c);
  static bool refersTo(const clang::Expr *e, const clang::VarDecl *vd);
  void lowerRangeFor(const clang::CXXForRangeStmt *rf, std::vector<ir::Stmt> &out);
  void lowerStagedRange(const clang::CXXForRangeStmt *rf,
                        const clang::ClassTemplateSpecializationDecl *spec,
                        std::vector<ir::Stmt> &out);

  // ---- expression statements: stores and assignments (LoweringStmt.cpp) -------------------------
  ir::Var assignedVar(const clang::Expr *lhs);
  void assign(const ir::Var &v, ir::Expr value, const clang::Expr *at, std::vector<ir::Stmt> &out,
              ir::SourceLoc l);
  void lowerExprStmt(const clang::Expr *e, std::vector<ir::Stmt> &out);

  // ---- expressions (LoweringExpr.cpp) -----------------------------------------------------------
  static std::optional<ir::BinaryOp> compoundOp(clang::OverloadedOperatorKind k);
  static std::optional<ir::BinaryOp> overloadedBinaryOp(clang::OverloadedOperatorKind k);
  static std::optional<ir::BinaryOp> builtinBinaryOp(clang::BinaryOperatorKind k);
  /// Skip the nodes that do not change a value: parentheses, no-op casts, temporaries, copies.
  static const clang::Expr *strip(const clang::Expr *e);
  /// An elementwise binary op on tiles and/or scalars: promotion casts, explicit broadcasts.
  /// `elem`: the element type Clang computed for the result (arithmetic ops), else promotion.
  ir::Expr elementwise(ir::BinaryOp op, std::vector<ir::Expr> xs,
                       std::optional<ir::ScalarType> elem, clang::SourceLocation at,
                       std::vector<const clang::Expr *> srcs);
  ir::Expr lowerExpr(const clang::Expr *e);

  // ---- calls: tile operations (LoweringTileOps.cpp) ---------------------------------------------
  [[noreturn]] void unsupportedCall(const clang::CallExpr *call);
  std::vector<const clang::Expr *> callArgs(const clang::CallExpr *call);
  std::vector<int64_t> intTemplateArgs(const clang::FunctionDecl *fd);
  static unsigned explicitTemplateArgCount(const clang::CallExpr *call);
  int64_t constArg(const clang::Expr *e, const std::string &what);
  ir::Expr needTile(ir::Expr x, const clang::Expr *src, const std::string &op);
  ir::Stmt lowerStore(const clang::CallExpr *call);
  ir::Stmt lowerDeviceAssert(const clang::CallExpr *call);
  void lowerDevicePrint(const clang::CallExpr *call, std::vector<ir::Stmt> &out);
  /// The integer and enum fields of an options struct `e` (tl::load_options, tl::cast_options ...),
  /// by name; an error naming `what` where `e` is not a constant.
  std::vector<std::pair<std::string, int64_t>> optionFields(const clang::Expr *e,
                                                            const std::string &what);
  /// Whether `t` is tl::load_options or tl::store_options (a load's or store's last argument).
  static bool isMemoryOptions(clang::QualType t);
  /// The hints of tl::load (`store` false) or tl::store in their options argument `e`, a constant.
  ir::MemHints memoryHints(const clang::Expr *e, bool store);
  /// tl::cast's options (tl::cast_options, a constant), checked for a cast of `from` to `to`.
  static bool isCastOptions(clang::QualType t);
  ir::CastMode castMode(const clang::Expr *e, ir::ScalarType from, ir::ScalarType to);
  /// tl::atomic_add ... atomic_cas (LoweringTileOps.cpp): an atomic Store, its old values into
  /// `result` (null: not kept).
  ir::Stmt lowerAtomic(const clang::CallExpr *call, ir::Var result);
  /// `call` is tl::atomic_add ... tl::atomic_cas.
  static bool isAtomicCall(const clang::CallExpr *call);
  ir::Expr lowerCall(const clang::CallExpr *call);
  static ir::Expr flatArgBest(ir::ReduceOp op, ir::Expr a, ir::SourceLoc l);
  /// tl::reduce and tl::associative_scan: the user's combine function (the call's argument
  /// `combineArg`), inlined into one expression over two scalars of `elem`, as a new entry of
  /// Kernel::combines; returns its index (LoweringTileOps.cpp).
  int lowerCombine(const clang::CallExpr *call, const clang::FunctionDecl *fd, ir::ScalarType elem,
                   const std::string &op);
  /// tl.hpp's call `use` of a lambda of the user's, its arguments the variables `decls`, inlined
  /// into one expression of `vars` (the kernel's variables for them, one each) and constants;
  /// `fail(why)` reports (at the caller's place) what keeps it from being one.
  ir::Expr lambdaExpression(const clang::CallExpr *use,
                            const std::vector<const clang::VarDecl *> &decls,
                            const std::vector<ir::Var> &vars,
                            const std::function<void(const std::string &)> &fail);
  /// tl::inline_asm_elementwise<R, IS_PURE>(asm, constraints, reference, operands...): a new
  /// entry of Kernel::asms, applied to the operands broadcast together (LoweringTileOps.cpp).
  ir::Expr lowerInlineAsm(const clang::CallExpr *call, const clang::FunctionDecl *fd,
                          const std::vector<const clang::Expr *> &args);
  /// tl::randint, rand, randn (one value) and randint4x, rand4x, randn4x (four): Triton's Philox
  /// streams of `seed` at `offset`s (LoweringTileOps.cpp).
  std::vector<ir::Expr> lowerRandom(const clang::CallExpr *call, const std::string &name);
  static bool isRandom(const std::string &name);
  /// `fd` is tl::randint4x, rand4x or randn4x (a std::tuple of four tiles).
  static bool isRandomFour(const clang::FunctionDecl *fd);
  /// tl::split, whose two tiles a structured binding takes apart (x[:, 0] and x[:, 1]).
  static bool isSplit(const clang::FunctionDecl *fd);
  /// The two halves of `tl::split(x)`; an x that is not a variable is first declared as one named
  /// `name` (both halves read it).
  std::vector<ir::Expr> lowerSplit(const clang::CallExpr *call, const std::string &name,
                                   std::vector<ir::Stmt> &out);

  // ---- tensor descriptors (LoweringDescriptors.cpp) ---------------------------------------------
  /// A descriptor's parts, each an expression computed once where it was made; strides in
  /// elements, the last one 1.
  struct TensorDescriptor {
    ir::Expr base;
    std::vector<ir::Expr> shape, strides;
    std::vector<int64_t> block;
    ir::ScalarType elem = ir::ScalarType::F32;
  };
  static bool isDescriptor(clang::QualType t);
  /// Whether `mc` calls the tensor descriptor method `name` (`load`, `store`).
  static bool isDescriptorMethod(const clang::CXXMemberCallExpr *mc, llvm::StringRef name);
  /// The `rank` values of a descriptor's shape, strides or offsets (`{M, K}`: a std::array).
  std::vector<const clang::Expr *> indexParts(const clang::Expr *e, size_t rank,
                                              const std::string &what);
  /// An integer scalar of a descriptor's shape, strides or offsets, in the type the kernel
  /// computes it in (not widened to the std::int64_t of tl.hpp's signature).
  ir::Expr lowerIndex(const clang::Expr *e, const std::string &what);
  void lowerDescriptorDecl(const clang::VarDecl *vd, const clang::DeclStmt *ds,
                           std::vector<ir::Stmt> &out);
  /// The descriptor a variable of the kernel's (or a parameter of an inlined function) holds, or a
  /// DescriptorUse error at `e`.
  const TensorDescriptor &descriptorOf(const clang::Expr *e);
  /// The pointer tile of the block of `d` at `offsets`, and its mask: the tensor's bounds.
  std::pair<ir::Expr, ir::Expr> descriptorBlock(const TensorDescriptor &d,
                                                const clang::Expr *offsets,
                                                const clang::CallExpr *call);
  ir::Expr lowerDescriptorLoad(const clang::CXXMemberCallExpr *mc);
  ir::Stmt lowerDescriptorStore(const clang::CXXMemberCallExpr *mc);
  std::map<const clang::VarDecl *, TensorDescriptor> descriptors;

  // ---- calls to the user's functions, inlined (LoweringCalls.cpp) ------------------------------
  /// A function of the user's (not tl::, not the standard library's).
  static bool isUserFunction(const clang::FunctionDecl *fd);
  /// The call operator of a lambda that `call` calls (`f(x)` for a lambda `f`), or null.
  static const clang::CXXMethodDecl *lambdaCallOperator(const clang::CallExpr *call);
  /// Whether `t` (or what it refers to) is a lambda's closure type.
  static bool isClosure(clang::QualType t);
  /// Lowers a call to a function of the user's by inlining it: its statements go to `pending`, its
  /// value is the expression it returns (null for a void function).
  /// With `parts`: the function returns several values (`return {a, b};`, `std::pair{a, b}`,
  /// `std::make_tuple(a, b, c)`), converted to `partTypes`, for a structured binding at the call.
  ir::Expr inlineCall(const clang::CallExpr *call, std::vector<ir::Expr> *parts = nullptr,
                      const std::vector<ir::Type> *partTypes = nullptr);
  /// The values an expression that makes a pair, tuple or aggregate is made of (the constructor's
  /// or initializer list's arguments, `std::make_pair`'s, `std::make_tuple`'s), or an error at it.
  std::vector<const clang::Expr *> partsOf(const clang::Expr *e, size_t count, const std::string &what);
  /// `auto [a, b] = f(x);` (or `= std::make_pair(x, y)`): a variable per binding.
  /// A variable holding a lambda: its init-captures become variables; the closure itself is none.
  void lowerClosure(const clang::VarDecl *vd, const clang::DeclStmt *ds, std::vector<ir::Stmt> &out);
  void lowerDecomposition(const clang::DecompositionDecl *dd, const clang::DeclStmt *ds,
                          std::vector<ir::Stmt> &out);
  /// The statements of a function body (or of the branch an `if constexpr` at its end chooses) up
  /// to its final return, lowered into `pending`; the returned expression, null if none.
  const clang::Expr *inlineBody(const clang::Stmt *s, const clang::CallExpr *call,
                                const clang::FunctionDecl *fd);
  /// Whether every path through `s` ends in a return with a value (`if (c) return a; else return
  /// b;`, nested, or through the branch an `if constexpr` chooses).
  bool returnsOnEveryPath(const clang::Stmt *s);
  /// A runtime `if` at the end of a function whose branches each end in a return: an `If` whose
  /// branches assign the returned value (converted to `t`) to `result`.
  ir::Stmt lowerReturningIf(const clang::IfStmt *is, const ir::Var &result, const ir::Type &t,
                            const std::string &name);
  ir::Stmt lowerReturningBranch(const clang::Stmt *s, const ir::Var &result, const ir::Type &t,
                                const std::string &name);
  /// Set by inlineBody when the body ends in such an `if` (the statements before it lowered).
  const clang::IfStmt *returningIf = nullptr;
  /// `pending`, or a CallNeedsStatements error at the call where statements cannot run.
  std::vector<ir::Stmt> &needPending(const clang::CallExpr *call, const clang::FunctionDecl *fd);
  /// Sets where the statements of inlined calls go for the lifetime of the scope: the statement list
  /// of the statement being lowered, or none (with the reason for the error) where an expression
  /// is evaluated several times or not at all.
  class PendingScope {
  public:
    PendingScope(KernelLowering &l, std::vector<ir::Stmt> *out, const char *why = nullptr);
    ~PendingScope();
    PendingScope(const PendingScope &) = delete;
    PendingScope &operator=(const PendingScope &) = delete;

  private:
    KernelLowering &l;
    std::vector<ir::Stmt> *saved;
    const char *savedWhy;
  };

  /// One level of statement or expression nesting, for the scope of a lowerStmt or lowerExpr
  /// call; at kMaxNesting levels already, reports NestingTooDeep at `at` and stops.
  class Nesting {
  public:
    Nesting(FrontEndContext &fe, int &depth, const char *what, const char *hint,
            clang::SourceLocation at);
    ~Nesting() { --depth; }
    Nesting(const Nesting &) = delete;
    Nesting &operator=(const Nesting &) = delete;

  private:
    int &depth;
  };

  FrontEndContext &fe;
  clang::ASTContext &ctx;
  ir::Kernel &k;
  std::map<const clang::VarDecl *, ir::Var> vars;
  std::map<const clang::BindingDecl *, ir::Var> bindings; ///< structured bindings' variables
  /// Per lambda: the copies of variables it captured by copy and the kernel assigns later.
  std::map<const clang::CXXRecordDecl *, std::map<const clang::VarDecl *, ir::Var>> closureCopies;
  /// Kernel::combines made from each lambda, by the element type it combines (lowerCombine: one
  /// combine function however often the lambda is passed).
  std::map<std::pair<const clang::CXXRecordDecl *, ir::ScalarType>, int> combineOf;
  int stmtNesting = 0, exprNesting = 0;
  std::string baseName; ///< the kernel's name as an ASCII identifier, after its classes
  std::vector<ir::Stmt> *pending = nullptr; ///< where inlined calls' statements go (PendingScope)
  const char *noPendingWhy = nullptr;       ///< where they cannot go: why, for the diagnostic
  std::vector<const clang::FunctionDecl *> inlineStack; ///< the functions being inlined (canonical)
};

} // namespace tilec::translator
