// EXPECT: operand_type_in_header.cpp:11:55: error: tl: math functions need a floating-point operand (cast first)
// EXPECT: operand_type_in_header.cpp:19:28: note: in instantiation of function template specialization 'act::soft<tl::tile<int, 64>>' requested here
// EXPECT: operand_type_in_header.cpp:23:15: note: in instantiation of function template specialization 'k<64>' requested here
// EXPECT: operand_type_in_header.cpp: error: kernel source has C++ errors; nothing was written
// An operand of a type an operation does not accept is found by tl.hpp's static_assert, inside the
// header; the error is reported at the tl:: call in the user's code (here inside a helper of the
// user's, whose call site follows as a note), with the assert's words and without the header's
// own instantiation notes (tests/matrix: every such misuse, run.py --rejections).
#include <tilec/tl.hpp>
namespace act {
template <class X> auto soft(const X &x) { return tl::exp(x) + 1.0f; }
} // namespace act

template <int BLOCK>
TILEC_KERNEL(num_warps = 2, grid = (cdiv(n, BLOCK)))
void k(const int *x, float *y, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto v = tl::load(x + offs, offs < n);
  tl::store(y + offs, act::soft(v), offs < n);
}
// (an int tile: tl::exp wants float, fp16 or bf16)

template void k<64>(const int *, float *, int);
