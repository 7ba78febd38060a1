#!/usr/bin/env bash
# Runs the commands of README.md's "Running the emitted code on the CPU" section as written: the
# shell block between the emu-example markers, from the repository root. Only the paths change: the
# build directory is this test's, and out/ is a fresh temporary directory.
# Usage: readme.sh <source root> <build dir>
set -euo pipefail
root=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
block=$(sed -n '/<!-- emu-example: begin/,/<!-- emu-example: end -->/p' "$root/README.md" |
  sed -n '/^```sh$/,/^```$/p' | grep -v '^```')
if [ -z "$block" ]; then
  echo "readme.sh: no emu-example block in README.md" >&2
  exit 1
fi
block=$(printf '%s\n' "$block" | sed -E "s#(^| )build/#\\1$build/#g; s#(^| )out(/| |\$)#\\1$work\\2#g")
cd "$root"
bash -euxo pipefail -c "$block"
