// allocate-shared: byte offsets for the kernel's shared-memory buffers.
//
// Runs after: lower-reductions and lower-layout-conversions (which create the buffers).
// Guarantees (docs/internals.md invariant 8): every `Kernel::buffers[i].offsetBytes` is set and a
// multiple of 16 and of the buffer's alignBytes (for wgmma's operands their swizzle atom, up to
// 1024 bytes: wgmma takes the swizzle from the address, and the block's shared memory starts
// 1024-aligned); buffers whose lifetimes overlap never share bytes; `Kernel::sharedBytes` is the
// end of the highest buffer, rounded up to 16. Above the most shared memory a block may have on the
// target (sharedLimit below) it reports SharedMemoryExceeded at the kernel.
//
// Lifetimes (ir/Verifier.h sharedBufferLifetimes, shared with the verifier): positions in the
// pre-order statement numbering, from a buffer's first SharedWrite/SharedRead to its last; a use
// inside a loop covers the whole innermost loop around it. Placement is first-fit in order of
// lifetime start (then buffer index): the lowest 16-byte aligned offset that overlaps no already
// placed buffer with an overlapping lifetime (aligned to alignBytes where a buffer asks for more).
// Unused buffers go at offset 0.
//
//   before: shared 0 a_smem: f32[4] row_stride=4 bytes=16      (used by statements 1..4)
//           shared 1 b_smem: f32[4] row_stride=4 bytes=16      (used by statements 6..9)
//   after:  shared 0 a_smem: f32[4] row_stride=4 bytes=16 offset=0
//           shared 1 b_smem: f32[4] row_stride=4 bytes=16 offset=0
//           shared_bytes = 16
#include "ir/Verifier.h"
#include "passes/Passes.h"

#include <algorithm>
#include <numeric>

namespace tilec::passes {

namespace {

using namespace ir;

constexpr int64_t kAlign = 16;

int64_t alignUp(int64_t v, int64_t align = kAlign) { return (v + align - 1) / align * align; }

/// The most shared memory one block may have. CUDA: above 48 KB a kernel's shared memory is
/// dynamic, which its launcher opts in to (the emitter, KernelEmitter.cpp), up to the
/// architecture's limit (cudaDevAttrMaxSharedMemoryPerBlockOptin); an architecture tilec cannot
/// read keeps the 48 KB every one allows. HIP: the 64 KB of LDS a workgroup has on gfx90a.
int64_t sharedLimit(const Target &t) {
  constexpr int64_t KB = 1024;
  if (t.kind == TargetKind::Hip)
    return 64 * KB;
  const int sm = t.smVersion(); // 0 for an architecture not spelled sm_NN
  if (sm >= 120) // consumer Blackwell
    return 99 * KB;
  if (sm >= 90) // Hopper, Blackwell
    return 227 * KB;
  if (sm == 86 || sm == 89)
    return 99 * KB;
  if (sm >= 80)
    return 163 * KB;
  if (sm == 75)
    return 64 * KB;
  if (sm >= 70)
    return 96 * KB;
  return 48 * KB;
}

void allocate(Kernel &k, PassContext &ctx) {
  std::vector<BufferLifetime> lt = sharedBufferLifetimes(k);
  std::vector<size_t> idx(k.buffers.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](size_t a, size_t b) { return lt[a].first < lt[b].first; });
  std::vector<size_t> placed;
  int64_t total = 0;
  for (size_t i : idx) {
    SharedBuffer &b = k.buffers[i];
    int64_t off = 0;
    if (lt[i].used()) {
      // Busy byte ranges of live-together buffers, by start; take the first gap that fits.
      std::vector<std::pair<int64_t, int64_t>> busy;
      for (size_t j : placed)
        if (lt[j].overlaps(lt[i]))
          busy.push_back({k.buffers[j].offsetBytes,
                          k.buffers[j].offsetBytes + k.buffers[j].sizeBytes});
      std::sort(busy.begin(), busy.end());
      for (auto &[lo, hi] : busy) {
        if (off + b.sizeBytes <= lo)
          break;
        off = std::max(off, alignUp(hi, std::max(kAlign, b.alignBytes)));
      }
    }
    b.offsetBytes = off;
    placed.push_back(i);
    total = std::max(total, off + b.sizeBytes);
  }
  k.sharedBytes = alignUp(total);
  int64_t limit = sharedLimit(ctx.target);
  if (k.sharedBytes > limit)
    ctx.diags.report(DiagId::SharedMemoryExceeded, k.loc,
                     {std::to_string(k.sharedBytes), std::to_string(limit) + " on " + ctx.target.arch});
}

class AllocateSharedPass : public Pass {
public:
  const char *name() const override { return "allocate-shared"; }
  void run(Module &m, PassContext &ctx) override {
    for (auto &k : m.kernels)
      allocate(k, ctx);
  }
};

} // namespace

std::unique_ptr<Pass> createAllocateSharedPass() { return std::make_unique<AllocateSharedPass>(); }

} // namespace tilec::passes
