// EXPECT: bad_annotation_macro.cpp:10:1: error: invalid kernel setting 'num_warps = 3'; expected a power of two between 1 and 32 for 'num_warps' (got 3)
// EXPECT: bad_annotation_macro.cpp:12:15: note: in instantiation 'k<128>' requested here
// Settings made by macros are read after expansion; an error in them points at the outermost macro
// invocation in the file (its text does not show the settings).
#include <tilec/tl.hpp>
#define NW 3
#define KERNEL(name) template <int B> TILEC_KERNEL(num_warps = NW) void name(float *x)

// a comment line
KERNEL(k) {
}
template void k<128>(float *);
