// Kept from the differential tester (kernel seed 11020297, reduced): tl::cdiv on int8 tiles takes
// the sum a + b - 1 in int8, wrapping as Triton's does (cdiv(127, 16) is (-114) / 16 == -7). The
// generated code's tilec::rt::cdiv took it in int and gave 9.
#include <tilec/tl.hpp>

template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void dt11020297(const int8_t *in7, int8_t *out34, int n) {
  int pid = tl::program_id(0);
  auto offs = pid * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto x8 = tl::load(in7 + offs, mask);
  auto t25 = tl::cdiv(x8, (x8 & 15) + 1);
  tl::store(out34 + offs, t25, mask);
}
template void dt11020297<512>(const int8_t *, int8_t *, int);

static void run_dt11020297(difftest::Run &run) {
  if (!run.selected("dt11020297")) return;
  auto in7 = difftest::input<int8_t>(1585, -128ll, 127ll, 11020330060894ull);
  auto out34 = difftest::output<int8_t>(1585);
  tl::launch(tl::grid3{4, 1}, dt11020297<512>, in7.ref(), out34.ref(), 1585);
  run.launched("dt11020297", launch_dt11020297_512(cudaStream_t{}, in7.dev(), out34.dev(), 1585));
  out34.compare(run, "dt11020297", "out34", -1.0);
}
