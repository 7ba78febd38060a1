// Translation time grows linearly with loop nesting. The final verifier's barrier check walked a
// loop's body twice (a first and a later iteration) at every level, so a statement under 24 nested
// loops took 2.3 s and under 30 over a minute; at 100 levels this test would never end. The
// innermost statement here uses shared memory and barriers, which the check must still follow.
// RUN: python3 %S/Inputs/loop_nest.py 100 %t.cpp
// RUN: %tilec %t.cpp -o %t.cu
// RUN: %FileCheck %s < %t.cu
// CHECK: for (int i99 = 0; i99 < n; ++i99) {
// CHECK: __syncthreads();
