// PLAIN
// ARG: -o
// ARG: -
// ARG: --depfile=out.cu.d
// EXIT: 2
// EXPECT: tilec: error: --depfile needs an output file (-o FILE), not '-o -'
#include <tilec/tl.hpp>
