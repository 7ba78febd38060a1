// NO-INPUT
// PLAIN
// ARG: --frobnicate
// EXIT: 2
// EXPECT: tilec: error: unrecognised option '--frobnicate'
