// PLAIN
// ARG: --header=./output_is_input.cpp
// EXIT: 2
// EXPECT: tilec: error: --header './output_is_input.cpp' is the input 'output_is_input.cpp'; tilec will not overwrite it
#include <tilec/tl.hpp>
