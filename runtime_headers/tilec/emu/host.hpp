#pragma once
/// \file The host side of the CUDA and HIP runtime APIs that tilec's launchers and test programs
/// use, run by tilec's CPU emulator (tilec/emu/emu.hpp). Both spellings share one implementation
/// and one set of types (cudaError_t and hipError_t, cudaStream_t and hipStream_t are the same), so
/// a host program written once drives either target's output. Launches run synchronously; device
/// memory is host memory registered with the emulator, with a red zone around each buffer.

#include "emu.hpp"

namespace tilec::emu {
enum MemcpyKind {
  HostToHost = 0,
  HostToDevice = 1,
  DeviceToHost = 2,
  DeviceToDevice = 3,
  Default = 4
};
Error device_malloc(void **p, size_t bytes);
Error device_free(void *p);
Error device_memcpy(void *dst, const void *src, size_t bytes, MemcpyKind kind);
Error device_memset(void *dst, int byte, size_t bytes);
Error synchronize();
Error get_last_error(); ///< and clears it (unless the error is sticky, as after a faulting launch)
Error peek_last_error();
} // namespace tilec::emu

struct tilec_emu_stream; // streams are accepted and ignored: every launch completes before it
                         // returns

// ---- CUDA spelling ------------------------------------------------------------------------------
using cudaError_t = tilec::emu::Error;
using cudaStream_t = tilec_emu_stream *;
constexpr cudaError_t cudaSuccess = tilec::emu::Success;
constexpr cudaError_t cudaErrorInvalidValue = tilec::emu::ErrorInvalidValue;
constexpr cudaError_t cudaErrorMemoryAllocation = tilec::emu::ErrorMemoryAllocation;
constexpr cudaError_t cudaErrorInvalidConfiguration = tilec::emu::ErrorInvalidConfiguration;
constexpr cudaError_t cudaErrorIllegalAddress = tilec::emu::ErrorIllegalAddress;
constexpr cudaError_t cudaErrorAssert = tilec::emu::ErrorAssert;
constexpr cudaError_t cudaErrorIllegalInstruction = tilec::emu::ErrorIllegalInstruction;
constexpr cudaError_t cudaErrorLaunchFailure = tilec::emu::ErrorLaunchFailure;
using cudaMemcpyKind = tilec::emu::MemcpyKind;
constexpr cudaMemcpyKind cudaMemcpyHostToHost = tilec::emu::HostToHost;
constexpr cudaMemcpyKind cudaMemcpyHostToDevice = tilec::emu::HostToDevice;
constexpr cudaMemcpyKind cudaMemcpyDeviceToHost = tilec::emu::DeviceToHost;
constexpr cudaMemcpyKind cudaMemcpyDeviceToDevice = tilec::emu::DeviceToDevice;
constexpr cudaMemcpyKind cudaMemcpyDefault = tilec::emu::Default;

TILEC_EMU_BUILTIN cudaError_t cudaMalloc(void **p, size_t bytes) {
  return tilec::emu::device_malloc(p, bytes);
}
template <class T> TILEC_EMU_BUILTIN cudaError_t cudaMalloc(T **p, size_t bytes) {
  return tilec::emu::device_malloc(reinterpret_cast<void **>(p), bytes);
}
TILEC_EMU_BUILTIN cudaError_t cudaFree(void *p) { return tilec::emu::device_free(p); }
TILEC_EMU_BUILTIN cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes,
                                         cudaMemcpyKind kind) {
  return tilec::emu::device_memcpy(dst, src, bytes, kind);
}
TILEC_EMU_BUILTIN cudaError_t cudaMemset(void *dst, int byte, size_t bytes) {
  return tilec::emu::device_memset(dst, byte, bytes);
}
TILEC_EMU_BUILTIN cudaError_t cudaDeviceSynchronize() { return tilec::emu::synchronize(); }
TILEC_EMU_BUILTIN cudaError_t cudaStreamSynchronize(cudaStream_t) {
  return tilec::emu::synchronize();
}
// Kernel attributes: the maximum dynamic shared memory only (tilec/emu/emu.hpp,
// set_max_dynamic_shared), which the launchers of kernels above 48 KB of shared memory set.
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
TILEC_EMU_BUILTIN cudaError_t cudaFuncSetAttribute(const void *kernel, cudaFuncAttribute,
                                                   int value) {
  return tilec::emu::set_max_dynamic_shared(kernel, value, 32);
}
/// The runtime's C++ template: the kernel as it is declared.
template <class T>
TILEC_EMU_BUILTIN cudaError_t cudaFuncSetAttribute(T *kernel, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel), attr, value);
}
TILEC_EMU_BUILTIN cudaError_t cudaGetLastError() { return tilec::emu::get_last_error(); }
TILEC_EMU_BUILTIN cudaError_t cudaPeekAtLastError() { return tilec::emu::peek_last_error(); }
TILEC_EMU_BUILTIN const char *cudaGetErrorName(cudaError_t e) { return tilec::emu::error_name(e); }
TILEC_EMU_BUILTIN const char *cudaGetErrorString(cudaError_t e) {
  return tilec::emu::error_string(e);
}

// ---- HIP spelling -------------------------------------------------------------------------------
using hipError_t = tilec::emu::Error;
using hipStream_t = tilec_emu_stream *;
constexpr hipError_t hipSuccess = tilec::emu::Success;
constexpr hipError_t hipErrorInvalidValue = tilec::emu::ErrorInvalidValue;
constexpr hipError_t hipErrorOutOfMemory = tilec::emu::ErrorMemoryAllocation;
constexpr hipError_t hipErrorInvalidConfiguration = tilec::emu::ErrorInvalidConfiguration;
constexpr hipError_t hipErrorIllegalAddress = tilec::emu::ErrorIllegalAddress;
constexpr hipError_t hipErrorAssert = tilec::emu::ErrorAssert;
constexpr hipError_t hipErrorLaunchFailure = tilec::emu::ErrorLaunchFailure;
using hipMemcpyKind = tilec::emu::MemcpyKind;
constexpr hipMemcpyKind hipMemcpyHostToHost = tilec::emu::HostToHost;
constexpr hipMemcpyKind hipMemcpyHostToDevice = tilec::emu::HostToDevice;
constexpr hipMemcpyKind hipMemcpyDeviceToHost = tilec::emu::DeviceToHost;
constexpr hipMemcpyKind hipMemcpyDeviceToDevice = tilec::emu::DeviceToDevice;
constexpr hipMemcpyKind hipMemcpyDefault = tilec::emu::Default;

TILEC_EMU_BUILTIN hipError_t hipMalloc(void **p, size_t bytes) {
  return tilec::emu::device_malloc(p, bytes);
}
template <class T> TILEC_EMU_BUILTIN hipError_t hipMalloc(T **p, size_t bytes) {
  return tilec::emu::device_malloc(reinterpret_cast<void **>(p), bytes);
}
TILEC_EMU_BUILTIN hipError_t hipFree(void *p) { return tilec::emu::device_free(p); }
TILEC_EMU_BUILTIN hipError_t hipMemcpy(void *dst, const void *src, size_t bytes,
                                       hipMemcpyKind kind) {
  return tilec::emu::device_memcpy(dst, src, bytes, kind);
}
TILEC_EMU_BUILTIN hipError_t hipMemset(void *dst, int byte, size_t bytes) {
  return tilec::emu::device_memset(dst, byte, bytes);
}
TILEC_EMU_BUILTIN hipError_t hipDeviceSynchronize() { return tilec::emu::synchronize(); }
TILEC_EMU_BUILTIN hipError_t hipStreamSynchronize(hipStream_t) { return tilec::emu::synchronize(); }
enum hipFuncAttribute { hipFuncAttributeMaxDynamicSharedMemorySize = 8 };
TILEC_EMU_BUILTIN hipError_t hipFuncSetAttribute(const void *kernel, hipFuncAttribute, int value) {
  return tilec::emu::set_max_dynamic_shared(kernel, value, 64);
}
TILEC_EMU_BUILTIN hipError_t hipGetLastError() { return tilec::emu::get_last_error(); }
TILEC_EMU_BUILTIN hipError_t hipPeekAtLastError() { return tilec::emu::peek_last_error(); }
TILEC_EMU_BUILTIN const char *hipGetErrorName(hipError_t e) { return tilec::emu::error_name(e); }
TILEC_EMU_BUILTIN const char *hipGetErrorString(hipError_t e) {
  return tilec::emu::error_string(e);
}
