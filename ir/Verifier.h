#pragma once
/// \file The Tile IR verifier: structural invariants any module must satisfy between passes, and the
/// stricter contract of docs/internals.md ("Invariants after the whole pipeline") that emitters rely
/// on. Failures are compiler bugs: the pass manager turns them into internal errors.

#include "ir/IR.h"

#include <string>
#include <vector>

namespace tilec::ir {

/// Checks every kernel of `m`: types and shapes consistent at every node (elementwise operand
/// shapes, Bool masks and conditions, pointers where needed, scalar integer loop bounds), variables
/// declared before use in scope (params, Decl, For var; a var is declared once), shared-buffer
/// indices in range, and — once layouts exist (any tile or var of the kernel has one) — that every
/// tile has a well-formed layout of its rank (prod(tpw) == warp size, prod(wpb) == num_warps) and
/// the layout rules of invariant 2. Returns false and describes the first problem in `*why`.
bool verify(const Module &m, std::string *why = nullptr);

/// `verify` plus invariants 1-8: layouts everywhere, tiles of rank 1-3, no Reduce/ConvertLayout,
/// Load/ThreadReduce/WarpReduce/SharedRead only as the whole init/value of a Decl/Assign,
/// `vec` dividing spt[order[0]], buffers allocated (offsets set, no overlap between buffers whose
/// lifetimes overlap, within Kernel::sharedBytes) and no shared-memory hazard without a barrier.
bool verifyLowered(const Module &m, std::string *why = nullptr);

/// Lifetime of a shared buffer over the linearized (pre-order) statement numbering of a kernel
/// body: from its first to its last SharedWrite/SharedRead; a use inside a loop extends the
/// lifetime over the whole innermost loop containing it. `first == -1`: never used.
struct BufferLifetime {
  int first = -1, last = -1;
  bool used() const { return first >= 0; }
  bool overlaps(const BufferLifetime &o) const {
    return used() && o.used() && first <= o.last && o.first <= last;
  }
};
/// One entry per Kernel::buffers.
std::vector<BufferLifetime> sharedBufferLifetimes(const Kernel &k);

} // namespace tilec::ir
