#!/usr/bin/env bash
# Installs what tilec needs to build and test on Debian 12 (bookworm). Idempotent: packages that are
# already present are not reinstalled, and apt is not touched at all when nothing is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  libclang-19-dev llvm-19-dev llvm-19-tools clang-19
  libclang-rt-19-dev
  libboost-program-options-dev libboost-context-dev binutils
  libgtest-dev
  hipcc libamdhip64-dev rocm-device-libs
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "tilec: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# lit ships with llvm-19-tools as a Python module; FileCheck lives in the LLVM 19 bin folder.
if [ ! -x /usr/lib/llvm-19/bin/FileCheck ]; then
  echo "tilec: FileCheck from llvm-19-tools not found" >&2
  exit 1
fi
