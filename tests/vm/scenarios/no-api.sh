# On a kernel without the persistent-dentry API (Debian 13's packaged 6.12), doctor and
# check say so in one line each and exit 2, with no libbpf noise.
# timeout: 60
# kernel: trixie
. /lib.sh
expect_eq "$(uname -r | cut -d. -f1-2)" 6.12 "booted Debian 13's kernel"
$PDTRACE doctor >/tmp/d.out 2>/tmp/d.err
expect_eq "$?" 2 "doctor exit status"
cat /tmp/d.out
expect_grep "^problem: kernel $(uname -r) lacks the persistent-dentry API (missing from its BTF: d_make_persistent(), d_make_discardable(), DCACHE_PERSISTENT): pdtrace needs a kernel that has it, such as Debian's 7.2 (pdtrace's 'make demo' boots one in a VM)$" /tmp/d.out "doctor: one line says the API is missing"
expect_grep '^fentry attach  *ok ' /tmp/d.out "doctor: attaching itself works on this kernel (dput)"
expect_grep '^verdict: pdtrace cannot trace on this kernel$' /tmp/d.out "doctor: verdict"
expect_eq "$(wc -c </tmp/d.err)" 0 "doctor: nothing on stderr"
for cmd in "check -- true" "trace -d 1" "watch -n 1" "stat -- true"; do
	$PDTRACE $cmd >/tmp/c.out 2>/tmp/c.err
	expect_eq "$?" 2 "$cmd: exit status"
	expect_eq "$(wc -l </tmp/c.err)" 1 "$cmd: one line on stderr"
	# doctor's problem line, word for word: one verdict, in one set of words
	expect_grep "^pdtrace: ${cmd%% *}: kernel $(uname -r) lacks the persistent-dentry API (missing from its BTF: d_make_persistent(), d_make_discardable(), DCACHE_PERSISTENT): pdtrace needs a kernel that has it, such as Debian's 7.2 (pdtrace's 'make demo' boots one in a VM)$" /tmp/c.err "$cmd: doctor's line, naming what is missing"
done
finish
