// The pipeline, in order, as --list-passes prints it (one registry drives it).
// RUN: %tilec --list-passes | %FileCheck %s
// CHECK: simplify
// CHECK-NEXT: dead-decls
// CHECK-NEXT: materialize
// CHECK-NEXT: sink-decls
// CHECK-NEXT: rematerialize
// CHECK-NEXT: prefetch-loads
// CHECK-NEXT: layout-assignment
// CHECK-NEXT: lower-reductions
// CHECK-NEXT: lower-dots
// CHECK-NEXT: pipeline-dots
// CHECK-NEXT: lower-layout-conversions
// CHECK-NEXT: allocate-shared
// CHECK-NEXT: insert-barriers
