#!/usr/bin/env bash
# Installs the built tilec into a scratch prefix and builds examples/cmake-consumer against it, as a
# user would: find_package(tilec) and tilec_add_kernels(). Checks, for Ninja and for Makefiles:
#   - the first build generates CUDA from the kernel and links the host program with nvcc's output;
#   - a build with nothing changed runs nothing; touching the kernel or a header it includes runs
#     tilec again, touching the host program does not;
#   - a kernel with an error fails the build with tilec's file:line:column message and leaves no
#     generated file behind; fixing it builds again.
# Then the HIP variant (GPU_TARGET=hip, hipcc as the C++ compiler), and tilec_add_kernels' own
# configure-time errors.
# Usage: consumer.sh <cmake> <tilec build dir> <tilec source dir> <work dir> <nvcc> <hipcc>
set -euo pipefail
cmake=$1 build=$2 src=$3 work=$4 nvcc=$5 hipcc=$6

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd -P) # the depfile names files by their canonical paths
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log"
for f in bin/tilec include/tilec/tl.hpp include/tilec/cuda/runtime.cuh include/tilec/hip/runtime.hpp; do
  [ -e "$prefix/$f" ] || fail "cmake --install did not install $f"
done
config_dir=$(dirname "$(find "$prefix" -name tilecConfig.cmake)")
for f in tilecConfig.cmake tilecConfigVersion.cmake tilecTargets.cmake TilecAddKernels.cmake; do
  [ -e "$config_dir/$f" ] || fail "cmake --install did not install $f"
done

# build <dir> <log>: builds, keeping the output in <log>; returns the build's exit status.
build() {
  "$cmake" --build "$1" >"$2" 2>&1
}
generated() { grep -q "tilec: generating" "$1"; }

check_generator() {
  local gen=$1 tag=$2
  local app=$work/$tag/src bin=$work/$tag/build log=$work/$tag/log
  mkdir -p "$work/$tag"
  cp -r "$src/examples/cmake-consumer" "$app"
  "$cmake" -G "$gen" -S "$app" -B "$bin" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CUDA_COMPILER="$nvcc" >"$log.configure" 2>&1 || { cat "$log.configure"; fail "$tag: configure"; }
  grep -q "^tilec_DIR:PATH=$config_dir\$" "$bin/CMakeCache.txt" ||
    fail "$tag: find_package(tilec) did not find the installed package"

  build "$bin" "$log.1" || { cat "$log.1"; fail "$tag: first build"; }
  generated "$log.1" || fail "$tag: the first build did not run tilec"
  local gen_dir=$bin/tilec/saxpy_app
  for f in saxpy.cu saxpy_launchers.h saxpy.cu.d; do
    [ -s "$gen_dir/$f" ] || fail "$tag: $f was not generated"
  done
  [ -x "$bin/saxpy_app" ] || fail "$tag: saxpy_app was not linked"
  grep -q "^#include <tilec/cuda/runtime.cuh>" "$gen_dir/saxpy.cu" || fail "$tag: saxpy.cu is not tilec's output"
  grep -q "$app/kernels/saxpy_params.hpp" "$gen_dir/saxpy.cu.d" || fail "$tag: the depfile misses the included header"
  grep -q "$prefix/include/tilec/tl.hpp" "$gen_dir/saxpy.cu.d" || fail "$tag: tilec did not use the installed tl.hpp"

  # Nothing changed: nothing runs (Ninja says so in as many words).
  build "$bin" "$log.2" || fail "$tag: no-op build"
  ! generated "$log.2" || { cat "$log.2"; fail "$tag: a build with nothing changed ran tilec"; }
  if [ "$gen" = Ninja ]; then
    grep -q "ninja: no work to do" "$log.2" || { cat "$log.2"; fail "$tag: a build with nothing changed did work"; }
  else
    ! grep -q "Building" "$log.2" || { cat "$log.2"; fail "$tag: a build with nothing changed compiled"; }
  fi

  # Timestamps must move forward visibly between steps.
  sleep 1
  touch "$app/kernels/saxpy_params.hpp"
  build "$bin" "$log.3" || fail "$tag: build after touching the header"
  generated "$log.3" || { cat "$log.3"; fail "$tag: touching an included header did not run tilec"; }
  build "$bin" "$log.4" || fail "$tag: no-op build"
  ! generated "$log.4" || { cat "$log.4"; fail "$tag: tilec ran again with nothing changed"; }

  sleep 1
  touch "$app/main.cpp"
  build "$bin" "$log.5" || fail "$tag: build after touching main.cpp"
  ! generated "$log.5" || { cat "$log.5"; fail "$tag: touching the host program ran tilec"; }
  grep -q "main.cpp" "$log.5" || { cat "$log.5"; fail "$tag: touching main.cpp did not recompile it"; }

  sleep 1
  touch "$app/kernels/saxpy.cpp"
  build "$bin" "$log.6" || fail "$tag: build after touching the kernel"
  generated "$log.6" || { cat "$log.6"; fail "$tag: touching the kernel did not run tilec"; }

  cp "$app/kernels/saxpy.cpp" "$work/$tag/saxpy.cpp.good"
  if [ "$gen" = Ninja ]; then
    # A header the kernel no longer includes is no longer a dependency. (The Makefiles generator of
    # CMake 3.25 keeps old depfile entries: README, "Generators".)
    sleep 1
    sed -i 's/^#include "saxpy_params.hpp"$/constexpr float kLimit = 4.0f;/' "$app/kernels/saxpy.cpp"
    ! grep -q saxpy_params.hpp "$app/kernels/saxpy.cpp" || fail "$tag: the test could not drop the include"
    build "$bin" "$log.6b" || { cat "$log.6b"; fail "$tag: build without the include"; }
    generated "$log.6b" || fail "$tag: editing the kernel did not run tilec"
    sleep 1
    touch "$app/kernels/saxpy_params.hpp"
    build "$bin" "$log.6c" || fail "$tag: build after touching the dropped header"
    ! generated "$log.6c" || { cat "$log.6c"; fail "$tag: a header no longer included still ran tilec"; }
    cp "$work/$tag/saxpy.cpp.good" "$app/kernels/saxpy.cpp"
  fi

  # An error in the kernel: the build fails at the kernel's line and column; no stale output.
  sleep 1
  sed -i 's/tl::maximum(r, -kLimit)/tl::maxmum(r, -kLimit)/' "$app/kernels/saxpy.cpp"
  grep -q maxmum "$app/kernels/saxpy.cpp" || fail "$tag: the test could not break the kernel"
  if build "$bin" "$log.7"; then
    fail "$tag: a kernel with an error built"
  fi
  local line
  line=$(grep -n "tl::maxmum" "$app/kernels/saxpy.cpp" | cut -d: -f1)
  grep -q "^$app/kernels/saxpy.cpp:$line:[0-9]*: error: no member named 'maxmum' in namespace 'tl'" "$log.7" ||
    { cat "$log.7"; fail "$tag: no clang-style error at the kernel source"; }
  for f in saxpy.cu saxpy_launchers.h saxpy.cu.d; do
    [ ! -e "$gen_dir/$f" ] || fail "$tag: a failed build left $f behind"
  done
  sleep 1
  cp "$work/$tag/saxpy.cpp.good" "$app/kernels/saxpy.cpp"
  build "$bin" "$log.8" || { cat "$log.8"; fail "$tag: build after fixing the kernel"; }
  generated "$log.8" || fail "$tag: fixing the kernel did not run tilec"
  [ -s "$gen_dir/saxpy.cu" ] || fail "$tag: saxpy.cu missing after the fix"
  echo "ok: $tag"
}

check_generator Ninja ninja
check_generator "Unix Makefiles" make

# HIP: the same project generates HIP and compiles it with hipcc as the C++ compiler.
app=$work/hip/src bin=$work/hip/build log=$work/hip/log
mkdir -p "$work/hip"
cp -r "$src/examples/cmake-consumer" "$app"
"$cmake" -G Ninja -S "$app" -B "$bin" -DCMAKE_PREFIX_PATH="$prefix" -DGPU_TARGET=hip \
  -DCMAKE_CXX_COMPILER="$hipcc" >"$log.configure" 2>&1 || { cat "$log.configure"; fail "hip: configure"; }
build "$bin" "$log.1" || { cat "$log.1"; fail "hip: first build"; }
generated "$log.1" || fail "hip: the first build did not run tilec"
grep -q "^#include <tilec/hip/runtime.hpp>" "$bin/tilec/saxpy_app/saxpy.hip" || fail "hip: saxpy.hip is not HIP"
grep -q "hipError_t launch_saxpy_1024" "$bin/tilec/saxpy_app/saxpy_launchers.h" || fail "hip: launcher header"
[ -x "$bin/saxpy_app" ] || fail "hip: saxpy_app was not linked"
build "$bin" "$log.2" && grep -q "ninja: no work to do" "$log.2" || { cat "$log.2"; fail "hip: no-op build did work"; }
sleep 1
touch "$app/kernels/saxpy_params.hpp"
build "$bin" "$log.3" || fail "hip: build after touching the header"
generated "$log.3" || fail "hip: touching an included header did not run tilec"
echo "ok: hip"

# Every option reaches tilec, quoted as written; two calls on one target. Only the generated files
# are built (no GPU compiler needed): tilec fails on this kernel unless the include directory (with
# a space), the definition (with spaces) and the instantiation (with a comma) all arrive.
opts=$work/options
mkdir -p "$opts/inc dir" "$opts/other"
cat >"$opts/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(options LANGUAGES CXX)
find_package(tilec REQUIRED)
add_executable(app main.cpp)
tilec_add_kernels(app SOURCES k.cpp TARGET hip ARCH gfx942 INSTANTIATE "scale<128, 4>"
                  INCLUDE_DIRECTORIES "inc dir" COMPILE_DEFINITIONS "FACTOR=(1.0f + 2.0f)"
                  OPTIONS --no-provenance)
tilec_add_kernels(app SOURCES other/k2.cpp TARGET hip INSTANTIATE "scale<64, 2>")
CMAKE
echo "int main() {}" >"$opts/main.cpp"
echo "constexpr float kFactor = FACTOR;" >"$opts/inc dir/factor.hpp"
cat >"$opts/k.cpp" <<'KERNEL'
#include <tilec/tl.hpp>
#include "factor.hpp"
template <int BLOCK, int WARPS>
TILEC_KERNEL(num_warps = WARPS, grid = (cdiv(n, BLOCK)))
void scale(const float *x, float *out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  tl::store(out + offs, kFactor * tl::load(x + offs, offs < n), offs < n);
}
KERNEL
sed 's/#include "factor.hpp"/constexpr float kFactor = 1.0f;/' "$opts/k.cpp" >"$opts/other/k2.cpp"
"$cmake" -G Ninja -S "$opts" -B "$opts/build" -DCMAKE_PREFIX_PATH="$prefix" >"$opts/log" 2>&1 ||
  { cat "$opts/log"; fail "options: configure"; }
"$cmake" --build "$opts/build" --target "$opts/build/tilec/app/k.hip" "$opts/build/tilec/app/k2.hip" \
  >>"$opts/log" 2>&1 || { cat "$opts/log"; fail "options: tilec did not get every option"; }
grep -q "for hip gfx942\.$" "$opts/build/tilec/app/k.hip" || fail "options: ARCH did not reach tilec"
grep -q "launch_scale_128_4(" "$opts/build/tilec/app/k_launchers.h" || fail "options: INSTANTIATE"
! grep -q "// k.cpp:\|k.cpp:[0-9]*:" "$opts/build/tilec/app/k.hip" || fail "options: OPTIONS --no-provenance"
grep -q "k2.cpp:[0-9]*:" "$opts/build/tilec/app/k2.hip" || fail "options: OPTIONS leaked into the second call"
grep -q "launch_scale_64_2(" "$opts/build/tilec/app/k2_launchers.h" || fail "options: the second call"
grep -qF 'inc\ dir/factor.hpp' "$opts/build/tilec/app/k.hip.d" || fail "options: the depfile misses 'inc dir'"
echo "ok: options"

# tilec_add_kernels' configure-time errors name the problem.
# misuse <tag> <languages> <call> <expected message>
misuse() {
  local dir=$work/misuse/$1
  mkdir -p "$dir"
  cat >"$dir/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(misuse LANGUAGES $2)
find_package(tilec REQUIRED)
add_executable(app main.cpp)
$3
CMAKE
  echo "int main() {}" >"$dir/main.cpp"
  if "$cmake" -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" >"$dir/log" 2>&1; then
    fail "misuse $1: configure succeeded"
  fi
  grep -q "$4" "$dir/log" || { cat "$dir/log"; fail "misuse $1: no '$4'"; }
}
misuse no_cuda CXX "tilec_add_kernels(app SOURCES k.cpp)" \
  "TARGET cuda needs CMake's CUDA language"
misuse bad_target CXX "tilec_add_kernels(app SOURCES k.cpp TARGET opencl)" \
  "TARGET must be 'cuda' or 'hip', not 'opencl'"
misuse no_sources CXX "tilec_add_kernels(app TARGET hip)" "no SOURCES given"
misuse same_name CXX "tilec_add_kernels(app SOURCES a/k.cpp b/k.cpp TARGET hip)" \
  "two kernel sources named 'k'"
echo "ok: misuse"
