// EXPECT: unsupported_conversion.cpp:8:7: error: conversion PointerToBoolean of 'out' is not supported in a tilec kernel
// A conversion C++ makes implicitly and tilec does not: a pointer tested as a condition.
#include <tilec/tl.hpp>

template <int B>
TILEC_KERNEL(num_warps = 4)
void k(float *out) {
  if (out) {
    tl::store(out + tl::arange<0, B>(), tl::full<float, B>(1.0f));
  }
}
template void k<16>(float *);
