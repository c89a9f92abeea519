# Fault eat-keep, then the dcache shrinker: the kept dentry whose persistence reference was
# eaten sits on the LRU with count 0 and DCACHE_PERSISTENT set, so dropping the dcache
# (echo 2 >drop_caches: prune_dcache_sb() -> shrink_dentry_list() -> dentry_kill())
# kills it like any unused dentry: the entry and its data vanish. The kernel says
# nothing; nothing is left for umount, which is clean (superblock freed).
# pdtrace check (the tracker's redesign) with --no-dput, drop_caches inside the traced
# command: one imbalance eaten-persistence-ref at /NAME (made at dentry_kill()).
# timeout: 150
# kmods: pdt_faultfs
. /lib.sh

m=/mnt/fed
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark eat-drop
$PDTRACE stat -- sh -c "echo eat-keep ed >$m/ctl" >/tmp/fed.out 2>&1
expect_eq "$?" 0 "the fault is accepted"
cat /tmp/fed.out
expect_eq "$(stat_col /tmp/fed.out "$dev" 4)" 1 "persisted: ed"
expect_eq "$(stat_col /tmp/fed.out "$dev" 5)" 0 "discarded"
echo data >$m/ed && expect_eq "$(cat $m/ed)" data "$m/ed still works as a file"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl ed kdir " "root entries: ed is kept"
# A dentry the shrinker finds referenced is rotated once: drop more than once.
$PDTRACE stat -- sh -c "for i in 1 2 3; do echo 2 >/proc/sys/vm/drop_caches; done" >/tmp/fed-drop.out 2>&1
expect_eq "$?" 0 "drop_caches"
cat /tmp/fed-drop.out
expect_eq "$(stat_col /tmp/fed-drop.out "$dev" 5)" "" "dropping the dcache discards nothing"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl kdir " "root entries after drop_caches: ed is gone"
[ -e $m/ed ] && fail "$m/ed exists after drop_caches"
fault_logged eat-drop /tmp/fed.log "$dev: eat-keep ed"
expect_no_grep 'WARNING\|BUG\|still in use' /tmp/fed.log "the kernel says nothing"
faultfs_works $m
faultfs_umount $m

# pdtrace check, on a fresh mount.
faultfs_mount $m || finish
dev=$(dev_of $m)
$PDTRACE check --no-dput -f json -o /tmp/fed.json -- \
	sh -c "echo eat-keep ee >$m/ctl && for i in 1 2 3; do echo 2 >/proc/sys/vm/drop_caches; done"
one_finding /tmp/fed.json "$?" "$dev" imbalance eaten-persistence-ref /ee "check --no-dput, drop_caches traced"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl kdir " "root entries: ee is gone"
faultfs_umount $m
finish
