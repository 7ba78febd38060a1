// Atomics: every tl::atomic_* on every type it takes, at one address per element (so that the old
// values are the memory's before the call, whatever order the threads run in), with masks, sems
// and scopes; and a contended one: a column sum of x [rows, cols] over programs of row blocks, each
// program adding its block's column sums into sums[cols] (Triton's two-stage dW/dB reduction's
// second stage), plus a count of the rows each column saw; and a histogram, many updates a bin.
// Scalar atomics that keep their old value (tickets): one thread updates, every thread gets it.
#include <tilec/tl.hpp>

// mem[k * n + i] and old[k * n + i]: operation k's memory after it, and the old values it returned.
template <class T, int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void atomic_each(T *mem, T *old, const T *v, const T *cmp, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto x = tl::load(v + offs, mask);
  auto r0 = tl::atomic_add(mem + offs, x, mask);
  tl::store(old + offs, r0, mask);
  auto r1 = tl::atomic_max(mem + n + offs, x, mask, tl::relaxed);
  tl::store(old + n + offs, r1, mask);
  auto r2 = tl::atomic_min(mem + 2 * n + offs, x, mask, tl::release, tl::cta);
  tl::store(old + 2 * n + offs, r2, mask);
  auto r3 = tl::atomic_xchg(mem + 3 * n + offs, x, mask, tl::acquire, tl::sys);
  tl::store(old + 3 * n + offs, r3, mask);
  // Every other element's comparand is the memory's value: those are swapped. atomic_cas has no
  // mask (as Triton's): the lanes past the end compare their 0 with the last element (0 is never
  // there, tests/gpu/atomics.cu), instead of touching memory past the end.
  auto last = tl::minimum(offs, n - 1);
  auto r4 = tl::atomic_cas(mem + 4 * n + last, tl::load(cmp + offs, mask), tl::load(v + last));
  tl::store(old + 4 * n + offs, r4, mask);
  if constexpr (tl::is_integer_v<T>) {
    auto r5 = tl::atomic_and(mem + 5 * n + offs, x, mask);
    tl::store(old + 5 * n + offs, r5, mask);
    auto r6 = tl::atomic_or(mem + 6 * n + offs, x, mask);
    tl::store(old + 6 * n + offs, r6, mask);
    tl::atomic_xor(mem + 7 * n + offs, x, mask, tl::relaxed); // old values not kept
  }
}

template <int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(rows, BM)))
void column_sums(const float *x, float *sums, int *counts, int rows, int cols, int stride) {
  auto r = tl::program_id(0) * BM + tl::arange<0, BM>();
  for (int c0 = 0; c0 < cols; c0 += BN) {
    auto c = c0 + tl::arange<0, BN>();
    auto mask = tl::expand_dims<1>(r < rows) & tl::expand_dims<0>(c < cols);
    auto tile = tl::load(x + tl::expand_dims<1>(r) * stride + tl::expand_dims<0>(c), mask, 0.0f);
    tl::atomic_add(sums + c, tl::sum<0>(tile), c < cols, tl::relaxed);
    tl::atomic_add(counts + c, tl::sum<0>(tl::cast<int>(mask)), c < cols, tl::relaxed);
  }
}

// Many threads of a block update one bin: the emulator's checker sees a lost update when the
// atomic is planted away (tests/emu/planted/lost_update.test).
template <int BLOCK, tl::sem ORDER = tl::relaxed>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void histogram(const int *x, int *hist, int n, int bins) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto bin = tl::load(x + offs, mask) % bins; // x >= 0
  tl::atomic_add(hist + bin, 1, mask, ORDER);
}

// fp16 and bf16 adds: at one address per element (neighbouring lanes update the two halves of one
// 32-bit word), keeping the old values; and contended, every element added into
// bins[offs % nbins].
template <class T, int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void atomic_add16(T *mem, T *old, T *bins, const T *v, int n, int nbins) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto x = tl::load(v + offs, mask);
  auto r = tl::atomic_add(mem + offs, x, mask);
  tl::store(old + offs, r, mask);
  tl::atomic_add(bins + offs % nbins, x, mask, tl::relaxed);
}

// Row blocks added into acc[r % 4, :] (contended by every program of a column block): the
// pointers are contiguous along a row, so the adds go a vector at a time (one vector atom on
// sm_90), masked at the ragged edges; rows of x `stride` apart.
template <class T, int BR, int BC>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(rows, BR), cdiv(cols, BC)))
void add_rows(const T *x, T *acc, int rows, int cols, int stride) {
  auto r = tl::program_id(0) * BR + tl::arange<0, BR>();
  auto c = tl::program_id(1) * BC + tl::arange<0, BC>();
  auto mask = tl::expand_dims<1>(r < rows) & tl::expand_dims<0>(c < cols);
  auto tile = tl::load(x + tl::expand_dims<1>(r) * stride + tl::expand_dims<0>(c), mask);
  tl::atomic_add(acc + tl::expand_dims<1>(r % 4) * cols + tl::expand_dims<0>(c), tile, mask);
}

// Each program takes a ticket (the number of programs that came before it), adds its id into
// state[1] if it is odd (a masked scalar atomic: 0 where masked off), records both (thread 0),
// exchanges its block of slots for their indices plus that old value (every thread's copy of it)
// keeping the slots' old values plus one (an atomic inside an expression), and counts itself in state[3] with a plain load and store under a spin lock
// (state[2]; tutorial 05's). state: the next ticket, the odd ids' sum, the lock, the count.
template <int BLOCK>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))
void tickets(int *state, int *ticket_of, int *slots, int *slot_old, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  int ticket = tl::atomic_add(state, 1);
  int odd = tl::atomic_add(state + 1, pid, pid % 2 == 1, tl::relaxed);
  tl::store(ticket_of + 2 * pid, ticket);
  tl::store(ticket_of + 2 * pid + 1, odd);
  tl::store(slot_old + offs, tl::atomic_xchg(slots + offs, offs + odd, mask) + 1, mask);
  while (tl::atomic_cas(state + 2, 0, 1) != 0) {
  }
  int count = tl::load(state + 3);
  tl::store(state + 3, count + 1);
  tl::debug_barrier();
  tl::atomic_xchg(state + 2, 0);
}

template void atomic_each<int32_t, 128>(int32_t *, int32_t *, const int32_t *, const int32_t *,
                                        int);
template void atomic_each<uint32_t, 128>(uint32_t *, uint32_t *, const uint32_t *, const uint32_t *,
                                         int);
template void atomic_each<int64_t, 128>(int64_t *, int64_t *, const int64_t *, const int64_t *,
                                        int);
template void atomic_each<uint64_t, 128>(uint64_t *, uint64_t *, const uint64_t *, const uint64_t *,
                                         int);
template void atomic_each<float, 128>(float *, float *, const float *, const float *, int);
template void atomic_each<double, 128>(double *, double *, const double *, const double *, int);
// 32 elements for 128 threads: threads hold copies of each element, the owners update and pass the
// old values on through shared memory.
template void atomic_each<int32_t, 32>(int32_t *, int32_t *, const int32_t *, const int32_t *, int);
template void column_sums<32, 64>(const float *, float *, int *, int, int, int);
template void histogram<256>(const int *, int *, int, int);
template void histogram<256, tl::acq_rel>(const int *, int *, int, int); // Triton's default order
template void atomic_add16<tl::half, 128>(tl::half *, tl::half *, tl::half *, const tl::half *, int,
                                          int);
template void atomic_add16<tl::bfloat16, 128>(tl::bfloat16 *, tl::bfloat16 *, tl::bfloat16 *,
                                              const tl::bfloat16 *, int, int);
template void add_rows<float, 32, 128>(const float *, float *, int, int, int);
template void add_rows<tl::half, 32, 256>(const tl::half *, tl::half *, int, int, int);
template void add_rows<tl::bfloat16, 16, 256>(const tl::bfloat16 *, tl::bfloat16 *, int, int, int);
template void tickets<128>(int *, int *, int *, int *, int);
