"""Writes a kernel whose statement sits under DEPTH nested loops (for loop_nest.cpp):
python3 loop_nest.py DEPTH FILE. The innermost statement reduces a 2-D tile across its rows, which
goes through shared memory and barriers, and depends on the innermost loop's variable."""
import sys

depth, path = int(sys.argv[1]), sys.argv[2]
lines = ["#include <tilec/tl.hpp>",
         "template <int BM, int BN>",
         "TILEC_KERNEL(num_warps = 4)",
         "void nest(const float *x, float *out, int n) {",
         "  auto acc = tl::zeros<float, BN>();",
         "  auto t = tl::load(x + tl::expand_dims<1>(tl::arange<0, BM>()) * BN +"
         " tl::expand_dims<0>(tl::arange<0, BN>()));"]
for d in range(depth):
    lines.append("  " * (d + 1) + "for (int i%d = 0; i%d < n; ++i%d) {" % (d, d, d))
lines.append("  " * (depth + 1) + "acc = acc + tl::sum<0>(t * i%d);" % (depth - 1))
for d in reversed(range(depth)):
    lines.append("  " * (d + 1) + "}")
lines += ["  tl::store(out + tl::arange<0, BN>(), acc);",
          "}",
          "template void nest<64, 64>(const float *, float *, int);"]
with open(path, "w") as f:
    f.write("\n".join(lines) + "\n")
