# The table of kernel stacks full: a removal's stack is taken at its entry, into that
# table. With PDTRACE_TESTING=kstacks=4 pdtrace has a table of 4 stacks, which a tracefs
# instance's creation fills. A removal whose start is sent (it destroys a user's entries) goes without
# its stack: map_full counts it, the data is incomplete. A removal whose start is never
# sent (its root alone: pdtfaultfs' kdir emptied first) has lost nothing: the data stays
# complete. pdtrace itself, with its 4096 stacks, has room for both.
# timeout: 180
# kmods: pdt_faultfs
. /lib.sh
tiny=pdtrace_tiny
pdtrace_tiny() { PDTRACE_TESTING=kstacks=4 $PDTRACE "$@"; }
grep -qs ' /sys/kernel/tracing ' /proc/self/mountinfo || mount -t tracefs none /sys/kernel/tracing
ti=/sys/kernel/tracing/instances/pdt-full
# The JSON report's "complete", lost_events and map_full; how many findings of a rule.
books() { sed -n 's/.*"complete":\([a-z]*\),"lost_events":\([0-9]*\),"map_full":\([0-9]*\).*/\1 \2 \3/p' "$1"; }
rules() { grep -o '"rule":"[a-z-]*"' "$1" | wc -l; }
# The stack a finding on /kdir/u/f shows: the removal's, from where it started.
f_stack='"path":"/kdir/u/f","origin":"user",[^}]*"stack":'
removal_stack="$f_stack"'\["simple_recursive_removal+0x[0-9a-f]*","pdt_remove+'


# run BINARY NAME: under BINARY, a tracefs instance made (its stacks fill a small table),
# then on a fresh pdtfaultfs, kdir emptied by its user and removed, and on another a user's
# entries made in kdir and kdir removed (user-entry-removed). Each removal under check of its own.
run() {
	local bin=$1 n=$2 a=/mnt/sfa-$2 b=/mnt/sfb-$2
	faultfs_mount $a || return
	faultfs_mount $b || return
	$bin check -f json -o /tmp/$n-root.json -- sh -c \
		"mkdir $ti && rm $a/kdir/kfile && rmdir $a/kdir/ksub && echo remove kdir >$a/ctl"
	echo "$?" >/tmp/$n-root.rc
	rmdir $ti
	$bin check -f json -o /tmp/$n-user.json -- sh -c \
		"mkdir $ti && mkdir $b/kdir/u && touch $b/kdir/u/f && echo remove kdir >$b/ctl"
	echo "$?" >/tmp/$n-user.rc
	rmdir $ti
	expect_eq "$(ls $a $b | tr '\n' ' ')" "/mnt/sfa-$n: ctl  /mnt/sfb-$n: ctl " "$n: both kdirs removed"
	faultfs_umount $a
	faultfs_umount $b
}

run $tiny tiny
expect_eq "$(cat /tmp/tiny-root.rc)" 0 "4 stacks, the root alone removed: exit 0"
expect_eq "$(books /tmp/tiny-root.json)" "true 0 0" "4 stacks, the root alone removed: complete, nothing lost"
expect_eq "$(rules /tmp/tiny-root.json)" 0 "4 stacks, the root alone removed: no findings"
expect_eq "$(cat /tmp/tiny-user.rc)" 1 "4 stacks, a user's entries removed: exit 1 (the finding)"
expect_eq "$(books /tmp/tiny-user.json)" "false 0 1" "4 stacks: the removal's start went without its stack, counted"
expect_eq "$(grep -o '"rule":"user-entry-removed"' /tmp/tiny-user.json | wc -l)" 2 "4 stacks: user-entry-removed for u and u/f"
expect_grep "$f_stack"'\[\]' /tmp/tiny-user.json "4 stacks: the finding has no stack"

run $PDTRACE full
expect_eq "$(cat /tmp/full-root.rc)" 0 "4096 stacks, the root alone removed: exit 0"
expect_eq "$(books /tmp/full-root.json)" "true 0 0" "4096 stacks, the root alone removed: complete"
expect_eq "$(cat /tmp/full-user.rc)" 1 "4096 stacks, a user's entries removed: exit 1"
expect_eq "$(books /tmp/full-user.json)" "true 0 0" "4096 stacks: room for the removal's stack, complete"
expect_eq "$(grep -o '"rule":"user-entry-removed"' /tmp/full-user.json | wc -l)" 2 "4096 stacks: the same findings"
expect_grep "$removal_stack" /tmp/full-user.json "4096 stacks: the finding shows where the removal started"
expect_eq "$(rules /tmp/full-root.json)" 0 "4096 stacks, the root alone removed: no findings"
finish
