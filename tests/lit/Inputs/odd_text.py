"""Writes kernel sources with bytes that end, split or continue lines in unusual ways (for
source_text.cpp): python3 odd_text.py DIR."""
import os
import sys

d = sys.argv[1]
kernel = (
    "#include <tilec/tl.hpp>\n"
    "template <int BLOCK>\n"
    "TILEC_KERNEL(num_warps = 4, grid = (cdiv(n, BLOCK)))\n"
    "void k(const float *x, float *y, int n) {\n"
    "  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();\n"
    # A lone carriage return ends line 6: 'v = v * 2.0f;' is line 7, a statement.
    "  auto v = tl::load(x + offs, offs < n); // ends at a CR:\r  v = v * 2.0f;\n"
    # A backslash, a form feed and the line end splice lines: line 9 is part of this comment.
    "  v = v + 1.0f; // a backslash, a form feed: \\\f\n"
    "  v = v * 3.0f; // (commented out by the splice)\n"
    # The backslash trigraph: no trigraphs in C++17 and later, so line 11 is code.
    "  v = v - 4.0f; // a trigraph: ??/\n"
    "  v = v * 5.0f;\r\n"
    "  tl::store(y + offs, v, offs < n);\n"
    "}\n"
    "template void k<128>(const float *, float *, int);\n")
with open(os.path.join(d, "k.cpp"), "w", newline="") as f:
    f.write(kernel)
# A file name with a quote, a backslash and a newline.
with open(os.path.join(d, 'q"b\\n\nl.cpp'), "w", newline="") as f:
    f.write(kernel)
