# pdtrace doctor passes on the kernel under test, with every required row ok; where the
# kernel has /proc/config.gz (make kernel's does, Debian's does not), doctor reads it and
# finds every option of its table set, and doctor --config on it agrees.
# timeout: 60
# modules: configfs
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
# configfs_rmdir() is in configfs's BTF where configfs is a module (split BTF, names in
# its own strings and vmlinux's), in the kernel's where it is built in.
if grep -q '^configfs ' /proc/modules; then
	expect_grep '^hook configfs_rmdir()  *ok ' /tmp/doctor.out "configfs a module: its hook found in its BTF"
else
	expect_grep '^hook configfs_rmdir()  *ok ' /tmp/doctor.out "configfs built in: its hook found in the kernel's BTF"
fi
expect_grep '^DCACHE_PERSISTENT  *ok  *enum dentry_flags = 0x[0-9a-f]*[1-9a-f][0-9a-f]*$' /tmp/doctor.out \
	"DCACHE_PERSISTENT's value read from BTF"
if [ -e /proc/config.gz ]; then
	expect_grep '^kernel configuration: /proc/config.gz$' /tmp/doctor.out "doctor reads /proc/config.gz"
	expect_no_grep '^CONFIG_[A-Z0-9_]*  *\(MISSING\|absent\) ' /tmp/doctor.out "every option of doctor's table is set"
	$PDTRACE doctor --config /proc/config.gz >/tmp/doctor-config.out 2>&1
	expect_eq "$?" 0 "doctor --config /proc/config.gz"
	expect_grep '^verdict: this configuration lets pdtrace trace$' /tmp/doctor-config.out "doctor --config verdict"
else
	expect_no_grep '^kernel configuration:' /tmp/doctor.out "no configuration to read, none claimed"
fi
finish
