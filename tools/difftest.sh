#!/usr/bin/env bash
# Long runs of the differential tester (docs/robustness.md, "Differential testing"): random valid
# kernels, each translated to CUDA and HIP, compiled with nvcc and hipcc (-Werror) and run on the
# CPU emulator against the CPU reference. Needs tools/build.sh's build.
#   tools/difftest.sh [KERNELS [SEED]] [more difftest.py options]
#   tools/difftest.sh 1000 7 --adversarial    # adversarial programs (tests/difftest/adversarial.py)
# Failing batches stay in build/difftest/seed-SEED/; reduce one kernel with
#   tests/difftest/difftest.py --build build --only-seed KERNEL_SEED --reduce --work DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kernels=${1:-10000}
seed=${2:-1}
shift $(($# < 2 ? $# : 2))
exec python3 "$root/tests/difftest/difftest.py" --build "$root/build" --kernels "$kernels" --seed "$seed" \
  --batch 40 --jobs "${TILEC_JOBS:-$(nproc)}" --nvcc --hipcc --work "$root/build/difftest/seed-$seed" "$@"
