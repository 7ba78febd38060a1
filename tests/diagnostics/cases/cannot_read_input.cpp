// NO-INPUT
// ARG: does_not_exist.cpp
// EXPECT: tilec: error: cannot read input file 'does_not_exist.cpp': No such file or directory
