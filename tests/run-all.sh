#!/usr/bin/env bash
# The whole test suite: host unit tests (cmocka), host command-line tests, and the
# scenarios on the real kernel in a VM. Each suite speaks TAP; this script shows it
# and closes with one line: "N passed, N failed[, N skipped]".
# --host: the host suites only, the fuzzer on its corpus and FUZZ_TIME seconds of
# fuzzing (make check: the fast suite, no VM).
set -u
host_only=0
[ "${1:-}" = --host ] && host_only=1
top=$(cd "$(dirname "$0")/.." && pwd)
build=${OUTPUT:-$top/build}
passed=0 failed=0 skipped=0
# The part of the arm64 VM suite make test runs (the whole of it takes 13 to 26 minutes on
# 2 cores: make vmtest-arm64): the doctor, the USB gadget filesystems on dummy_hcd, every kind
# of finding with its stacks on the fault module (check-faultfs), a bug's signature
# equal to the one recorded on x86-64 (signatures), and a full table of kernel stacks
# (stacks-full).
arm64_scenarios=(doctor fs-functionfs fs-gadgetfs check-faultfs signatures stacks-full)

suite() { # name command...
	local name=$1; shift
	local log rc p f s
	log=$(mktemp)
	echo "# === $name"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	p=$(grep -cE '^ok [0-9]+' "$log" | head -n1)
	s=$(grep -cE '^ok [0-9]+.*# SKIP' "$log")
	f=$(grep -cE '^not ok [0-9]+' "$log")
	p=$((p - s))
	# A suite that died without saying which test failed still fails.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name exited with status $rc"
		f=1
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	rm -f "$log"
}

for t in "$build"/tests/test_*; do
	[ -x "$t" ] && CMOCKA_MESSAGE_OUTPUT=TAP suite "unit/$(basename "$t")" "$t"
done
suite host/cli "$top/tests/host/cli.sh"
suite host/man "$top/tests/host/man.sh"
suite host/completion "$top/tests/host/completion.sh"
suite host/service "$top/tests/host/service.sh"
# The kernel make kernel builds has every module the VM scenarios load (kconfig/).
suite host/kconfig "$top/tests/host/kconfig.sh"
suite host/bench-report "$top/tests/host/bench_report.sh"
# The recording reader under libFuzzer: corpus as regression tests, then ~60 s of fuzzing.
suite fuzz make -s -C "$top" fuzz-smoke
# The Debian package, installed into a cached Debian 12 root (made once, from the network).
[ "$host_only" = 1 ] || suite host/deb "$top/tests/host/deb.sh"
[ "$host_only" = 1 ] || suite vm "$top/tests/vm/run.sh"
# arm64 (make arm64 built it): the binary on the host, its package, and a part of the VM
# suite on Debian's arm64 kernel (make vmtest-arm64 runs all of it; docs/arm64.md).
if [ "$host_only" != 1 ]; then
	suite host/arm64 "$top/tests/host/arm64.sh"
	suite host/deb-arm64 env DEB_ARCH=arm64 "$top/tests/host/deb.sh"
	suite vm-arm64 env PDTRACE_ARCH=arm64 OUTPUT="$build/arm64" "$top/tests/vm/run.sh" "${arm64_scenarios[@]}"
fi
# The CI recipes of docs/ci.md, run as written.
[ "$host_only" = 1 ] || suite vm/ci-recipe "$top/tests/vm/ci-recipe.sh"

if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
