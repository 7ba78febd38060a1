/// Sanitizer defaults of the tilec command in the sanitizer build (TILEC_SANITIZE, docs/robustness.md):
/// a report aborts the process instead of exiting with status 1, which is also tilec's status for
/// an error in the kernel: a test that expects that status (tests/diagnostics) or inverts it (lit's
/// `not`) would otherwise pass on a memory error. The environment (ASAN_OPTIONS, UBSAN_OPTIONS) can
/// still override these.

extern "C" const char *__asan_default_options() { return "abort_on_error=1"; }
extern "C" const char *__ubsan_default_options() { return "abort_on_error=1:print_stacktrace=1"; }
