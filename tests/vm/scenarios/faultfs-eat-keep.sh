# Fault eat-keep: an eaten persistence reference on a kept dentry (no DCACHE_DONTCACHE, no
# d_delete op): it stays hashed on the LRU with count 0 and DCACHE_PERSISTENT set, and
# still works as a file. Then umount: select_collect_umount() clears the flag and drops
# the count to -1; select_collect() cannot put it on a shrink list (count not 0),
# select_collect2() picks it as a victim with a negative count ("doomed"), and
# shrink_dcache_tree() waits for a death that never comes. Booted: the umount task
# sleeps for good in D state in shrink_dcache_tree() (under cleanup_mnt(), holding
# s_umount), umount_check() never runs, the dcache's own checks say nothing (no WARN,
# no "still in use", no busy inodes): only the hung-task watchdog speaks ("INFO: task
# umount:PID blocked for more than N seconds", its timeout lowered here to 5 s). Hence
# a boot of its own, umount in the background, and a poweroff that skips sync (sync
# would block on s_umount).
# pdtrace check (the tracker's redesign) with --no-dput, umount inside the traced
# command: one imbalance eaten-persistence-ref at /NAME, made at the umount walk.
# timeout: 180
# boot: own
# kmods: pdt_faultfs
. /lib.sh

# umount_bg DIR SECONDS: umount DIR in the background and wait at most SECONDS for it;
# prints "done STATUS" or "hung PID". In a file: the traced command uses it too.
cat >/tmp/umount-bg.sh <<'EOS'
umount_bg() {
	umount "$1" </dev/null >/dev/null 2>/tmp/umount-bg.err & p=$! i=0
	while [ $i -lt "$2" ] && [ -d /proc/$p ] && ! grep -q '^State:.*Z' /proc/$p/status 2>/dev/null; do
		sleep 1; i=$((i + 1))
	done
	if [ $i -lt "$2" ]; then wait $p; echo "done $? $(cat /tmp/umount-bg.err)"; else echo "hung $p"; fi
}
EOS
. /tmp/umount-bg.sh

m=/mnt/fek
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark eat-keep
$PDTRACE stat -- sh -c "echo eat-keep ek >$m/ctl" >/tmp/fek.out 2>&1
expect_eq "$?" 0 "the fault is accepted"
cat /tmp/fek.out
expect_eq "$(stat_col /tmp/fek.out "$dev" 4)" 1 "persisted: ek"
expect_eq "$(stat_col /tmp/fek.out "$dev" 5)" 0 "discarded"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl ek kdir " "root entries: ek is kept"
echo data >$m/ek && expect_eq "$(cat $m/ek)" data "$m/ek still works as a file"
faultfs_works $m
fault_logged eat-keep /tmp/fek.log "$dev: eat-keep ek"
expect_no_grep 'WARNING\|BUG' /tmp/fek.log "the kernel says nothing at the fault"

dmesg_mark umount
# The hung-task watchdog is the only part of the kernel that notices; make it quick.
hung=/proc/sys/kernel/hung_task_timeout_secs
[ -w $hung ] && echo 5 >$hung
r=$(umount_bg $m 30)
echo "umount $m: $r"
case "$r" in
hung*)
	p=${r#hung }
	pass "umount $m does not complete (30 s)"
	grep '^State:' /proc/$p/status | sed 's/^/umount task: /'
	sed 's/^/umount stack: /' /proc/$p/stack
	expect_grep 'State:.*D' /proc/$p/status "the umount task sleeps uninterruptibly"
	expect_grep 'shrink_dcache_tree' /proc/$p/stack "in shrink_dcache_tree()"
	;;
*) fail "umount $m completed: $r" ;;
esac
dmesg_since umount >/tmp/fek-umount.log
show_kernel_lines /tmp/fek-umount.log
expect_no_grep 'WARNING\|BUG\|Busy inodes\|still in use' /tmp/fek-umount.log "the dcache says nothing at umount"
grep -E 'blocked for more than|\]  (shrink_dcache_tree|do_one_tree)' /tmp/fek-umount.log | sed 's/^/kernel: /'
if [ -w $hung ]; then
	expect_grep 'INFO: task umount:[0-9]* blocked for more than [0-9]* seconds' /tmp/fek-umount.log \
		"only the hung-task watchdog reports the umount"
fi

# pdtrace check, on another mount, umount inside the traced command (in the background:
# the walk runs, then the command ends).
m2=/mnt/fek2
faultfs_mount $m2 || finish
dev2=$(dev_of $m2)
$PDTRACE check --no-dput -f json -o /tmp/fek.json -- \
	sh -c ". /tmp/umount-bg.sh && echo eat-keep el >$m2/ctl && umount_bg $m2 20"
one_finding /tmp/fek.json "$?" "$dev2" imbalance eaten-persistence-ref /el "check --no-dput, umount traced"
# The same as a user reads it, with the tree still mounted at stop: the self-check's walk
# finds the entry held by nobody (count 0, DCACHE_PERSISTENT set).
m3=/mnt/fek3
faultfs_mount $m3 || finish
dev3=$(dev_of $m3)
$PDTRACE check --no-dput -- sh -c "echo eat-keep em >$m3/ctl" >/tmp/fek.txt 2>&1
expect_eq "$?" 1 "check --no-dput, text, still mounted: exit 1"
cat /tmp/fek.txt
expect_grep "^imbalance: eaten-persistence-ref: pdtfaultfs $dev3 /em$" /tmp/fek.txt "text: the finding at stop"
expect_grep "count 0 with DCACHE_PERSISTENT set when tracing stopped" /tmp/fek.txt "text: seen by the walk at stop"
expect_grep "^self-check: 1 mounted superblock walked, the books match the kernel" /tmp/fek.txt "text: the books still match"
# init's sync would block on the dead superblocks' s_umount: power off from the kernel
# once init has reported this scenario.
(sleep 3; echo o >/proc/sysrq-trigger) &
finish
