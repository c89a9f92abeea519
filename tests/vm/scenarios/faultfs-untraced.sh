# A removal the kernel does not let the tracer see: "remove-untraced kdir" makes the
# removal of "remove" while the task's function graph shadow stack has room for a frame
# but not for the data fprobe keeps with it. fprobe skips simple_recursive_removal()'s
# session program at its entry and return, and counts the call in the link's missed.
# The gate must say so: the run is incomplete (exit 3, one event lost; record and report
# alike), and the same removal made visibly is complete (exit 0). Neither reports a finding: the subtree holds
# kernel entries only.
# timeout: 120
# kmods: pdt_faultfs
. /lib.sh
a=/mnt/fun b=/mnt/fvi c=/mnt/fur
faultfs_mount $a || finish
faultfs_mount $b || finish
faultfs_mount $c || finish
dmesg_mark untraced
$PDTRACE -v check -f json -o /tmp/fun.json -- sh -c "echo remove-untraced kdir >$a/ctl" \
	2>/tmp/fun.err
expect_eq "$?" 3 "check, the removal unseen: exit 3 (incomplete)"
cat /tmp/fun.err
expect_grep "pdt_bracket's link missed 1 calls" /tmp/fun.err "the session link counts the call it missed"
expect_grep '"complete":false,"lost_events":1,"map_full":0' /tmp/fun.json '"complete":false, one event lost'
expect_grep '"findings":\[\]' /tmp/fun.json "no findings made of the loss"
$PDTRACE check -f json -o /tmp/fvi.json -- sh -c "echo remove kdir >$b/ctl"
expect_eq "$?" 0 "check, the same removal seen: exit 0"
expect_grep '"complete":true,"lost_events":0,"map_full":0' /tmp/fvi.json "the removal seen: complete"
expect_grep '"findings":\[\]' /tmp/fvi.json "the removal seen: no findings"
# record keeps the count in its END block, and report says what check said.
$PDTRACE record -o /tmp/fur.pdtrec -- sh -c "echo remove-untraced kdir >$c/ctl"
expect_eq "$?" 3 "record, the removal unseen: exit 3"
$PDTRACE report -f json -o /tmp/fur.json /tmp/fur.pdtrec
expect_eq "$?" 3 "report of that recording: exit 3"
expect_grep '"complete":false,"lost_events":1,"map_full":0' /tmp/fur.json "report: one event lost"
fault_logged untraced /tmp/fun.log "$(dev_of $a): remove-untraced kdir"
expect_no_grep 'WARNING\|BUG' /tmp/fun.log "the kernel does not WARN"
expect_eq "$(ls $a | tr '\n' ' ')" "ctl " "$a: kdir removed"
faultfs_works $a
faultfs_umount $a
faultfs_umount $b
faultfs_umount $c
finish
