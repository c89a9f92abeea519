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
merge_fuzzer=$out/fuzz_merge
kconfig_fuzzer=$out/fuzz_kconfig
secs=${1:-60}
. "$top/tests/tap.sh"

[ -x "$fuzzer" ] || { echo "not ok 1 - $fuzzer is missing (make $fuzzer)"; exit 1; }
[ -x "$supp_fuzzer" ] || { echo "not ok 1 - $supp_fuzzer is missing (make $supp_fuzzer)"; exit 1; }
[ -x "$base_fuzzer" ] || { echo "not ok 1 - $base_fuzzer is missing (make $base_fuzzer)"; exit 1; }
[ -x "$merge_fuzzer" ] || { echo "not ok 1 - $merge_fuzzer is missing (make $merge_fuzzer)"; exit 1; }
[ -x "$kconfig_fuzzer" ] || { echo "not ok 1 - $kconfig_fuzzer is missing (make $kconfig_fuzzer)"; exit 1; }
mkdir -p "$out/artifacts"

# Each input alone, so a failure names its file: recordings to fuzz_report, suppression
# files (*.supp) to fuzz_suppress, JSON reports (*.json, baselines) to fuzz_baseline,
# merges (*.merge: suppressions, baseline, recordings) to fuzz_merge, kernel
# configurations (*.config) to fuzz_kconfig.
for f in "$top"/tests/fuzz/corpus/*; do
	[ -f "$f" ] || continue
	target=$fuzzer
	case "$f" in
	*.supp) target=$supp_fuzzer ;;
	*.json) target=$base_fuzzer ;;
	*.merge) target=$merge_fuzzer ;;
	*.config) target=$kconfig_fuzzer ;;
	esac
	if "$target" -runs=1 "$f" >"$out/regress.log" 2>&1; then
		ok "corpus/$(basename "$f")"
	else
		not_ok "corpus/$(basename "$f")" "$(grep -m3 -E 'ERROR|SUMMARY|bad error' "$out/regress.log")"
	fi
done

# session WHAT FUZZER SECONDS LOG PROBLEMS ARGS...: a bounded libFuzzer session; a line
# of its log matching PROBLEMS (beside sanitizer reports) is shown when it fails.
session() {
	local what=$1 target=$2 s=$3 log=$out/$4 problems=$5 rc runs
	shift 5
	nice -n 10 "$target" -max_total_time="$s" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 "$@" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ "$rc" -eq 0 ]; then
		ok "${what}fuzzed ${s}s: ${runs:-?} inputs, no finding"
	else
		not_ok "${what}fuzz session (${s}s) found a problem" \
			"$(grep -m5 -E "ERROR|SUMMARY|bad error|${problems}Test unit written" "$log")" \
			"full log: $log"
	fi
}

# New inputs go to a scratch directory: CI never writes into the source tree.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
session "" "$fuzzer" "$secs" session.log "" -max_len=65536 -dict="$top/tests/fuzz/report.dict" \
	-artifact_prefix="$out/artifacts/" "$work" "$top/tests/fuzz/corpus"
# The suppression parser, a third of the time, seeded with the *.supp files.
mkdir "$work/supp" "$work/supp-seeds"
cp "$top"/tests/fuzz/corpus/*.supp "$work/supp-seeds/"
session "suppression parser " "$supp_fuzzer" $((secs / 3 > 5 ? secs / 3 : 5)) session-supp.log \
	"does not match|" -max_len=16384 -artifact_prefix="$out/artifacts/supp-" \
	"$work/supp" "$work/supp-seeds"
# The baseline reader, a sixth of the time, seeded with the *.json reports.
mkdir "$work/base" "$work/base-seeds"
cp "$top"/tests/fuzz/corpus/*.json "$work/base-seeds/"
session "baseline reader " "$base_fuzzer" $((secs / 6 > 5 ? secs / 6 : 5)) session-base.log \
	"out of order|" -max_len=65536 -artifact_prefix="$out/artifacts/base-" \
	"$work/base" "$work/base-seeds"
# The gate and the merge of recordings, a sixth of the time, seeded with the *.merge files.
mkdir "$work/merge" "$work/merge-seeds"
cp "$top"/tests/fuzz/corpus/*.merge "$work/merge-seeds/"
session "gate and merge " "$merge_fuzzer" $((secs / 6 > 5 ? secs / 6 : 5)) session-merge.log \
	"gate counted|merge status|" -max_len=65536 -dict="$top/tests/fuzz/report.dict" \
	-artifact_prefix="$out/artifacts/merge-" "$work/merge" "$work/merge-seeds"
# The .config reader of doctor --config, a sixth of the time, seeded with the *.config files.
mkdir "$work/kconfig" "$work/kconfig-seeds"
cp "$top"/tests/fuzz/corpus/*.config "$work/kconfig-seeds/"
session "kernel configuration reader " "$kconfig_fuzzer" $((secs / 6 > 5 ? secs / 6 : 5)) \
	session-kconfig.log "bad value|bad release|" -max_len=16384 \
	-artifact_prefix="$out/artifacts/kconfig-" "$work/kconfig" "$work/kconfig-seeds"
echo "1..$n"
[ "$failed" -eq 0 ]
