#pragma once
/// \file Post-pipeline Tile IR built by hand for the emitter tests (docs/internals.md, "Invariants
/// after the whole pipeline"): every tile has its layout, reductions and layout conversions are
/// lowered, shared buffers are allocated. `W` is the target's warp size (32 CUDA, 64 HIP).

#include "ir/IR.h"

namespace tilec::emittertests {

ir::Module vectorAdd(int W);      // f32, vec 4, grid = cdiv(n, BLOCK)
ir::Module sumReduce(int W);      // 1-D sum to a scalar: thread, warp, cross-warp partials
ir::Module transpose(int W);      // 2-D, conversion through shared memory, vec 4 on both sides
ir::Module transposeBigShared(int W); // transpose of 128 x 128 floats: above 48 KB of shared
                                      // memory (dynamic), with an aligned variant
ir::Module halfElementwise(int W); // f16 loads/stores (vec 8), casts to f32/bf16/i32, sigmoid
ir::Module loopCarried(int W);    // scalar loop with a loop-carried tile; user names i, j, threadIdx
ir::Module argmaxRows(int W);     // 2-D argmax along axis 1 (pairs, slices, partial combine)
ir::Module rowPointers(int W);    // pointer tile variable, const pointer locals, grid-only param,
                                  // unused meta-parameter, single-call vector load/store
ir::Module boolNotIntToBf16(int W); // `~` on a bool tile (logical not); int32/int64 -> bf16 casts
ir::Module configParam(int W);    // vectorAdd with `n` named `config` (the CUDA launcher's local)
ir::Module noParams(int W);       // a kernel without parameters (and an empty body)
ir::Module batchedColumnSums(int W); // rank 3: masked vector loads, a sum along the middle dim
                                     // (thread, warp, cross-warp partials of a 2-D result), its
                                     // expand_dims back to rank 3, and a permuted store

} // namespace tilec::emittertests
