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
# lost NAME N CMD [RECCMD]: check -v of sh -c CMD, then record of sh -c RECCMD and report of
# it: each exits 3 (incomplete) with N events lost and no finding. check's stderr: /tmp/NAME.err.
lost() {
	$PDTRACE -v check -f json -o /tmp/$1.json -- sh -c "$3" 2>/tmp/$1.err
	expect_eq "$?" 3 "$1: check exits 3 (incomplete)"
	cat /tmp/$1.err
	expect_grep "\"complete\":false,\"lost_events\":$2,\"map_full\":0" /tmp/$1.json "$1: $2 events lost"
	expect_grep '"findings":\[\]' /tmp/$1.json "$1: no findings made of the loss"
	[ -n "${4-}" ] || return 0
	# record keeps the count in its END block, and report says what check said.
	$PDTRACE record -o /tmp/$1.pdtrec -- sh -c "$4"
	expect_eq "$?" 3 "$1: record exits 3"
	$PDTRACE report -f json -o /tmp/$1.rep.json /tmp/$1.pdtrec
	expect_eq "$?" 3 "$1: report of that recording exits 3"
	expect_grep "\"complete\":false,\"lost_events\":$2,\"map_full\":0" /tmp/$1.rep.json \
		"$1: report, $2 events lost"
}

lost untraced 1 "echo remove-untraced kdir >$a/ctl" "echo remove-untraced kdir >$c/ctl"
expect_grep "dispatch_session's link missed 1 calls" /tmp/untraced.err "the session link counts the call it missed"
$PDTRACE check -f json -o /tmp/fvi.json -- sh -c "echo remove kdir >$b/ctl"
expect_eq "$?" 0 "check, the same removal seen: exit 0"
expect_grep '"complete":true,"lost_events":0,"map_full":0' /tmp/fvi.json "the removal seen: complete"
expect_grep '"findings":\[\]' /tmp/fvi.json "the removal seen: no findings"

for m in $d $f; do
	mkdir $m/kdir/u && touch $m/kdir/u/f
	expect_eq "$?" 0 "user entries below $m/kdir"
done
lost overrun 1 "echo remove-overrun kdir >$d/ctl" "echo remove-overrun kdir >$f/ctl"
expect_grep "the function graph tracer skipped 1 calls of tasks that then discarded or unmounted" \
	/tmp/overrun.err "overrun: -v names the calls the graph tracer skipped"
expect_eq "$(ls $d | tr '\n' ' ')" "ctl " "$d: kdir and the user's entries removed"

# The umount of $e with both of its brackets skipped (the faultfs of $b takes the commands).
lost umount 2 "pdt-fsop umount-graph-full $b/ctl $e"
expect_grep "the function graph tracer skipped 2 calls of tasks that then discarded or unmounted" \
	/tmp/umount.err "umount: -v, the umount's and the shutdown's calls skipped"
expect_no_grep " $e " /proc/mounts "$e unmounted"

fault_logged untraced /tmp/fun.log "$(dev_of $a): remove-untraced kdir"
expect_no_grep 'WARNING\|BUG' /tmp/fun.log "the kernel does not WARN"
expect_eq "$(ls $a | tr '\n' ' ')" "ctl " "$a: kdir removed"
faultfs_works $a
for m in $a $b $c $d $f; do faultfs_umount $m; done
finish
