#!/usr/bin/env bash
# Runs tilec's libFuzzer target (tests/fuzz, docs/robustness.md) from the sanitizer build.
#
#   tools/fuzz.sh [SECONDS [JOBS]]  a campaign of SECONDS (default 600) with JOBS worker processes
#                                   (default 1) on one corpus, at low priority (nice 10).
#                                   The corpus is kept between runs in <build>/fuzz/corpus and the
#                                   seeds are read at every start. A crash, leak, hang (30 s) or
#                                   out-of-memory input (4 GB) is saved in <build>/fuzz/artifacts/
#                                   and its worker starts again; the script fails at the end if any was
#                                   saved. A hang is run again once: one that does not hang again
#                                   (a busy machine starved the worker) goes to artifacts/unreproduced.
#   tools/fuzz.sh --ci SECONDS      CI's short run (the test fuzz.short): the seeds alone in a
#                                   scratch corpus, one process, a 30 s hang limit, stopping at the
#                                   first crash (and failing). A hang that does not hang again (the
#                                   biggest seeds take 10 s under the sanitizers on a busy machine)
#                                   ends the run early but is not a finding.
#
# <build> is build-san (tools/sanitize.sh builds it), or $TILEC_SAN_BUILD. At the end it prints the
# executions, the time, executions per second and the corpus size, and appends them to
# <build>/fuzz/history.log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_SAN_BUILD:-$root/build-san}
ci=false
if [ "${1:-}" = --ci ]; then
  ci=true
  shift
fi
seconds=${1:-600}
jobs=${2:-1}
if [ ! -x "$build/tests/fuzz/tilec_fuzz" ]; then
  echo "tools/fuzz.sh: $build/tests/fuzz/tilec_fuzz not found; build it with tools/sanitize.sh --build-only" >&2
  exit 2
fi

work=$build/fuzz
$ci && work=$build/fuzz-ci
seeds=$work/seeds
rm -rf "$seeds" "$work/tmp"
$ci && rm -rf "$work/corpus" "$work/artifacts"
mkdir -p "$work/corpus" "$work/artifacts" "$work/tmp"
"$root/tests/fuzz/seeds.sh" "$root" "$seeds"
# The campaign runs its own copy: a rebuild of build-san meanwhile does not change it.
fuzzer=$work/tilec_fuzz
cp "$build/tests/fuzz/tilec_fuzz" "$fuzzer"
found() { find "$work/artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort; }
before=$(found)

# Each fuzzer process writes its precompiled <tilec/tl.hpp> under TMPDIR (removed at exit, but not
# after a crash): keep those in the work folder.
export TMPDIR=$work/tmp
# Clang's parser recurses once per prefix operator, about 4 KB a level: past roughly 2000 of
# them ('!!!!...c') it runs out of the default 8 MB stack (clang++-19 crashes too) before tilec
# sees the code. 256 MB carries it through any input of -max_len bytes, so that fuzzing goes on in
# tilec's code, whose own recursion is bounded (kMaxNesting: 256 levels, tested on 8 MB).
ulimit -s 262144 2>/dev/null || echo "tools/fuzz.sh: cannot raise the stack limit; Clang may overflow on deep input" >&2
# ASan keeps 256 MB of freed memory in quarantine by default; Clang (not instrumented, but its
# allocations go through ASan) frees so much per translation that the quarantine's churn costs a
# quarter of the time. 16 MB still spans tilec's own use-after-free windows (within one pass).
export ASAN_OPTIONS=quarantine_size_mb=16${ASAN_OPTIONS:+:$ASAN_OPTIONS}
# Leaks that Clang itself makes are not tilec's (tools/lsan.supp says which).
export LSAN_OPTIONS=suppressions=$root/tools/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}
flags=(-dict="$root/tests/fuzz/tilec.dict" -rss_limit_mb=4096 -max_len=16384
       -max_total_time="$seconds" -artifact_prefix="$work/artifacts/" -print_final_stats=1)
log=$work/fuzz.log
start=$SECONDS
status=0
if $ci; then
  timeout=30
  "$fuzzer" "${flags[@]}" -timeout=$timeout "$work/corpus" "$seeds" </dev/null >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
else
  timeout=30
  echo "tools/fuzz.sh: fuzzing for $seconds s with $jobs worker(s); logs: $work/worker-*.log"
  # Each worker is one fuzzer process on the shared corpus (libFuzzer picks up the others' finds,
  # -reload), started again after a crash until the time is up. A run that fails within a minute
  # ends its worker: an input that fails at once would otherwise fail again and again.
  deadline=$((SECONDS + seconds))
  worker() {
    local log=$work/worker-$1.log began
    : >"$log"
    while ((SECONDS < deadline - 5)); do
      began=$SECONDS
      if ! nice -n 10 "$fuzzer" "${flags[@]}" -timeout=$timeout -max_total_time=$((deadline - SECONDS)) \
          "$work/corpus" "$seeds" </dev/null >>"$log" 2>&1; then
        ((SECONDS - began >= 60)) || return 1
      fi
    done
  }
  pids=()
  for ((i = 1; i <= jobs; i++)); do
    worker "$i" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do
    wait "$p" || status=1
  done
  cat "$work"/worker-*.log >"$log"
  runs=$(awk '/^stat::number_of_executed_units:/ {n += $2} END {print n + 0}' "$log")
fi
elapsed=$((SECONDS - start))
runs=${runs:-0}
corpus=$(find "$work/corpus" -type f | wc -l)
new=$(comm -13 <(echo "$before") <(found) | grep . || true)
unreproduced=0
for f in $new; do
  case "$(basename "$f")" in
    timeout-*)
      if timeout $((3 * timeout)) "$fuzzer" -timeout=$timeout "$f" </dev/null >/dev/null 2>&1; then
        mkdir -p "$work/artifacts/unreproduced"
        mv "$f" "$work/artifacts/unreproduced/"
        echo "tools/fuzz.sh: $(basename "$f") did not hang again (a busy machine): artifacts/unreproduced/"
        new=$(grep -vxF "$f" <<<"$new" || true)
        unreproduced=$((unreproduced + 1))
      fi ;;
  esac
done
count=$(grep -c . <<<"$new" || true)
# libFuzzer exits with 70 at a timeout: in CI's single run, one that did not hang again stopped the
# run early and is not a finding.
if $ci && [ "$status" = 70 ] && [ "$count" = 0 ] && [ "$unreproduced" -gt 0 ]; then
  echo "tools/fuzz.sh: the run stopped at a timeout that did not hang again (artifacts/unreproduced/)"
  status=0
fi
summary="$runs executions in $elapsed s ($((runs / (elapsed > 0 ? elapsed : 1))) exec/s), corpus $corpus inputs, $count new in $work/artifacts"
echo "tools/fuzz.sh: $summary"
$ci || echo "$(date -u +%FT%TZ) jobs=$jobs $summary" >>"$work/history.log"
if [ "$status" != 0 ] || [ "$count" != 0 ]; then
  tail -n 60 "$log" >&2
  [ -n "$new" ] && printf 'tools/fuzz.sh: new: %s\n' $new >&2
  echo "tools/fuzz.sh: the fuzzer found a problem (exit status $status); reproduce with: $build/tests/fuzz/tilec_fuzz <artifact>" >&2
  exit 1
fi
