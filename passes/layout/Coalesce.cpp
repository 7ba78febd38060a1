// layout-assignment, layouts from axis info (Triton's coalesce): the anchor layout of each tile
// Load/Store (step 1), the default blocked layout of tiles nobody constrains (step 4), and the
// vector width and alignment of an access in its layout (step 5). See LayoutAssignment.cpp.
#include "passes/layout/Assigner.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace tilec::passes::layout {

using namespace ir;

namespace {

constexpr int kVectorBytes = 16;

int64_t pow2Floor(int64_t v) {
  int64_t p = 1;
  while (p * 2 <= v)
    p *= 2;
  return p;
}

int elemBytesOf(const Type &t) { return byteSize(t.elem); }

/// Triton's BlockedEncodingAttr::get: lanes and warps along `order`, fastest dim first; whatever
/// is left goes to the slowest dim.
LayoutRef blockedFill(const std::vector<int64_t> &shape, std::vector<int> spt,
                      const std::vector<int> &order, int warpSize, int numWarps) {
  int rank = static_cast<int>(shape.size());
  std::vector<int> tpw(rank, 1), wpb(rank, 1);
  int64_t remainingLanes = warpSize, remainingThreads = int64_t(numWarps) * warpSize,
          remainingWarps = numWarps, prevLanes = 1, prevWarps = 1;
  for (int d = 0; d < rank - 1; ++d) {
    int i = order[d];
    int64_t threadsPerCTA = std::clamp<int64_t>(remainingThreads, 1, shape[i] / spt[i]);
    tpw[i] = static_cast<int>(std::clamp<int64_t>(threadsPerCTA, 1, remainingLanes));
    wpb[i] = static_cast<int>(std::clamp<int64_t>(threadsPerCTA / tpw[i], 1, remainingWarps));
    remainingWarps /= wpb[i];
    remainingLanes /= tpw[i];
    remainingThreads /= threadsPerCTA;
    prevLanes *= tpw[i];
    prevWarps *= wpb[i];
  }
  tpw[order[rank - 1]] = static_cast<int>(warpSize / prevLanes);
  wpb[order[rank - 1]] = static_cast<int>(numWarps / prevWarps);
  return Layout::blocked(std::move(spt), std::move(tpw), std::move(wpb), order);
}

} // namespace

LayoutRef Assigner::defaultLayout(const Type &t) {
  int bytes = t.pointer ? 8 : elemBytesOf(t);
  int64_t v = std::min<int64_t>(kVectorBytes / bytes, std::max<int64_t>(1, t.numElements() / threads));
  int rank = t.rank();
  std::vector<int> order, spt(rank, 1);
  for (int d = rank - 1; d >= 0; --d)
    order.push_back(d);
  spt[order[0]] = static_cast<int>(std::min<int64_t>(pow2Floor(v), t.shape[order[0]]));
  return blockedFill(t.shape, spt, order, warpSize, numWarps);
}

/// The coalesced layout for a tile access through pointer tile `ptr` (Triton's coalesce).
LayoutRef Assigner::anchorFor(const Expr &ptr) {
  auto it = anchors.find(ptr.get());
  if (it != anchors.end())
    return it->second;
  const AxisInfo &ai = axis.get(ptr);
  const auto &shape = ptr->type.shape;
  int rank = ptr->type.rank();
  std::vector<int> order;
  for (int d = rank - 1; d >= 0; --d)
    order.push_back(d);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return ai.contiguity[a] > ai.contiguity[b]; });
  int64_t contig = std::min<int64_t>(ai.contiguity[order[0]], shape[order[0]]);
  int64_t perThread = std::max<int64_t>(1, ptr->type.numElements() / threads);
  int64_t v = std::min({contig, int64_t(kVectorBytes / elemBytesOf(ptr->type)), perThread});
  std::vector<int> spt(rank, 1);
  spt[order[0]] = static_cast<int>(pow2Floor(std::max<int64_t>(1, v)));
  LayoutRef l = blockedFill(shape, spt, order, warpSize, numWarps);
  anchorKeep.push_back(ptr);
  anchors[ptr.get()] = l;
  return l;
}

/// The layout of an atomic store through `st->ptr`: the pointers' coalesced one, but one element a
/// thread where that replicates the tile and the atomic's old values are kept (a replica would not
/// see the old value its owner got). A tile of fewer elements than threads is replicated anyway:
/// the emitter then reports it.
LayoutRef Assigner::atomicAnchor(const Store *st) {
  LayoutRef a = anchorFor(st->ptr);
  if (!st->result || a->kind != Layout::Kind::Blocked)
    return a;
  const auto &shape = st->ptr->type.shape;
  bool replicated = false;
  for (size_t d = 0; d < shape.size(); ++d)
    replicated |=
        int64_t(a->sizePerThread[d]) * a->threadsPerWarp[d] * a->warpsPerBlock[d] > shape[d];
  if (!replicated)
    return a;
  LayoutRef one =
      blockedFill(shape, std::vector<int>(shape.size(), 1), a->order, warpSize, numWarps);
  anchors[st->ptr.get()] = one;
  return one;
}

/// `vec`, `aligned`, `maskAtLast` and `maskAllOrNone` of a tile access through `ptr` under `mask` (may be null) in
/// layout `l` (step 5). A vector holds `vec` consecutive elements starting at a multiple of `vec`.
void Assigner::setVec(int &vec, bool &aligned, bool &maskAtLast, bool &maskAllOrNone, const Expr &ptr,
                      const Expr &mask, const LayoutRef &l) {
  const AxisInfo &ai = axis.get(ptr);
  int o0 = l->order[0];
  int64_t spt = l->sizePerThread[o0];
  int64_t v = pow2Floor(std::max<int64_t>(1, std::min(spt, ai.contiguity[o0])));
  while (spt % v)
    v /= 2;
  vec = static_cast<int>(v);
  aligned = ai.divisibility[o0] % (v * elemBytesOf(ptr->type)) == 0;
  const bool tileMask = mask && mask->type.isTile() && v > 1;
  maskAtLast = tileMask && axis.get(mask).prefix(o0) % v == 0;
  maskAllOrNone = tileMask && axis.get(mask).constancy[o0] % v == 0;
}

} // namespace tilec::passes::layout
