#!/usr/bin/env bash
# CI's fuzzing step (make fuzz-smoke): every corpus input as a regression test, then a
# bounded libFuzzer session seeded with the corpus. TAP; a crash, leak, sanitizer report
# or timeout is "not ok" with the reproducer's path.
# Usage: tests/fuzz/smoke.sh [SECONDS]   (default 60)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUTPUT:-$top/build}/fuzz
fuzzer=$out/fuzz_report
supp_fuzzer=$out/fuzz_suppress
base_fuzzer=$out/fuzz_baseline
secs=${1:-60}
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }

[ -x "$fuzzer" ] || { echo "not ok 1 - $fuzzer is missing (make $fuzzer)"; exit 1; }
[ -x "$supp_fuzzer" ] || { echo "not ok 1 - $supp_fuzzer is missing (make $supp_fuzzer)"; exit 1; }
[ -x "$base_fuzzer" ] || { echo "not ok 1 - $base_fuzzer is missing (make $base_fuzzer)"; exit 1; }
mkdir -p "$out/artifacts"

# Each input alone, so a failure names its file: recordings to fuzz_report, suppression
# files (*.supp) to fuzz_suppress, JSON reports (*.json, baselines) to fuzz_baseline.
for f in "$top"/tests/fuzz/corpus/*; do
	[ -f "$f" ] || continue
	target=$fuzzer
	case "$f" in *.supp) target=$supp_fuzzer ;; *.json) target=$base_fuzzer ;; esac
	if "$target" -runs=1 "$f" >"$out/regress.log" 2>&1; then
		ok "corpus/$(basename "$f")"
	else
		not_ok "corpus/$(basename "$f")" "$(grep -m3 -E 'ERROR|SUMMARY|bad error' "$out/regress.log")"
	fi
done

# New inputs go to a scratch directory: CI never writes into the source tree.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nice -n 10 "$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-dict="$top/tests/fuzz/report.dict" -artifact_prefix="$out/artifacts/" -print_final_stats=1 \
	"$work" "$top/tests/fuzz/corpus" >"$out/session.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/session.log")
if [ "$rc" -eq 0 ]; then
	ok "fuzzed ${secs}s: ${runs:-?} inputs, no finding"
else
	not_ok "fuzz session (${secs}s) found a problem" \
		"$(grep -m5 -E 'ERROR|SUMMARY|bad error|Test unit written' "$out/session.log")" \
		"full log: $out/session.log"
fi
# The suppression parser, a third of the time, seeded with the *.supp files.
mkdir "$work/supp" "$work/supp-seeds"
cp "$top"/tests/fuzz/corpus/*.supp "$work/supp-seeds/"
ssecs=$(( secs / 3 > 5 ? secs / 3 : 5 ))
nice -n 10 "$supp_fuzzer" -max_total_time="$ssecs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
	-artifact_prefix="$out/artifacts/supp-" -print_final_stats=1 \
	"$work/supp" "$work/supp-seeds" >"$out/session-supp.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/session-supp.log")
if [ "$rc" -eq 0 ]; then
	ok "suppression parser fuzzed ${ssecs}s: ${runs:-?} inputs, no finding"
else
	not_ok "suppression parser fuzz session (${ssecs}s) found a problem" \
		"$(grep -m5 -E 'ERROR|SUMMARY|bad error|does not match|Test unit written' "$out/session-supp.log")" \
		"full log: $out/session-supp.log"
fi
# The baseline reader, a sixth of the time, seeded with the *.json reports.
mkdir "$work/base" "$work/base-seeds"
cp "$top"/tests/fuzz/corpus/*.json "$work/base-seeds/"
bsecs=$(( secs / 6 > 5 ? secs / 6 : 5 ))
nice -n 10 "$base_fuzzer" -max_total_time="$bsecs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-artifact_prefix="$out/artifacts/base-" -print_final_stats=1 \
	"$work/base" "$work/base-seeds" >"$out/session-base.log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/session-base.log")
if [ "$rc" -eq 0 ]; then
	ok "baseline reader fuzzed ${bsecs}s: ${runs:-?} inputs, no finding"
else
	not_ok "baseline reader fuzz session (${bsecs}s) found a problem" \
		"$(grep -m5 -E 'ERROR|SUMMARY|bad error|out of order|Test unit written' "$out/session-base.log")" \
		"full log: $out/session-base.log"
fi
echo "1..$n"
[ "$failed" -eq 0 ]
