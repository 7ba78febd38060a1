// PLAIN
// ARG: --stop-after=layouts
// EXIT: 2
// EXPECT: tilec: error: unknown pass 'layouts' in --stop-after; valid names: simplify, dead-decls, materialize, sink-decls, rematerialize, prefetch-loads, layout-assignment, lower-reductions, lower-dots, pipeline-dots, lower-layout-conversions, allocate-shared, insert-barriers
#include <tilec/tl.hpp>
