#pragma once
/// \file Internal to layout-assignment (see LayoutAssignment.cpp for the algorithm): the per-kernel
/// state and the Assigner whose steps the files of this folder define.
///
/// - Coalesce.cpp: layouts from axis info (anchors of loads/stores, default layouts, vec/aligned).
/// - Propagate.cpp: strong variables from their definitions, demands of users, final layouts.
/// - Rewrite.cpp: the rewritten IR (layouts on every tile, copies, ConvertLayout).
/// - LayoutAssignment.cpp: the driver, the register check and the pass.

#include "passes/Pass.h"
#include "passes/analysis/AxisInfo.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tilec::passes::layout {

[[noreturn]] void internalError(const std::string &what);

struct Demand {
  ir::LayoutRef layout;
  int pos;
  std::string tag;
  int seq; ///< when `pos` was last lowered: ties go to the demand recorded first at that position
};

struct VarState {
  bool tile = false;
  bool flexible = false; ///< cheap, assigned once: re-materialized per demanded layout
  int assignments = 0;
  ir::LayoutRef layout;        ///< the variable's layout once decided
  std::string tag;             ///< how this variable's layout is called in copy names
  std::vector<Demand> demands; ///< layouts its users want (flexible/undecided vars)
  std::vector<std::pair<ir::LayoutRef, ir::Var>> copies; ///< flexible: re-materialized copies
};

/// Assigns layouts in one kernel: `run` analyses, decides, rewrites `k.body` and checks registers.
class Assigner {
public:
  Assigner(ir::Kernel &k, PassContext &ctx)
      : k(k), ctx(ctx), axis(k), warpSize(ctx.target.warpSize()),
        numWarps(k.settings.numWarps), threads(int64_t(numWarps) * warpSize) {}

  void run(); // LayoutAssignment.cpp

private:
  // ---- Coalesce.cpp: layouts from axis info --------------------------------------------------
  ir::LayoutRef defaultLayout(const ir::Type &t);
  ir::LayoutRef anchorFor(const ir::Expr &ptr);
  ir::LayoutRef atomicAnchor(const ir::Store *st);
  void setVec(int &vec, bool &aligned, bool &maskAtLast, bool &maskAllOrNone, const ir::Expr &ptr,
              const ir::Expr &mask, const ir::LayoutRef &l);

  // ---- Propagate.cpp: analysis and decisions ------------------------------------------------
  void number(const ir::Stmt &s, int &pos);
  VarState &state(const ir::Var &v);
  bool cheap(const ir::Expr &e);
  void classify(const ir::Stmt &body);
  ir::LayoutRef natural(const ir::Expr &e);
  ir::LayoutRef reduceParent(const ir::Reduce *r, const ir::LayoutRef &want);
  ir::LayoutRef scanLayout(const ir::Scan *s, const ir::LayoutRef &want);
  ir::LayoutRef gatherSourceLayout(const ir::Gather *g);
  ir::LayoutRef reshapeSourceLayout(const ir::Reshape *r);
  ir::LayoutRef histogramInputLayout(const ir::Histogram *h);
  ir::LayoutRef dotLayout(const ir::Dot *d);
  ir::LayoutRef mmaLayout(const ir::Dot *d);
  static bool wgmmaFits(const ir::Dot *d, int numWarps);
  ir::LayoutRef dotOperandLayout(const ir::Expr &x);
  /// The layout a `trans` whose result is wanted in `want` is built in: `want` when it is blocked
  /// (the operand then takes Layout::permuted of it), else the default blocked layout of `t`.
  ir::LayoutRef transWant(const ir::LayoutRef &want, const ir::Type &t);
  ir::LayoutRef rootLayout(const ir::Expr &init, const ir::LayoutRef &cand);
  void decideStrong(const ir::Stmt &s, bool &changed);
  size_t signature();
  void addDemand(VarState &st, const ir::LayoutRef &l, int pos, const std::string &tag);
  std::vector<Demand> sortedDemands(const VarState &st);
  void demand(const ir::Expr &e, const ir::LayoutRef &want, int pos, const std::string &tag);
  void demandScalar(const ir::Expr &e, int pos);
  void walkBack(const ir::Stmt &s);
  void finalize();

  // ---- Rewrite.cpp: rewriting ----------------------------------------------------------------
  ir::Expr emitLoad(const ir::Load *n, ir::LayoutRef &resultLayout);
  ir::Expr emitReduce(const ir::Reduce *n, const ir::LayoutRef &want, ir::LayoutRef &resultLayout);
  ir::Expr emitDot(const ir::Dot *n, ir::LayoutRef &resultLayout);
  ir::Expr emit(const ir::Expr &e, const ir::LayoutRef &want);
  /// The layout every tile variable of the elementwise expression `e` is held in, when they share
  /// one and none has a copy in `want`, and the bytes an element of them all takes; null when `e`
  /// holds anything else than variables, constants and elementwise operators.
  ir::LayoutRef commonVarLayout(const ir::Expr &e, const ir::LayoutRef &want, int &bytes);
  ir::Expr emitScalar(const ir::Expr &e);
  ir::Expr emitRoot(const ir::Var &v, const ir::Expr &init, std::vector<ir::Stmt> &pre);
  void rewriteInto(const ir::Stmt &s, std::vector<ir::Stmt> &out);
  ir::Stmt rewrite(const ir::Stmt &s);

  // ---- LayoutAssignment.cpp -------------------------------------------------------------------
  void checkRegisters();

  ir::Kernel &k;
  PassContext &ctx;
  AxisAnalysis axis;
  const int warpSize;
  const int numWarps;
  const int64_t threads;
  std::map<const ir::StmtNode *, int> posOf;
  int nextSeq = 0;
  std::map<const ir::VarNode *, VarState> vars;
  std::vector<ir::Var> order; // insertion order of `vars`, for deterministic output
  std::map<const ir::ExprNode *, ir::LayoutRef> anchors;
  std::vector<ir::Expr> anchorKeep;
};

} // namespace tilec::passes::layout
