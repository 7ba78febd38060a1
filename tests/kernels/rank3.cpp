// Rank-3 tiles: batched masked loads and stores, reductions along each axis and over every
// element, expand_dims and broadcasting between ranks 2 and 3, permute, reshape between ranks 2
// and 3, join of 2-D tiles and split of 3-D ones, and an atomic through a 3-D pointer tile.
// Ragged batch counts, rows and columns: the blocks are larger than the data.
#include <tilec/tl.hpp>

// BB matrices of m x n a program (x holds `batches` of them, row-major, one after another): each
// matrix's row sums and column maxima and their argmax, the sum over the program's matrices,
// each matrix centered on its row means and stored transposed, every element's sum and the flat
// argmax over the program's block, and a count of the values above 0 per column over all.
template <int BB, int BM, int BN>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(batches, BB)))
void batched_stats(const float *x, float *row_sums, float *col_max, int *col_argmax,
                   float *group_sum, float *centered_t, float *total, int *flat_argmax,
                   int *positive, int batches, int m, int n) {
  const int pid = tl::program_id(0);
  auto b = pid * BB + tl::expand_dims<1>(tl::expand_dims<1>(tl::arange<0, BB>())); // [BB, 1, 1]
  auto i = tl::expand_dims<0>(tl::expand_dims<1>(tl::arange<0, BM>()));             // [1, BM, 1]
  auto j = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, BN>()));             // [1, 1, BN]
  auto mask = (b < batches) & (i < m) & (j < n);
  auto v = tl::load(x + b * (m * n) + i * n + j, mask, -INFINITY);
  auto values = tl::where(mask, v, 0.0f);

  // Along dim 2: [BB, BM]; along dim 1: [BB, BN].
  auto rows = tl::sum<2>(values);
  auto b2 = pid * BB + tl::expand_dims<1>(tl::arange<0, BB>());
  auto i2 = tl::expand_dims<0>(tl::arange<0, BM>());
  auto j2 = tl::expand_dims<0>(tl::arange<0, BN>());
  tl::store(row_sums + b2 * m + i2, rows, (b2 < batches) & (i2 < m));
  tl::store(col_max + b2 * n + j2, tl::max<1>(v), (b2 < batches) & (j2 < n));
  tl::store(col_argmax + b2 * n + j2, tl::argmax<-2>(v), (b2 < batches) & (j2 < n));

  // Along dim 0: [BM, BN], the program's matrices added.
  auto at = tl::expand_dims<1>(tl::arange<0, BM>()) * n + tl::expand_dims<0>(tl::arange<0, BN>());
  auto inside = (tl::expand_dims<1>(tl::arange<0, BM>()) < m) &
                (tl::expand_dims<0>(tl::arange<0, BN>()) < n);
  tl::store(group_sum + pid * (m * n) + at, tl::sum<0>(values), inside);

  // Row means back to rank 3, and the centered matrices transposed: [BB, BN, BM].
  auto centered = values - tl::expand_dims<2>(rows) / m;
  auto bt = pid * BB + tl::expand_dims<1>(tl::expand_dims<1>(tl::arange<0, BB>()));
  auto jt = tl::expand_dims<0>(tl::expand_dims<1>(tl::arange<0, BN>()));
  auto it = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, BM>()));
  tl::store(centered_t + bt * (n * m) + jt * m + it, tl::permute<0, 2, 1>(centered),
            (bt < batches) & (jt < n) & (it < m));

  // Every element: a scalar each.
  tl::store(total + pid, tl::sum(values));
  tl::store(flat_argmax + pid, tl::argmax(v));

  // Per column, over every matrix: an atomic through [BB, BM, BN] pointers (masked).
  tl::atomic_add(positive + tl::broadcast_to<BB, BM, BN>(j), 1, mask & (v > 0));
}

// Rows of H heads of D values (x: rows x (H * D), row-major): the rows of a block as [BM, H, D],
// each head's sum of squares, the block stored head-major (H x rows x D), and each row's (sum,
// max) per head joined into pairs (rows x H x 2) and split back into sums and maxima.
template <int BM, int H, int D>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(rows, BM)))
void heads(const float *x, float *norms, float *head_major, float *pairs, float *sums,
           float *maxima, int rows) {
  auto r = tl::program_id(0) * BM + tl::arange<0, BM>();
  auto c = tl::arange<0, H * D>();
  auto flat = tl::load(x + tl::expand_dims<1>(r) * (H * D) + tl::expand_dims<0>(c),
                       tl::expand_dims<1>(r) < rows);
  auto v = tl::reshape<BM, H, D>(flat);
  auto r3 = tl::expand_dims<1>(tl::expand_dims<1>(r)); // [BM, 1, 1]
  auto h3 = tl::expand_dims<0>(tl::expand_dims<1>(tl::arange<0, H>()));
  auto d3 = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, D>()));
  auto rh = tl::expand_dims<1>(r) * H + tl::expand_dims<0>(tl::arange<0, H>()); // [BM, H]
  auto in_rows = tl::expand_dims<1>(r) < rows;
  tl::store(norms + rh, tl::sum<2>(v * v), in_rows);

  // [H, BM, D]: head h's rows together.
  auto hm = tl::expand_dims<1>(tl::expand_dims<1>(tl::arange<0, H>()));
  auto rm = tl::expand_dims<0>(tl::expand_dims<1>(r));
  tl::store(head_major + hm * (rows * D) + rm * D + d3, tl::permute<1, 0, 2>(v), rm < rows);

  // (sum, max) of each head: joined to [BM, H, 2] and stored, and split back.
  auto p = tl::join(tl::sum<2>(v), tl::max<2>(v));
  auto k3 = tl::expand_dims<0>(tl::expand_dims<0>(tl::arange<0, 2>()));
  tl::store(pairs + r3 * (H * 2) + h3 * 2 + k3, p, r3 < rows);
  auto [s, mx] = tl::split(p);
  tl::store(sums + rh, s, in_rows);
  tl::store(maxima + rh, mx, in_rows);
}

template void batched_stats<2, 8, 64>(const float *, float *, float *, int *, float *, float *,
                                      float *, int *, int *, int, int, int);
template void batched_stats<4, 16, 16>(const float *, float *, float *, int *, float *, float *,
                                       float *, int *, int *, int, int, int);
template void heads<16, 4, 32>(const float *, float *, float *, float *, float *, float *, int);
