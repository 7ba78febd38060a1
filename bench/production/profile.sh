#!/usr/bin/env bash
# Nsight Compute on tilec's and Liger's kernels of the production benchmark (a GPU machine with ncu):
#   bench/production/profile.sh LIGER_DEST WORKLOAD WIDTH...   e.g. profile.sh build-liger swiglu_fwd 11008
# Builds the shim as run.sh does (into $LIB when set, reusing a library already there), then profiles
# the second launch of each (the first warms up). NCU_KERNELS overrides the kernel-name regex
# (default: the workload's name with and without `_fwd`, which matches Liger's forward kernels).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$(cd "${1:?usage: profile.sh LIGER_DEST WORKLOAD WIDTH...}/src" && pwd)
workload=${2:?workload}
shift 2
arch=${TILEC_GPU_ARCH:-90a}
lib=${LIB:-$(mktemp -d)}
mkdir -p "$lib"
[ -f "$lib/libtilec_liger.so" ] ||
  nvcc -std=c++20 -O3 -lineinfo "-gencode=arch=compute_${arch},code=sm_${arch}" -Xcompiler -fPIC -shared \
    -I "$root/runtime_headers" -I "$root/bench/gen" "$root/bench/shim/liger_shim.cu" -o "$lib/libtilec_liger.so"
ncu --launch-skip 2 --section SpeedOfLight --section Occupancy --section LaunchStats \
  --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section InstructionStats \
  -k "regex:${NCU_KERNELS:-${workload%_fwd}|_${workload%_fwd}}" \
  python3 "$root/bench/production/profile_liger.py" --lib-dir "$lib" --liger-src "$src" --only "$workload" \
  --size "$@"
