#pragma once
/// \file Which pointer parameters a pointer value may come from. Pointers derived from different
/// pointer parameters do not alias (docs/language.md, "Program order"), so passes that move or order
/// memory accesses (insert-barriers, prefetch-loads) compare accesses by these sets.

#include "ir/IR.h"
#include "ir/IRVisitor.h"

#include <map>
#include <set>

namespace tilec::passes {

class PointerOrigins {
public:
  /// Follows every pointer local (and pointer loop index) of `k` to the parameters its values come
  /// from, to a fixed point (a local may be assigned from another one declared later in a loop).
  explicit PointerOrigins(const ir::Kernel &k);
  /// The ids of the pointer parameters `e` may be derived from; -1 among them when some pointer it
  /// reads has no known origin (it may alias every parameter).
  std::set<int> paramsOf(const ir::Expr &e) const;

private:
  std::map<const ir::VarNode *, std::set<int>> localParams;
};

using ir::forEachStmt;

} // namespace tilec::passes
