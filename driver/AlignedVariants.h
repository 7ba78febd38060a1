#pragma once
/// \file Aligned variants chosen at launch: Triton's divisibility-16 specialization, decided at run
/// time by the host launcher instead of at JIT time.
///
/// For each kernel instantiation, tilec compiles a second copy that assumes some parameters divisible
/// by 16 (pointers 16-byte aligned, integers multiples of 16; ir::Kernel::divisibleBy16). Axis
/// analysis then proves more vector accesses aligned (no run-time address test, no element-wise
/// fallback) and more masks alike over whole vectors (`offs < n` with n % 16 == 0). When the copy's
/// code differs from the general kernel's, it becomes the kernel's `alignedVariant`: the emitter prints
/// it beside the general one and the launcher tests the arguments and launches one or the other.
/// The assumptions kept are the fewest that give the same code: each parameter is dropped in turn
/// and kept out when the code does not change, so the launcher tests only what matters.

#include "emitters/Emitter.h"
#include "ir/IR.h"
#include "ir/Target.h"

namespace tilec {

/// Sets `compiled.kernels[i].alignedVariant` where an aligned variant changes the code. `pristine` is
/// the module as translated (before the pipeline; ir::clone keeps variable ids), `compiled` the same
/// after the pipeline. A variant whose pipeline reports an error is left out.
void addAlignedVariants(const ir::Module &pristine, ir::Module &compiled, const ir::Target &target,
                        const emitters::EmitOptions &opts);

} // namespace tilec
