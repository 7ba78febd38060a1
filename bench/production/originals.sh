#!/usr/bin/env bash
# Extracts the original kernels the production benchmark runs beside tilec's ports: Liger-Kernel's
# src/ folder at the pinned commit, from a local git mirror of github.com/linkedin/Liger-Kernel, into
# DEST (an ignored folder; the device tool carries it to the GPU machine, which has no network).
#   bench/production/originals.sh MIRROR.git DEST
set -euo pipefail
mirror=${1:?usage: originals.sh MIRROR.git DEST} dest=${2:?usage: originals.sh MIRROR.git DEST}
commit=ead96b61 # Liger-Kernel main, 2026-11 (the commit measured in bench/NOTES.md)
rm -rf "$dest"
mkdir -p "$dest"
git --git-dir="$mirror" archive "$commit" src/liger_kernel | tar -x -C "$dest"
echo "Liger-Kernel $commit: $dest/src/liger_kernel"
