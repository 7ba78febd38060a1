// NO-INPUT
// ARG: .
// EXPECT: tilec: error: cannot read input file '.': Is a directory
// Before, a directory read as an empty source: "no tilec kernel instantiation found in '.'".
