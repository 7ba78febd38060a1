// NO-INPUT
// PLAIN
// ARG: --help
// EXIT: 0
// STDOUT: usage: tilec [options] <kernel.cpp>... [-- <clang arguments>]
