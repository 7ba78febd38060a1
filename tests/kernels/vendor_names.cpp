// Names that are macros of CUDA's and HIP's headers, or of tilec's runtime and emulator (TILEC_...),
// are valid names in a kernel source, where those headers are not included; the output renames
// them (emitters/VendorMacros.inc, the name table). A golden case only: a host program compiled
// with CUDA's headers could not include this source.
#include <tilec/tl.hpp>

template <int cudaEventDefault>
TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, cudaEventDefault)))
void hipEventDefault(const float *cudaStreamPerThread, float *hipStreamPerThread, int n) {
  int cudaHostAllocDefault = tl::program_id(0);
  auto offs = cudaHostAllocDefault * cudaEventDefault + tl::arange<0, cudaEventDefault>();
  auto TILEC_EMU_SIZES = offs < n;
  auto cudaArrayDefault = tl::load(cudaStreamPerThread + offs, TILEC_EMU_SIZES);
  tl::store(hipStreamPerThread + offs, cudaArrayDefault * 2.0f, TILEC_EMU_SIZES);
}
template void hipEventDefault<128>(const float *, float *, int);
