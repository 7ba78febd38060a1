#include "ir/Identifier.h"

#include <cstdint>
#include <cstdio>

namespace tilec::ir {

namespace {

bool identChar(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// The code point of the UTF-8 sequence at `text[i]` (advancing `i` past it); a byte that does not
/// start a valid sequence counts as one code point of its own value.
uint32_t decodeUtf8(const std::string &text, size_t &i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  const int extra = c >= 0xF0 && c < 0xF8 ? 3 : c >= 0xE0 && c < 0xF0 ? 2 : c >= 0xC0 && c < 0xE0 ? 1 : 0;
  uint32_t cp = c & (0x3F >> extra);
  bool valid = extra > 0 && i + extra < text.size();
  for (int k = 1; valid && k <= extra; ++k) {
    valid = (byte(i + k) & 0xC0) == 0x80;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (!valid) {
    ++i;
    return c;
  }
  i += 1 + extra;
  return cp;
}

} // namespace

std::string asciiIdentifier(const std::string &text) {
  std::string r;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      r += identChar(c) ? static_cast<char>(c) : '_';
      ++i;
      continue;
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "_u%04x_", static_cast<unsigned>(decodeUtf8(text, i)));
    r += hex;
  }
  // Identifiers with a double underscore (anywhere) or a leading underscore (at global scope) are
  // the implementation's.
  for (size_t at; (at = r.find("__")) != std::string::npos;)
    r.erase(at, 1);
  if (r.size() > 1 && r.back() == '_' && text.back() != '_')
    r.pop_back();
  if (r.empty() || r[0] == '_' || (r[0] >= '0' && r[0] <= '9'))
    r = "v" + r;
  return r;
}

const std::vector<std::string> &namesTheOutputUses() {
  static const std::vector<std::string> names = {
      "threadIdx", "blockIdx", "blockDim", "gridDim", "dim3", "__syncthreads", "__half",
      "__nv_bfloat16", "hip_bfloat16", "int8_t", "int16_t", "int64_t", "uint8_t", "uint16_t",
      "uint32_t", "uint64_t", "INFINITY", "tilec",
      // the launchers
      "cudaError_t", "cudaStream_t", "cudaSuccess", "cudaGetLastError", "cudaLaunchKernelEx",
      "cudaLaunchConfig_t", "hipError_t", "hipStream_t", "hipSuccess", "hipGetLastError",
      "hipLaunchKernelGGL", "cudaFuncSetAttribute", "cudaFuncAttributeMaxDynamicSharedMemorySize",
      "hipFuncSetAttribute", "hipFuncAttributeMaxDynamicSharedMemorySize",
      // math (tilec::rt holds the rest)
      "sqrtf", "rsqrtf", "logf", "log2f", "tanhf", "erff", "fabsf", "floorf", "ceilf", "fmaf",
      "fminf", "fmaxf", "fmodf", "sinf", "cosf", "tanf", "asinf", "acosf", "atanf", "sinhf",
      "coshf", "asinhf", "acoshf", "atanhf", "expm1f", "log1pf", "log10f", "cbrtf", "erfcf",
      "lgammaf", "rintf", "roundf", "truncf", "powf", "atan2f", "hypotf", "copysignf", "remainderf",
      "__fdiv_rn", "__fdiv_rz", "__fdividef", "__fsqrt_rn", "__popc", "__popcll", "__clz",
      "__clzll", "__umulhi", "__umul64hi",
      // fp64 math: the C library's double functions
      "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "erf", "fabs", "floor", "ceil", "fma",
      "fmin", "fmax", "fmod", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
      "acosh", "atanh", "expm1", "log1p", "log10", "cbrt", "erfc", "lgamma", "rint", "round",
      "trunc", "pow", "atan2", "hypot", "copysign", "remainder", "__ddiv_rn", "__dsqrt_rn",
      // the runtime headers' macros
      "TILEC_UNROLL", "TILEC_NO_UNROLL", "TILEC_NOINLINE", "TILEC_WARP_SIZE", "TILEC_KERNEL",
      "TILEC_CHECK_VECTOR_ACCESS", "TILEC_BINARY_OPERATOR", "TILEC_COMPOUND_OPERATOR",
      "TILEC_REDUCTION", "TILEC_EMU_ATOMIC", "TILEC_EMU_ATOMIC_CAS", "TILEC_EMU_BUILTIN",
      "TILEC_EMU_SHUFFLES", "TILEC_EMU_WARP_SIZE"};
  return names;
}

} // namespace tilec::ir
