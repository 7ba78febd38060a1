#pragma once
/// \file Source lines of kernel statements, for the tests that check the "file:line" a report
/// names. A kernel marks a statement by ending its line with `EMU_TEST_LINE(Tag);`; the test reads
/// the line as `emu_test::line<Tag>`. No line number is written down twice, so editing the kernel
/// files never breaks a test.
///
/// The mark only takes the address of a static member (no memory access, so nothing the emulator's
/// instrumentation sees); the member's initializer stores the line before main() runs.

namespace emu_test {

/// The line that `EMU_TEST_LINE(Tag)` is on; 0 if no kernel marks it.
template <class Tag> inline int line = 0;

template <class Tag, int L> struct LineMark {
  static inline const bool recorded = (line<Tag> = L, true);
};

} // namespace emu_test

#define EMU_TEST_LINE(Tag) (void)&::emu_test::LineMark<Tag, __LINE__>::recorded
