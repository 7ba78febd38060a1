#!/usr/bin/env bash
# seeds.sh ROOT DIR: fills DIR with the fuzz target's seed corpus, collected from the sources at run
# time: every kernel of golden/cases.txt (the example kernels and tests/kernels), every
# tests/kernels/*.cpp, tests/diagnostics/cases/*.cpp and tests/lit/*.cpp. Each file is named after
# its path (a/b/c.cpp -> a_b_c.cpp), so that seeds from different folders do not collide.
set -euo pipefail
root=$1 dir=$2
mkdir -p "$dir"
cd "$root"
{
  grep -v -e '^#' -e '^$' golden/cases.txt | awk '{print $2}'
  ls tests/kernels/*.cpp tests/diagnostics/cases/*.cpp tests/lit/*.cpp
} | sort -u | while read -r src; do
  cp "$src" "$dir/${src//\//_}"
done
