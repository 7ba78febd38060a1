#pragma once
/// \file Axis analysis: per expression and per dimension, facts about the integer or pointer values
/// a tile holds (Triton's AxisInfo), used to choose coalesced layouts and vector widths.
///
/// - contiguity[d]: values come in runs of this many consecutive integers (elements for pointers)
///   along dim d.
/// - divisibility[d]: the largest power of two dividing the first value of every such run (for
///   pointers: the byte address). With contiguity 1 every value is a run start.
/// - constancy[d]: values come in runs of this many equal values along dim d.
/// - truePrefix[d] (bool tiles): values come in runs of this many along dim d within which a false
///   is never followed by a true - so a run is all true exactly when its last value is. Masks
///   `idx < bound` with `idx` contiguous, its runs starting at multiples of their length (so no run
///   wraps around), and `bound` constant have it; `&`/`|` keep it. Unlike the other facts it does
///   not ignore wrap-around: it decides which elements a vector access may touch. Empty means the
///   same as constancy (prefix() reads it either way).
/// Scalars have one entry per vector (contiguity and constancy 1). All facts are powers of two or
/// dimension sizes, and conservative (1 means "nothing known").
///
/// Variables: a variable assigned once has the facts of its initializer; one assigned several
/// times gets the meet (gcd) of all its assignments, where a reference to itself (loop-carried) is
/// taken as "nothing known" - except an increment by the same amount in every element (`p += s`,
/// the pointer tiles of a K loop): it keeps the contiguity and constancy of the other
/// assignments, and divisibility meets the increment's (bytes, for pointers). Loop indices:
/// divisibility gcd(begin, step). Kernel parameters: pointers are only known to be aligned to their
/// element size (tilec does not assume 16-byte alignment); integers are unknown - except those in
/// the kernel's `divisibleBy16` (an aligned variant's assumptions, checked by its launcher),
/// divisible by 16, and those in its `equalToOne`, the constant 1. `Hint` nodes override
/// (max_contiguous(x, n): runs of the largest power of two dividing n, the longest aligned runs
/// that runs of n are sure to hold).

#include "ir/IR.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace tilec::passes {

struct AxisInfo {
  std::vector<int64_t> contiguity, divisibility, constancy; ///< one per dim (one for scalars)
  std::vector<int64_t> truePrefix; ///< per dim, or empty: see the file comment
  std::optional<int64_t> constantValue; ///< every element equals this integer
  /// Every element is >= 0 (integers; wrap-around ignored, as for the other facts). Division and
  /// remainder truncate toward zero, so their run facts hold only for non-negative dividends.
  bool nonNegative = false;

  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;
  int rank() const { return static_cast<int>(contiguity.size()); }
  /// Run length along d over which the values are true-then-false (at least the constancy).
  int64_t prefix(int d) const {
    return truePrefix.empty() ? constancy[d] : std::max(truePrefix[d], constancy[d]);
  }
  /// Nothing known, for a value of `rank` dims (0 for scalars).
  static AxisInfo unknown(int rank);
  /// Largest power of two dividing `v` (kMaxDivisibility for 0), capped.
  static int64_t divisibilityOf(int64_t v);
  bool operator==(const AxisInfo &o) const;
};

/// Computes and caches AxisInfo for the expressions of one kernel.
class AxisAnalysis {
public:
  explicit AxisAnalysis(const ir::Kernel &k);
  /// Facts for `e` (an expression of the analysed kernel, or one built from its variables).
  const AxisInfo &get(const ir::Expr &e);
  /// Facts for the current value of a variable (meet over all its assignments).
  AxisInfo var(const ir::Var &v);

private:
  AxisInfo compute(const ir::Expr &e);
  struct VarDefs {
    std::vector<ir::Expr> values; // Decl init and every Assign value, in program order
    ir::Expr loopBegin, loopStep; // loop indices
    bool inLoop = false;
  };
  void collect(const ir::Stmt &s, int loopDepth);
  std::set<int> divisibleBy16; // parameter ids (ir::Kernel::divisibleBy16)
  std::set<int> equalToOne;    // parameter ids (ir::Kernel::equalToOne)
  std::map<const ir::VarNode *, VarDefs> defs;
  std::map<const ir::VarNode *, AxisInfo> varCache;
  std::set<const ir::VarNode *> inProgress;
  std::map<const ir::ExprNode *, AxisInfo> cache;
  std::vector<ir::Expr> keepAlive; // keeps cached nodes alive so pointers stay unique
};

} // namespace tilec::passes
