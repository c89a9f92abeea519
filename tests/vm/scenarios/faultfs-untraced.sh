# Removals and umounts the kernel does not let the tracer see. "remove-untraced kdir"
# makes the removal of "remove" while the task's function graph shadow stack has room
# for a frame but not for the data fprobe keeps with it: fprobe skips
# simple_recursive_removal()'s session program at its entry and return, and counts the
# call in the link's missed. "remove-overrun kdir" leaves no room even for the frame: the
# graph tracer skips the call and counts it only in the task's trace_overrun, which
# pdtrace reads at the removal's discards; here a user's entries below kdir are
# destroyed unseen. "graph-full" does it to a whole umount (pdt-fsop umount-graph-full):
# its two brackets, the umount's and the shutdown's, are skipped, and pdtrace reads the
# count in the umount walk. The gate must say so: each run is incomplete (exit 3, as many
# events lost as calls skipped; record and report alike), and the same removal made
# visibly is complete (exit 0). None reports a finding.
# timeout: 120
# kmods: pdt_faultfs
. /lib.sh
a=/mnt/fun b=/mnt/fvi c=/mnt/fur d=/mnt/fov e=/mnt/fgu f=/mnt/fovr
for m in $a $b $c $d $e $f; do faultfs_mount $m || finish; done
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

mkdir $d/kdir/u && touch $d/kdir/u/f
expect_eq "$?" 0 "user entries below $d/kdir"
$PDTRACE -v check -f json -o /tmp/fov.json -- sh -c "echo remove-overrun kdir >$d/ctl" \
	2>/tmp/fov.err
expect_eq "$?" 3 "check, the removal's call skipped by the graph tracer: exit 3 (incomplete)"
cat /tmp/fov.err
expect_grep "the function graph tracer skipped 1 calls of tasks that then discarded or unmounted" \
	/tmp/fov.err "-v names the calls the graph tracer skipped"
expect_grep '"complete":false,"lost_events":1,"map_full":0' /tmp/fov.json "overrun: one event lost"
expect_grep '"findings":\[\]' /tmp/fov.json "overrun: no findings made of the loss"
expect_eq "$(ls $d | tr '\n' ' ')" "ctl " "$d: kdir and the user's entries removed"
$PDTRACE record -o /tmp/fovr.pdtrec -- sh -c "echo remove-overrun kdir >$f/ctl"
expect_eq "$?" 3 "record, the removal's call skipped: exit 3"
$PDTRACE report -f json -o /tmp/fovr.json /tmp/fovr.pdtrec
expect_eq "$?" 3 "report of that recording: exit 3"
expect_grep '"complete":false,"lost_events":1,"map_full":0' /tmp/fovr.json "report: one event lost"

# The umount of $e with both of its brackets skipped (the faultfs of $b takes the commands).
$PDTRACE -v check -f json -o /tmp/fgu.json -- pdt-fsop umount-graph-full $b/ctl $e 2>/tmp/fgu.err
expect_eq "$?" 3 "check, an umount's brackets skipped by the graph tracer: exit 3 (incomplete)"
cat /tmp/fgu.err
expect_grep "the function graph tracer skipped 2 calls of tasks that then discarded or unmounted" \
	/tmp/fgu.err "-v: the umount's and the shutdown's calls skipped"
expect_grep '"complete":false,"lost_events":2,"map_full":0' /tmp/fgu.json "umount: two events lost"
expect_grep '"findings":\[\]' /tmp/fgu.json "umount: no findings made of the loss"
expect_no_grep " $e " /proc/mounts "$e unmounted"

fault_logged untraced /tmp/fun.log "$(dev_of $a): remove-untraced kdir"
expect_no_grep 'WARNING\|BUG' /tmp/fun.log "the kernel does not WARN"
expect_eq "$(ls $a | tr '\n' ' ')" "ctl " "$a: kdir removed"
faultfs_works $a
for m in $a $b $c $d $f; do faultfs_umount $m; done
finish
