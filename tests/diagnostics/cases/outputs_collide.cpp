// PLAIN
// ARG: -o
// ARG: out.cu
// ARG: --header=./out.cu
// EXIT: 2
// EXPECT: tilec: error: the output, --header and --depfile must be different files
#include <tilec/tl.hpp>
