#!/usr/bin/env bash
# listed.sh ROOT: golden/cases.txt names every kernel source under examples/ (a file that uses
# TILEC_KERNEL), and every source it names exists. tools/quickstart.sh translates the examples'
# kernels from that list, so an example kernel missing from it would be silently left out.
set -euo pipefail
root=$1
cd "$root"
listed=$(grep -v -e '^#' -e '^$' golden/cases.txt | awk '{print $2}')
status=0
for src in $listed; do
  if [ ! -f "$src" ]; then
    echo "error: golden/cases.txt names $src, which does not exist" >&2
    status=1
  fi
done
while IFS= read -r -d '' f; do
  f=${f#./}
  if grep -q 'TILEC_KERNEL(' "$f" && ! grep -qxF "$f" <<<"$listed"; then
    echo "error: $f holds a kernel but is not a case in golden/cases.txt" >&2
    echo "       (add '<name> $f' there and run tools/update-goldens.sh)" >&2
    status=1
  fi
done < <(find ./examples -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cu' \) -print0)
exit $status
