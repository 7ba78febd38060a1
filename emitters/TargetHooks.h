#pragma once
/// \file The differences between the CUDA and HIP output: spellings and how a launcher starts its
/// kernel. Everything else (the kernel body, layouts, reductions, launchers) is printed by the
/// shared emitter; the device-side differences (shuffles, warp size, 16-bit float conversions) live
/// in the runtime headers.

#include "ir/Target.h"

namespace tilec::emitters {

/// How a host launcher starts its kernel. Both are ordinary host C++ (no `<<<...>>>`), so the
/// emitted file also compiles as plain C++ against stand-ins for the runtime.
enum class LaunchStyle {
  /// CUDA: `<launchConfigType> config = {};` with grid, block and stream set, then
  /// `return cudaLaunchKernelEx(&config, kernel, args...);` (the runtime's C++ template since CUDA
  /// 11.8: type-checked against the kernel's parameters, returns the launch's error).
  ConfigStruct,
  /// HIP: `hipLaunchKernelGGL(kernel, grid, block, 0, stream, args...);` then
  /// `return <getLastError>();` (SMEM_BYTES in place of 0 for dynamic shared memory).
  Macro,
};

struct TargetHooks {
  const char *runtimeInclude;   ///< the device helper header the kernel file includes
  const char *hostIncludes;     ///< what the launcher declarations need (newline-separated)
  const char *errorType;        ///< cudaError_t / hipError_t
  const char *streamType;       ///< cudaStream_t / hipStream_t
  const char *success;          ///< cudaSuccess / hipSuccess
  const char *getLastError;     ///< cudaGetLastError / hipGetLastError (after a Macro launch)
  LaunchStyle launchStyle;      ///< ConfigStruct / Macro
  const char *launchKernel;     ///< cudaLaunchKernelEx / hipLaunchKernelGGL
  const char *launchConfigType; ///< cudaLaunchConfig_t / unused (ConfigStruct only)
  const char *bf16Type;         ///< __nv_bfloat16 / hip_bfloat16
  const char *f8e4m3Type;       ///< __nv_fp8_e4m3 / tilec::rt::fp8_e4m3 (tilec/hip/fp8.hpp)
  const char *f8e5m2Type;       ///< __nv_fp8_e5m2 / tilec::rt::fp8_e5m2
  const char *fp8Include;       ///< what a launcher header whose kernels take fp8 includes
  /// Above 48 KB of shared memory a launcher sets this attribute of its kernel once, with
  /// `<funcSetAttribute>(kernel, <maxDynamicShared>, SMEM_BYTES)`, and gives the memory as the
  /// launch's dynamic shared memory.
  const char *funcSetAttribute; ///< cudaFuncSetAttribute / hipFuncSetAttribute
  const char *maxDynamicShared; ///< cuda/hipFuncAttributeMaxDynamicSharedMemorySize
  bool funcAsVoidPointer;       ///< the kernel passed as `const void *` (HIP has no template)
};

inline const TargetHooks &targetHooks(ir::TargetKind k) {
  static const TargetHooks cuda{
      "tilec/cuda/runtime.cuh",
      "#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n#include <cuda_runtime.h>",
      "cudaError_t",
      "cudaStream_t",
      "cudaSuccess",
      "cudaGetLastError",
      LaunchStyle::ConfigStruct,
      "cudaLaunchKernelEx",
      "cudaLaunchConfig_t",
      "__nv_bfloat16",
      "__nv_fp8_e4m3",
      "__nv_fp8_e5m2",
      "#include <cuda_fp8.h>",
      "cudaFuncSetAttribute",
      "cudaFuncAttributeMaxDynamicSharedMemorySize",
      false};
  static const TargetHooks hip{
      "tilec/hip/runtime.hpp",
      "#include <hip/hip_bfloat16.h>\n#include <hip/hip_fp16.h>\n#include <hip/hip_runtime.h>",
      "hipError_t",
      "hipStream_t",
      "hipSuccess",
      "hipGetLastError",
      LaunchStyle::Macro,
      "hipLaunchKernelGGL",
      nullptr,
      "hip_bfloat16",
      "tilec::rt::fp8_e4m3",
      "tilec::rt::fp8_e5m2",
      "#include <tilec/hip/fp8.hpp>",
      "hipFuncSetAttribute",
      "hipFuncAttributeMaxDynamicSharedMemorySize",
      true};
  return k == ir::TargetKind::Cuda ? cuda : hip;
}

} // namespace tilec::emitters
