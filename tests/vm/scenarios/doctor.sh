# pdtrace doctor passes on the packaged kernel, with every required row ok.
# timeout: 60
. /lib.sh
$PDTRACE doctor >/tmp/doctor.out 2>&1
rc=$?
cat /tmp/doctor.out
expect_eq "$rc" 0 "doctor exit status"
for what in 'kernel BTF' 'd_make_persistent()' 'd_make_discardable()' 'hook dput()' \
	'hook __d_move()' 'hook dentry_kill()' DCACHE_PERSISTENT privileges 'fentry attach'; do
	expect_grep "^$what  *ok " /tmp/doctor.out "$what is ok"
done
expect_grep '^verdict: pdtrace can trace on this kernel' /tmp/doctor.out "verdict"
finish
