# TAP for the test scripts that print it themselves (sourced): ok, not_ok, skip, check.
# Every line of a diagnostic starts with "#", so that none can read as a test result.
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# check STATUS NAME DIAGNOSTIC...: pass $? first (inside the function it would be the
# status of the diagnostics' command substitutions); returns STATUS.
check() {
	local rc=$1 name=$2
	shift 2
	if [ "$rc" -eq 0 ]; then ok "$name"; else not_ok "$name" "$@"; fi
	return "$rc"
}
