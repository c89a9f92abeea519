# pdtrace trace -f json ends with a summary object that says what the text summary's
# coverage lines say: the rules lost to a hook this kernel lacks ("coverage_lost"), as
# check's JSON report does. In a boot of its own without configfs (a module on Debian's
# kernel), configfs_rmdir() cannot be hooked: the list names it. Found by the exerciser,
# whose trace loaded configfs after it started and whose JSON summary did not say that
# configfs's illegal-removal rule was off.
# timeout: 120
# boot: own
. /lib.sh
grep -qw configfs /proc/filesystems && skip_reason="configfs is there"
$PDTRACE trace -f json --duration 1 >/tmp/trj.out 2>/tmp/trj.err
expect_eq "$?" 0 "trace exits 0"
tail -n1 /tmp/trj.out
$PDTRACE check -f json -o /tmp/chk.json -- true
expect_eq "$?" 0 "check exits 0"
trace_cov=$(tail -n1 /tmp/trj.out | sed -n 's/.*"coverage_lost":\(\[[^]]*\]\).*/\1/p')
check_cov=$(sed -n 's/.*"coverage_lost":\(\[[^]]*\]\).*/\1/p' /tmp/chk.json)
[ -n "$trace_cov" ] && pass "the summary object has coverage_lost: $trace_cov" ||
	fail "no coverage_lost in the summary object"
expect_eq "$trace_cov" "$check_cov" "trace's coverage_lost is check's"
if [ -z "${skip_reason:-}" ]; then
	expect_grep '"coverage_lost":\[[^]]*configfs_rmdir() not traceable here: lost illegal-removal of configfs directories' \
		/tmp/trj.out "configfs_rmdir() is named: configfs is not loaded"
fi
finish
