#!/bin/sh
# Builds the libFuzzer targets of Fuzz/ and runs each on its seed corpus, one after another.
#
# FUZZ_SECONDS (default 60) bounds each run; FUZZ_RUNS, when set, stops a target after that
# many inputs (FUZZ_SECONDS=0 FUZZ_RUNS=1000000 runs a million each, however long it takes);
# FUZZ_TARGETS picks some (e.g. "png regions"). Prints libFuzzer's summary line for each
# target and exits 1 when any crashed, leaked, ran out of memory or timed out; the input that
# did it is saved in out/fuzz/TARGET/ and can be replayed with `Fuzz/.build/release/fuzz-TARGET FILE`.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
seconds=${FUZZ_SECONDS:-60}
out=$root/out/fuzz
bin=$root/Fuzz/.build/release
targets=${FUZZ_TARGETS:-$(cd "$root/Fuzz/Sources" && ls -d fuzz-* | sed 's/^fuzz-//')}

# A scratch folder of its own, so the main package's objects are never reused uninstrumented.
# With two --sanitize options, swift build 6.3 hands the compiler only one of them, picked at
# random per build (a set's order), so Swift code came out with coverage or with ASan, never
# both; the explicit -sanitize=fuzzer,address comes last and wins. --sanitize still sets up
# the C targets and the link. Testable imports let the report target build an agent report.
echo "building fuzz targets (release, -sanitize=fuzzer,address)"
mkdir -p "$out"
"$swift" build --package-path "$root/Fuzz" --scratch-path "$root/Fuzz/.build" -c release \
    --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
    -Xswiftc -enable-testing -Xswiftc -warnings-as-errors >"$out/build.log" 2>&1
status=$?
# ld.gold's note on an ASan symbol comes once per link and means nothing here.
grep -v "Cannot export local symbol '__asan_extra_spill_area'" "$out/build.log"
if [ "$status" -ne 0 ]; then
    echo "fuzz targets: FAILED: the build failed (exit $status)"
    exit 1
fi
failed=0
for target in $targets; do
    work=$out/$target
    # New inputs go to the work corpus (listed first); the seeds in the repository stay as they are.
    mkdir -p "$work/corpus"
    rm -f "$work/log"
    if [ ! -x "$bin/fuzz-$target" ]; then
        echo "fuzz-$target: FAILED: not built (see the build output above)"
        failed=1
        continue
    fi
    # Swift's own crash handler, run after a failed check's trap, reads memory that ASan then
    # reports as a stack-buffer-underflow of its own, hiding the real cause; libFuzzer reports.
    SWIFT_BACKTRACE=enable=no "$bin/fuzz-$target" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/" \
        "$work/corpus" "$root/Fuzz/corpus/$target" >"$work/log" 2>&1
    status=$?
    summary=$(grep -E '^(SUMMARY: |Done [0-9]+ runs)' "$work/log" | tail -n 1)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
    # Without coverage in the Swift code only the C shim's hundred-odd counters are left,
    # and libFuzzer runs blind while reporting success.
    counters=$(sed -n 's/^INFO: Loaded [0-9]* modules *(\([0-9]*\) inline 8-bit counters.*/\1/p' "$work/log" | head -n 1)
    if [ "${counters:-0}" -lt 1000 ]; then
        echo "fuzz-$target: FAILED: only ${counters:-no} coverage counters: the Swift code is not instrumented (log: $work/log)"
        failed=1
    elif [ "$status" -ne 0 ] || [ -z "$summary" ]; then
        echo "fuzz-$target: FAILED (exit $status): ${summary:-no summary line} (log and input: $work/)"
        grep -E '^(==[0-9]+==ERROR|Fatal error|.*fuzz property broken)' "$work/log" | head -n 3 | sed 's/^/    /'
        failed=1
    else
        echo "fuzz-$target: $summary (${runs:-?} inputs)"
    fi
done
exit $failed
