// Warp specialization (sm_90, docs/plan-hopper.md step 4): a TMA ring in the kernel's own block
// gets a producer warpgroup beside the kernel's NUM_THREADS consumers, and the kernel becomes
// persistent. The producer's one thread loops over the programs and the K steps, waiting until the
// consumers have freed a stage (its empty mbarrier) before copying into it; the consumers wait for
// each stage's copies, free the stage the retired product read, and synchronize among themselves
// with a named barrier. The launcher runs one block per SM at most, passing the grid's programs.
// By default where two consumer warpgroups hold 128 or more accumulator elements a thread (here
// 128x256 on 8 warps) and the ring has 4 stages or more; `warp_specialize = true|false` decides
// otherwise.
// RUN: %tilec %s -o - | %FileCheck %s
// RUN: %tilec --arch=sm_80 %s -o - | %FileCheck %s --check-prefix=SM80
#include <tilec/tl.hpp>

template <int BM, int BN, int BK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, num_stages = 4, grid = (cdiv(M, BM) * cdiv(N, BN)))
void mm(tl::half *c, const tl::half *a, const tl::half *b, int M, int N, int K, int lda, int ldb,
        int ldc) {
  int pid = tl::program_id(0);
  int pid_m = pid / tl::cdiv(N, BN);
  int pid_n = pid % tl::cdiv(N, BN);
  auto rm = pid_m * BM + tl::arange<0, BM>();
  auto rn = pid_n * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto pa = a + tl::expand_dims<1>(rm) * lda + tl::expand_dims<0>(rk);
  auto pb = b + tl::expand_dims<1>(rk) * ldb + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto av = tl::load(pa, (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rk) < K - k * BK));
    auto bv = tl::load(pb, (tl::expand_dims<1>(rk) < K - k * BK) & (tl::expand_dims<0>(rn) < N));
    acc = tl::dot(av, bv, acc);
    pa += BK;
    pb += BK * ldb;
  }
  tl::store(c + tl::expand_dims<1>(rm) * ldc + tl::expand_dims<0>(rn), tl::cast<tl::half>(acc),
            (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N));
}
template void mm<128, 256, 32, 8>(tl::half *, const tl::half *, const tl::half *, int, int, int,
                                  int, int, int);
template void mm<64, 64, 32, 4>(tl::half *, const tl::half *, const tl::half *, int, int, int, int,
                                int, int);

// CHECK-LABEL: namespace mm_128_256_32_8 {
// The general kernel (no TMA) is not specialized.
// CHECK-NOT: PRODUCER_THREADS
// CHECK: namespace aligned {
// CHECK: // warp specialization: a producer warpgroup of PRODUCER_THREADS threads beside the NUM_THREADS
// CHECK-NEXT: // consumers issues the TMA copies, and blocks loop over the programs; setmaxnreg gives the
// CHECK-NEXT: // producer's registers to the consumers, whose accumulators need them
// CHECK-NEXT: constexpr int PRODUCER_THREADS = 128;
// CHECK-NEXT: constexpr int PRODUCER_REGISTERS = 40;  // registers per producer thread
// CHECK-NEXT: constexpr int CONSUMER_REGISTERS = 232;  // registers per consumer thread
// CHECK: __global__ void __launch_bounds__(NUM_THREADS + PRODUCER_THREADS, 1) mm(
// CHECK-NEXT: const __grid_constant__ tilec::rt::TensorMap2D av_map,
// CHECK-NEXT: const __grid_constant__ tilec::rt::TensorMap2D bv_map, int num_programs, __half *c,
// Full and empty barriers: the empty ones count every consumer thread's release.
// CHECK: alignas(8) __shared__ uint64_t stage_full[4];
// CHECK: alignas(8) __shared__ uint64_t stage_empty[4];
// CHECK-NEXT: if (threadIdx.x == 0) {
// CHECK-NEXT: TILEC_UNROLL
// CHECK-NEXT: for (int i = 0; i < 4; ++i) {
// CHECK-NEXT: tilec::rt::mbarrier_init(&stage_full[i], STAGE_COPIES);
// CHECK-NEXT: tilec::rt::mbarrier_init(&stage_empty[i], NUM_THREADS);
// CHECK-NEXT: }
// CHECK-NEXT: tilec::rt::mbarrier_init_fence();
// CHECK-NEXT: }
// CHECK-NEXT: __syncthreads();
// The producer: the scalars its coordinates read, again, in its program loop; the copies of every
// K step behind the stage's empty barrier; no prologue, no barrier.
// CHECK: if (threadIdx.x >= NUM_THREADS) {
// CHECK-NEXT: tilec::rt::warpgroup_release_registers<PRODUCER_REGISTERS>();
// CHECK-NEXT: if (threadIdx.x == NUM_THREADS) {
// CHECK-NEXT: int copy_stage = 0;
// CHECK-NEXT: int copy_phase = 0;
// CHECK-NEXT: TILEC_NO_UNROLL
// CHECK-NEXT: for (int program = static_cast<int>(blockIdx.x); program < num_programs;
// CHECK-NEXT: program += static_cast<int>(gridDim.x)) {
// CHECK: const int pid = program;
// CHECK: const int pid_m =
// CHECK: const int pid_n =
// CHECK-NOT: rm
// CHECK: for (int k = 0; k < tilec::rt::cdiv(K, BK); ++k) {
// CHECK: tilec::rt::mbarrier_wait(&stage_empty[copy_stage], 1 - copy_phase);
// CHECK-NOT: if (threadIdx.x == 0)
// CHECK: tilec::rt::mbarrier_arrive_expect_tx(&stage_full[copy_stage], sizeof(av_smem[0]));
// CHECK-NEXT: tilec::rt::tma_load_2d(av_smem[copy_stage], &av_map, pid_m * BM, k * BK,
// CHECK: if (copy_stage == 3) {
// CHECK-NEXT: copy_phase = 1 - copy_phase;
// CHECK-NEXT: }
// CHECK-NEXT: copy_stage = (copy_stage + 1) % 4;
// CHECK: return;
// CHECK-NEXT: }
// CHECK-NEXT: tilec::rt::warpgroup_claim_registers<CONSUMER_REGISTERS>();
// The consumers: the ring's state runs on across programs; each K step frees the stage the last
// one read, the loop's end the last stage; the epilogue's barriers are among the consumers only.
// CHECK-NEXT: int read_stage = 0;
// CHECK-NEXT: int read_phase = 0;
// CHECK-NEXT: TILEC_NO_UNROLL
// CHECK-NEXT: for (int program = static_cast<int>(blockIdx.x); program < num_programs;
// CHECK: for (int k = 0; k < tilec::rt::cdiv(K, BK); ++k) {
// CHECK-NEXT: tilec::rt::mbarrier_wait(&stage_full[read_stage], read_phase);
// CHECK-NOT: __syncthreads
// CHECK: tilec::rt::wgmma_wait<1>();
// CHECK-NOT: __syncthreads
// CHECK: if (k > 0) {
// CHECK: tilec::rt::mbarrier_arrive(&stage_empty[(read_stage + 3) % 4]);
// CHECK: tilec::rt::wgmma_wait<0>();
// CHECK-NOT: __syncthreads
// CHECK: if (0 < tilec::rt::cdiv(K, BK)) {
// CHECK: tilec::rt::mbarrier_arrive(&stage_empty[(read_stage + 3) % 4]);
// CHECK-NOT: __syncthreads
// CHECK: tilec::rt::named_barrier_sync(1, NUM_THREADS);
// CHECK-NOT: __syncthreads
// CHECK: } // namespace aligned
// The launcher: a persistent grid of the consumers and the producer warpgroup, the programs after
// the maps.
// CHECK: if (av_map_made == cudaSuccess && bv_map_made == cudaSuccess) {
// CHECK: config.gridDim = dim3(tilec::rt::persistent_blocks(grid.x));
// CHECK-NEXT: config.blockDim = dim3(mm_128_256_32_8::aligned::NUM_THREADS +
// CHECK-NEXT: mm_128_256_32_8::aligned::PRODUCER_THREADS);
// CHECK-NEXT: return cudaLaunchKernelEx(&config, mm_128_256_32_8::aligned::mm, av_map, bv_map,
// CHECK-NEXT: static_cast<int>(grid.x), c, a, b,

// 64x64 on 4 warps: 32 accumulator elements a thread, no producer by default.
// CHECK-LABEL: namespace mm_64_64_32_4 {
// CHECK-NOT: PRODUCER_THREADS
// CHECK: tilec::rt::tma_load_2d(
// CHECK-NOT: PRODUCER_THREADS
// CHECK: } // namespace mm_64_64_32_4

// The setting: on for the small block (where the launch leaves the 128 consumers all the registers
// they may have: no setmaxnreg), off for the wide one.
template <int BM, int BN, int BK, int WARPS, bool WS>
TILEC_KERNEL(num_warps = WARPS, num_stages = 3, warp_specialize = WS)
void mm_set(tl::half *c, const tl::half *a, const tl::half *b, int M, int N, int K, int lda,
            int ldb, int ldc) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto pa = a + tl::expand_dims<1>(rm) * lda + tl::expand_dims<0>(rk);
  auto pb = b + tl::expand_dims<1>(rk) * ldb + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto av = tl::load(pa, (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rk) < K - k * BK));
    auto bv = tl::load(pb, (tl::expand_dims<1>(rk) < K - k * BK) & (tl::expand_dims<0>(rn) < N));
    acc = tl::dot(av, bv, acc);
    pa += BK;
    pb += BK * ldb;
  }
  tl::store(c + tl::expand_dims<1>(rm) * ldc + tl::expand_dims<0>(rn), tl::cast<tl::half>(acc),
            (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rn) < N));
}
template void mm_set<64, 64, 32, 4, true>(tl::half *, const tl::half *, const tl::half *, int, int,
                                          int, int, int, int);
template void mm_set<128, 256, 32, 8, false>(tl::half *, const tl::half *, const tl::half *, int,
                                             int, int, int, int, int);
// CHECK-LABEL: namespace mm_set_64_64_32_4_1 {
// CHECK: namespace aligned {
// CHECK: constexpr int PRODUCER_THREADS = 128;
// CHECK-NOT: REGISTERS
// CHECK: __launch_bounds__(NUM_THREADS + PRODUCER_THREADS, 1)
// CHECK-NOT: warpgroup_release_registers
// CHECK: if (threadIdx.x == NUM_THREADS) {
// CHECK-NOT: warpgroup_claim_registers
// CHECK: } // namespace aligned
// CHECK-LABEL: namespace mm_set_128_256_32_8_0 {
// CHECK-NOT: PRODUCER_THREADS
// CHECK: tilec::rt::tma_load_2d(
// CHECK-NOT: PRODUCER_THREADS
// CHECK: } // namespace mm_set_128_256_32_8_0

// Asked for, but not possible: programs numbered along axis 1 too (a persistent block loops over
// axis 0 only), and box coordinates the producer cannot compute without a load (a row block read
// from memory). Both keep the TMA ring with its CTA barrier.
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, num_stages = 3, warp_specialize = true)
void mm_axis1(float *c, const tl::half *a, const tl::half *b, int M, int N, int K, int lda,
              int ldb) {
  auto rm = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto rn = tl::program_id(1) * BN + tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto pa = a + tl::expand_dims<1>(rm) * lda + tl::expand_dims<0>(rk);
  auto pb = b + tl::expand_dims<1>(rk) * ldb + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto av = tl::load(pa, (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rk) < K - k * BK));
    auto bv = tl::load(pb, (tl::expand_dims<1>(rk) < K - k * BK) & (tl::expand_dims<0>(rn) < N));
    acc = tl::dot(av, bv, acc);
    pa += BK;
    pb += BK * ldb;
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
template void mm_axis1<64, 64, 64>(float *, const tl::half *, const tl::half *, int, int, int, int,
                                   int);
template <int BM, int BN, int BK>
TILEC_KERNEL(num_warps = 4, num_stages = 3, warp_specialize = true)
void mm_loaded_row(float *c, const tl::half *a, const tl::half *b, const int *rows, int M, int N,
                   int K, int lda, int ldb) {
  int row0 = tl::load(rows + tl::program_id(0)); // the row block, read from memory
  auto rm = row0 + tl::arange<0, BM>();
  auto rn = tl::arange<0, BN>();
  auto rk = tl::arange<0, BK>();
  auto pa = a + tl::expand_dims<1>(rm) * lda + tl::expand_dims<0>(rk);
  auto pb = b + tl::expand_dims<1>(rk) * ldb + tl::expand_dims<0>(rn);
  auto acc = tl::zeros<float, BM, BN>();
  for (int k = 0; k < tl::cdiv(K, BK); ++k) {
    auto av = tl::load(pa, (tl::expand_dims<1>(rm) < M) & (tl::expand_dims<0>(rk) < K - k * BK));
    auto bv = tl::load(pb, (tl::expand_dims<1>(rk) < K - k * BK) & (tl::expand_dims<0>(rn) < N));
    acc = tl::dot(av, bv, acc);
    pa += BK;
    pb += BK * ldb;
  }
  tl::store(c + tl::expand_dims<1>(rm) * BN + tl::expand_dims<0>(rn), acc);
}
template void mm_loaded_row<64, 64, 64>(float *, const tl::half *, const tl::half *, const int *,
                                        int, int, int, int, int);
// CHECK-LABEL: namespace mm_axis1_64_64_64 {
// CHECK: namespace aligned {
// CHECK-NOT: PRODUCER_THREADS
// CHECK: tilec::rt::tma_load_2d(
// CHECK-NOT: PRODUCER_THREADS
// CHECK: } // namespace mm_axis1_64_64_64
// CHECK-LABEL: namespace mm_loaded_row_64_64_64 {
// CHECK: namespace aligned {
// CHECK-NOT: PRODUCER_THREADS
// CHECK: tilec::rt::tma_load_2d(
// CHECK-NOT: PRODUCER_THREADS
// CHECK: } // namespace mm_loaded_row_64_64_64

// sm_80 has neither TMA nor a producer.
// SM80-NOT: PRODUCER_THREADS
