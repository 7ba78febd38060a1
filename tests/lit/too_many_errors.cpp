// A source with a thousand errors stops after Clang's limit (20, -ferror-limit): tilec's own errors
// (here an unsupported statement in each of 500 kernels) and Clang's alike, as clang++ does.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "import sys; sys.stdout.write('#include <tilec/tl.hpp>\n' + ''.join('TILEC_KERNEL(num_warps = 1)\nvoid k%%d(float *out) {\n  goto x; x: ;\n}\n' %% i for i in range(500)))" > %t/tilec_errors.cpp
// RUN: bash -c '%tilec %t/tilec_errors.cpp -o %t/a.cu 2> %t/tilec.err; test $? = 1'
// RUN: %FileCheck %s < %t/tilec.err
// RUN: bash -c 'test $(grep -c ": error: " %t/tilec.err) -le 21'
// RUN: python3 -c "import sys; sys.stdout.write('#include <tilec/tl.hpp>\nTILEC_KERNEL(num_warps = 1)\nvoid k(float *out) {\n' + ''.join('  undeclared_%%d + 1;\n' %% i for i in range(1000)) + '}\n')" > %t/clang_errors.cpp
// RUN: bash -c '%tilec %t/clang_errors.cpp -o %t/b.cu 2> %t/clang.err; test $? = 1'
// RUN: %FileCheck %s < %t/clang.err
// RUN: bash -c 'test $(grep -c ": error: " %t/clang.err) -le 21'
// CHECK: fatal error: too many errors emitted, stopping now
