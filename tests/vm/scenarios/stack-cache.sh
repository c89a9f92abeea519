# The stack cache (bpf/track/stack_cache.bpf.h). With PDTRACE_STACK_CACHE_VERIFY=1 every
# stack a program takes from kept ORC entries is unwound by the kernel as well and the
# two compared, whether each frame's step was looked up or was a recent unwind's. On
# configfs (nvmet: frames in modules), tracefs instances, debugfs entries a module's
# init makes, across unloads and reloads of that module (each retires what was kept
# about its code), and faultfs mounts: most stacks come from the cache, every one of
# them equals the kernel's unwind, and check's verdict is unchanged. Without the cache
# (PDTRACE_NO_STACK_CACHE=1) -v says so, and the verdict is the same. (pdt-fsop cycle:
# one task's mkdirs and rmdirs, each at another random offset of its kernel stack.)
# A tracefs instance made before pdtrace starts is removed with it running: its files
# are streamed, and the removal's start with them, whose stack is walked from the
# removal's entry registers when that start is sent, and checked against the end of
# the kernel's unwind from there. Stacks taken again from the same frame (a configfs
# group's default groups) come from the memo of the last unwind, checked like the
# others: within one call, and across one task's calls, each of which moves the frames
# by a random offset. Under the function graph tracer (on configfs_mkdir and
# vfs_mkdir), the same. On arm64, which has no stack cache, -v says it is off and the same
# runs must give the same verdicts.
# timeout: 300
# modules: nvmet nvme-loop
# kmods: pdt_faultfs
. /lib.sh
# hits checked kept unwound same unlisted: what -v's line in $1 says of the cache.
cache_counts() {
	set -- $(sed -n 's/^pdtrace: stack cache: \([0-9]*\) stacks from kept ORC entries (\([0-9]*\) checked .*, \([0-9]*\) by a recent unwind.s steps), \([0-9]*\) unwound by the kernel.*; \([0-9]*\) stacks were the last unwind.s again; \([0-9]*\) path lookups missed the table of hooked functions$/\1 \2 \3 \4 \5 \6/p' "$1")
	hits=${1:-0} checked=${2:--1} kept=${3:-0} unwound=${4:-0} same=${5:-0} unlisted=${6:--1}
}
grep -qs ' /sys/kernel/config ' /proc/self/mountinfo || mount -t configfs none /sys/kernel/config
grep -qs ' /sys/kernel/tracing ' /proc/self/mountinfo || mount -t tracefs none /sys/kernel/tracing
grep -qs ' /sys/kernel/debug ' /proc/self/mountinfo || mount -t debugfs none /sys/kernel/debug
s=/sys/kernel/config/nvmet/subsystems/nqn.2024-01.org.pdtrace:sc
ti=/sys/kernel/tracing/instances/pdt-sc
old=/sys/kernel/tracing/instances/pdt-sc-old
ko=/lib/modules/pdt_faultfs.ko
mkdir -p /mnt/scf
wl="for i in \$(seq 20); do mkdir $s && rmdir $s || exit 1; done
pdt-fsop cycle $s 20 || exit 1
for i in 1 2 3; do mkdir $ti && rmdir $ti || exit 1; done
rmdir $old || exit 1
for i in 1 2 3; do rmmod pdt_faultfs && insmod $ko || exit 1; done
for i in 1 2 3 4 5; do mount -t pdtfaultfs pdtfaultfs /mnt/scf && umount /mnt/scf || exit 1; done"

mkdir $old
PDTRACE_STACK_CACHE_VERIFY=1 $PDTRACE -v check -- sh -c "$wl" >/tmp/sc.out 2>&1
expect_eq "$?" 0 "check exit status, every cached stack verified"
grep -E '^pdtrace: (stack cache|warning)|^summary|^command' /tmp/sc.out
if cached /tmp/sc.out "the workload"; then
	cache_counts /tmp/sc.out
	[ "$hits" -ge 60 ] && pass "$hits stacks from the cache" || fail "only $hits stacks from the cache"
	# Stacks whose every step was a recent unwind's are among the hits, checked as all are.
	[ "$kept" -ge 30 ] && [ "$kept" -lt "$hits" ] && pass "$kept of them by a recent unwind's steps" ||
		fail "$kept of $hits stacks by a recent unwind's steps"
	expect_eq "$checked" "$hits" "every stack from the cache checked against the kernel's unwind"
	# A configfs group's three default groups are made from one frame: the second and third
	# stacks are the first's, their words read again (the memo), and checked as all are.
	[ "$same" -ge 40 ] && [ "$same" -lt "$hits" ] && pass "$same of them the last unwind's again" ||
		fail "$same of $hits stacks the last unwind's again"
	[ "$hits" -gt "$unwound" ] && pass "more stacks from the cache than unwound ($unwound)" ||
		fail "$unwound stacks unwound by the kernel, $hits from the cache"
	# A stack's first frame is its hooked function's __fentry__ call (4 bytes in, with IBT):
	# it finds the function's own path in the table, not one by a hash of its address.
	expect_eq "$unlisted" 0 "every stack's function found its path in the table of hooked functions"
fi
expect_no_grep 'differed from the kernel' /tmp/sc.out "no cached stack differed"
expect_grep '^summary: 0 leak, 0 imbalance, 0 illegal-removal$' /tmp/sc.out "no findings"

# One task's 20 cycles: 3 stacks each, of which the memo within a call gives 2 (40); across
# its calls, where each call's offset moves the frames and the words with them, all but
# the very first.
PDTRACE_STACK_CACHE_VERIFY=1 $PDTRACE -v check -- pdt-fsop cycle $s 20 >/tmp/cy.out 2>&1
expect_eq "$?" 0 "check exit status, one task's cycles"
if cached /tmp/cy.out "one task's cycles"; then
	cache_counts /tmp/cy.out
	[ "$same" -ge 50 ] && pass "$same of $hits stacks the last unwind's again, across calls" ||
		fail "$same of $hits stacks the last unwind's again, across calls"
	expect_eq "$checked" "$hits" "every one of them checked against the kernel's unwind"
	expect_eq "$unlisted" 0 "and each found its path in the table"
fi
expect_no_grep 'differed from the kernel' /tmp/cy.out "none differed across calls"

mkdir $old
PDTRACE_NO_STACK_CACHE=1 $PDTRACE -v check -- sh -c "$wl" >/tmp/nc.out 2>&1
expect_eq "$?" 0 "check exit status without the cache"
expect_grep '^pdtrace: stack cache off: the kernel unwinds every stack$' /tmp/nc.out "-v: the cache is off"
expect_grep '^summary: 0 leak, 0 imbalance, 0 illegal-removal$' /tmp/nc.out "no findings without it"
# Under the function graph tracer, the return addresses of the functions it traces are
# its trampoline's on the stack; the cache's unwind takes them back from the task's
# shadow stack (pdt_sc_graph_ret()), as the kernel's does.
T=/sys/kernel/tracing
echo 'configfs_mkdir vfs_mkdir' >$T/set_ftrace_filter
echo function_graph >$T/current_tracer
mkdir $old
PDTRACE_STACK_CACHE_VERIFY=1 $PDTRACE -v check -- sh -c "for i in \$(seq 20); do mkdir $s && rmdir $s || exit 1; done; rmdir $old" >/tmp/fg.out 2>&1
rc=$?
graphed=$(grep -c 'configfs_mkdir' $T/trace)
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
expect_eq "$rc" 0 "check exit status under the function graph tracer"
[ "$graphed" -ge 20 ] && pass "the graph tracer traced configfs_mkdir ($graphed lines)" ||
	fail "the graph tracer traced configfs_mkdir $graphed times"
if cached /tmp/fg.out "under the graph tracer"; then
	cache_counts /tmp/fg.out
	# Three default groups a cycle, each with its stack; the first cycle's may be the kernel's.
	[ "$hits" -ge 57 ] && pass "$hits stacks from the cache through the graph tracer's frames" ||
		fail "only $hits stacks from the cache under the graph tracer"
	expect_eq "$checked" "$hits" "every one checked against the kernel's unwind"
fi
expect_no_grep 'differed from the kernel' /tmp/fg.out "none differed under the graph tracer"
finish
