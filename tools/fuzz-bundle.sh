#!/usr/bin/env bash
# Packs the sanitizer build's fuzz target so that a fuzz campaign can run on another x86-64 Linux
# machine that has neither Clang 19 nor this machine's libraries (docs/robustness.md, "Campaigns
# on a larger machine"): the target, every shared library it loads with this machine's dynamic
# loader, and Clang's builtin headers. The C++ standard library's headers come from the other
# machine (any GCC installation Clang can find).
#   tools/fuzz-bundle.sh OUT.tar.xz
# On the other machine, from a copy of this repository:
#   tar xJf OUT.tar.xz -C /opt && /opt/tilec-fuzz/setup.sh && TILEC_SAN_BUILD=/opt/tilec-fuzz tools/fuzz.sh SECONDS JOBS
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_SAN_BUILD:-$root/build-san}
out=${1:?usage: tools/fuzz-bundle.sh OUT.tar.xz}
target=$build/tests/fuzz/tilec_fuzz
[ -x "$target" ] || { echo "tools/fuzz-bundle.sh: $target not found; run tools/sanitize.sh --build-only" >&2; exit 2; }
command -v patchelf >/dev/null || { echo "tools/fuzz-bundle.sh: needs patchelf (apt-get install patchelf)" >&2; exit 2; }

# The bundle unpacks to this directory: the target's loader and library path point into it.
dest=/opt/tilec-fuzz
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
b=$stage/tilec-fuzz
mkdir -p "$b/lib" "$b/tests/fuzz" "$b/clang-include"
cp "$target" "$b/tests/fuzz/"
for lib in $(ldd "$target" | awk '/=>/ {print $3}'); do
  cp -L "$lib" "$b/lib/"
done
loader=$(patchelf --print-interpreter "$target")
cp -L "$loader" "$b/lib/"
patchelf --set-interpreter "$dest/lib/$(basename "$loader")" --force-rpath --set-rpath "$dest/lib" \
  "$b/tests/fuzz/tilec_fuzz"

# The target looks for Clang's builtin headers and <tilec/tl.hpp> where this build found them;
# setup.sh links those paths on the other machine (the runtime headers to the repository copy it
# runs from).
resource=$(sed -n 's/.*TILEC_CLANG_RESOURCE_DIR=\\"\([^"\\]*\)\\".*/\1/p' "$build/build.ninja" | head -1)
headers=$(sed -n 's/.*TILEC_RUNTIME_HEADERS_DIR=\\"\([^"\\]*\)\\".*/\1/p' "$build/build.ninja" | head -1)
[ -n "$resource" ] && [ -n "$headers" ] || { echo "tools/fuzz-bundle.sh: cannot read the header paths from $build/build.ninja" >&2; exit 2; }
cp -r "$resource/include/." "$b/clang-include/"
cat >"$b/setup.sh" <<EOF
#!/bin/sh
# Run from the repository copy, on the machine that fuzzes: links the header paths compiled into
# the target (written by tools/fuzz-bundle.sh).
set -e
if [ ! -e "$resource/include/stddef.h" ]; then
  mkdir -p "$resource" && ln -sfn "$dest/clang-include" "$resource/include"
fi
if [ ! -e "$headers/tilec/tl.hpp" ]; then
  mkdir -p "\$(dirname "$headers")" && ln -sfn "\$PWD/runtime_headers" "$headers"
fi
EOF
chmod +x "$b/setup.sh"
tar -C "$stage" -cf - tilec-fuzz | xz -9e -T0 >"$out"
echo "tools/fuzz-bundle.sh: $(du -h "$out" | cut -f1) in $out (unpacks to $dest)"
