#!/usr/bin/env bash
# CI's fuzzing step (make fuzz-smoke): every corpus input as a regression test, then a
# bounded libFuzzer session seeded with the corpus. TAP; a crash, leak, sanitizer report
# or timeout is "not ok" with the reproducer's path.
# Usage: tests/fuzz/smoke.sh [SECONDS]   (default 60)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUTPUT:-$top/build}/fuzz
fuzzer=$out/fuzz_report
secs=${1:-60}
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }

[ -x "$fuzzer" ] || { echo "not ok 1 - $fuzzer is missing (make $fuzzer)"; exit 1; }
mkdir -p "$out/artifacts"

# Each input alone, so a failure names its file.
for f in "$top"/tests/fuzz/corpus/*; do
	[ -f "$f" ] || continue
	if "$fuzzer" -runs=1 "$f" >"$out/regress.log" 2>&1; then
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
echo "1..$n"
[ "$failed" -eq 0 ]
