// Layer normalization backward, as in Triton's tutorial 05 (fp16 tensors, fp32 statistics), with
// its two-stage reduction of dW and dB. Stage 1, one program per row: dX, and the row's
// contributions dy * xhat and dy added into row `row % GROUP_SIZE_M` of the partial sums DW, DB
// [GROUP_SIZE_M, N]. Two forms of stage 1:
//  - layer_norm_bwd_dx_fused_lock: tutorial 05's kernel line for line. The partial sums are in
//    W's type (fp16), and each group's row is guarded by a spin lock (tl::atomic_cas until the old
//    value is 0, tl::atomic_xchg to release) with a count that makes the first program of a group
//    store instead of add. Lock holds GROUP_SIZE_M locks, then GROUP_SIZE_M counts (zeroed by the
//    caller); the partial sums need no zeroing.
//  - layer_norm_bwd_dx_fused: fp32 partial sums (zeroed by the caller) added atomically
//    (tl::atomic_add of fp32 rows: four elements an `atom.add.v4.f32` on sm_90), which needs no
//    lock and sums the same values in another order.
// Stage 2, one program per BLOCK_SIZE_N columns: the GROUP_SIZE_M partial rows summed in fp32 into
// the final dW and dB (fp16).
#include <tilec/tl.hpp>

template <int BLOCK_SIZE_N, int GROUP_SIZE_M, int NUM_WARPS>
TILEC_KERNEL(num_warps = NUM_WARPS, grid = (M))
void layer_norm_bwd_dx_fused_lock(tl::half *DX, const tl::half *DY, tl::half *DW, tl::half *DB,
                                  const tl::half *X, const tl::half *W, const float *Mean,
                                  const float *Rstd, int *Lock, int stride,
                                  [[maybe_unused]] int M, int N) {
  // Map the program id to the elements of X, DX, and DY it should compute.
  int row = tl::program_id(0);
  auto cols = tl::arange<0, BLOCK_SIZE_N>();
  auto mask = cols < N;
  X += row * stride;
  DY += row * stride;
  DX += row * stride;
  // Offset locks and weights/biases gradient pointer for parallel reduction
  int lock_id = row % GROUP_SIZE_M;
  Lock += lock_id;
  int *Count = Lock + GROUP_SIZE_M;
  auto DW_row = DW + lock_id * N + cols;
  auto DB_row = DB + lock_id * N + cols;
  // Load data to SRAM
  auto x = tl::cast<float>(tl::load(X + cols, mask, 0.0f));
  auto dy = tl::cast<float>(tl::load(DY + cols, mask, 0.0f));
  auto w = tl::cast<float>(tl::load(W + cols, mask));
  float mean = tl::load(Mean + row);
  float rstd = tl::load(Rstd + row);
  // Compute dx
  auto xhat = (x - mean) * rstd;
  auto wdy = w * dy;
  xhat = tl::where(mask, xhat, 0.0f);
  wdy = tl::where(mask, wdy, 0.0f);
  float c1 = tl::sum(xhat * wdy) / N;
  float c2 = tl::sum(wdy) / N;
  auto dx = (wdy - (xhat * c1 + c2)) * rstd;
  // Write dx
  tl::store(DX + cols, tl::cast<tl::half>(dx), mask);
  // Accumulate partial sums for dw/db
  auto partial_dw = tl::cast<tl::half>(dy * xhat);
  auto partial_db = tl::cast<tl::half>(dy);
  while (tl::atomic_cas(Lock, 0, 1) == 1) {
  }
  int count = tl::load(Count);
  // First store doesn't accumulate
  if (count == 0) {
    tl::atomic_xchg(Count, 1);
  } else {
    partial_dw += tl::load(DW_row, mask);
    partial_db += tl::load(DB_row, mask);
  }
  tl::store(DW_row, partial_dw, mask);
  tl::store(DB_row, partial_db, mask);
  // need a barrier to ensure all threads finished before releasing the lock
  tl::debug_barrier();
  // Release the lock
  tl::atomic_xchg(Lock, 0);
}

template <int BLOCK_SIZE_N, int GROUP_SIZE_M, int NUM_WARPS>
TILEC_KERNEL(num_warps = NUM_WARPS, grid = (M))
void layer_norm_bwd_dx_fused(tl::half *DX, const tl::half *DY, float *DW, float *DB,
                             const tl::half *X, const tl::half *W, const float *Mean,
                             const float *Rstd, int stride, int M, int N) {
  // Map the program id to the elements of X, DX, and DY it should compute.
  int row = tl::program_id(0);
  if (row >= M) // (the grid has M programs)
    return;
  auto cols = tl::arange<0, BLOCK_SIZE_N>();
  auto mask = cols < N;
  const tl::half *x_row = X + row * stride;
  const tl::half *dy_row = DY + row * stride;
  tl::half *dx_row = DX + row * stride;
  // The row of the partial sums this row adds into.
  int group = row % GROUP_SIZE_M;
  // Load data to SRAM.
  auto x = tl::cast<float>(tl::load(x_row + cols, mask, 0.0f));
  auto dy = tl::cast<float>(tl::load(dy_row + cols, mask, 0.0f));
  auto w = tl::cast<float>(tl::load(W + cols, mask));
  float mean = tl::load(Mean + row);
  float rstd = tl::load(Rstd + row);
  // Compute dx.
  auto xhat = tl::where(mask, (x - mean) * rstd, 0.0f);
  auto wdy = tl::where(mask, w * dy, 0.0f);
  float c1 = tl::sum(xhat * wdy) / N;
  float c2 = tl::sum(wdy) / N;
  auto dx = (wdy - (xhat * c1 + c2)) * rstd;
  tl::store(dx_row + cols, tl::cast<tl::half>(dx), mask);
  // Accumulate the partial sums for dw and db.
  tl::atomic_add(DW + group * N + cols, dy * xhat, mask, tl::relaxed);
  tl::atomic_add(DB + group * N + cols, dy, mask, tl::relaxed);
}

template <int BLOCK_SIZE_M, int BLOCK_SIZE_N, class P>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(N, BLOCK_SIZE_N)))
void layer_norm_bwd_dwdb(const P *DW, const P *DB, tl::half *FINAL_DW, tl::half *FINAL_DB,
                         int M, int N) {
  // Map the program id to the elements of DW and DB it should compute.
  int pid = tl::program_id(0);
  auto cols = pid * BLOCK_SIZE_N + tl::arange<0, BLOCK_SIZE_N>();
  auto dw = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
  auto db = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_N>();
  // Iterate through the rows of DW and DB to sum the partial sums.
  for (int i = 0; i < M; i += BLOCK_SIZE_M) {
    auto rows = i + tl::arange<0, BLOCK_SIZE_M>();
    auto mask = (tl::expand_dims<1>(rows) < M) & (tl::expand_dims<0>(cols) < N);
    auto offs = tl::expand_dims<1>(rows) * N + tl::expand_dims<0>(cols);
    dw += tl::cast<float>(tl::load(DW + offs, mask, 0.0f));
    db += tl::cast<float>(tl::load(DB + offs, mask, 0.0f));
  }
  // Write the final sum to the output.
  auto sum_dw = tl::sum<0>(dw);
  auto sum_db = tl::sum<0>(db);
  tl::store(FINAL_DW + cols, tl::cast<tl::half>(sum_dw), cols < N);
  tl::store(FINAL_DB + cols, tl::cast<tl::half>(sum_db), cols < N);
}

// Tutorial 05's choices for N up to 1024: BLOCK_SIZE_N = 1024 (the next power of two), 4 warps
// (BLOCK_SIZE_N / 256), GROUP_SIZE_M = 256 (128 up to N = 4096, 96 up to 8192, 64 above); stage 2
// on 32 x 128 tiles.
template void layer_norm_bwd_dx_fused_lock<1024, 256, 4>(tl::half *, const tl::half *, tl::half *,
                                                         tl::half *, const tl::half *,
                                                         const tl::half *, const float *,
                                                         const float *, int *, int, int, int);
template void layer_norm_bwd_dx_fused<1024, 256, 4>(tl::half *, const tl::half *, float *, float *,
                                                    const tl::half *, const tl::half *,
                                                    const float *, const float *, int, int, int);
template void layer_norm_bwd_dwdb<32, 128, tl::half>(const tl::half *, const tl::half *, tl::half *,
                                                     tl::half *, int, int);
template void layer_norm_bwd_dwdb<32, 128, float>(const float *, const float *, tl::half *,
                                                  tl::half *, int, int);
