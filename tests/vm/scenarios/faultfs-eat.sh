# Fault eat: an eaten persistence reference on a dentry the kernel kills at once. NAME is
# made persistent by the kernel, marked DCACHE_DONTCACHE (as tmpfs, ramfs and debugfs mark
# theirs), then dput() one time too many: count 0 with DCACHE_PERSISTENT still set, and
# fast_dput() -> retain_dentry() (false: DONTCACHE) -> dentry_kill() kills it there and
# then. pdtrace stat counts 1 persist, no discard; the entry is gone, the kernel says
# nothing (no WARN, no BUG), the fs works and unmounts cleanly (superblock freed).
# pdtrace check: by default (--no-dput) one imbalance eaten-persistence-ref at /NAME,
# seen at dentry_kill(); with --dput one dput-persistence-ref instead
# (the eaten finding for the same dentry is suppressed).
# timeout: 180
# kmods: pdt_faultfs
. /lib.sh

m=/mnt/fea
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark eat
$PDTRACE stat -- sh -c "echo eat ea >$m/ctl" >/tmp/fea.out 2>&1
expect_eq "$?" 0 "the fault is accepted"
cat /tmp/fea.out
expect_eq "$(stat_col /tmp/fea.out "$dev" 4)" 1 "persisted: ea"
expect_eq "$(stat_col /tmp/fea.out "$dev" 5)" 0 "discarded (dput() is no discard)"
fault_logged eat /tmp/fea.log "$dev: eat ea"
expect_no_grep 'WARNING\|BUG\|still in use' /tmp/fea.log "the kernel says nothing"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl kdir " "root entries: ea is gone"
[ -e $m/ea ] && fail "$m/ea exists"
echo "eat kdir" >$m/ctl 2>/dev/null && fail "eat of an existing entry accepted"
faultfs_works $m
faultfs_umount $m

# pdtrace check, on a fresh mount.
faultfs_mount $m || finish
dev=$(dev_of $m)
$PDTRACE check --no-dput -f json -o /tmp/fea-nodput.json -- sh -c "echo eat eb >$m/ctl"
one_finding /tmp/fea-nodput.json "$?" "$dev" imbalance eaten-persistence-ref /eb "check --no-dput"
$PDTRACE check --dput -f json -o /tmp/fea-dput.json -- sh -c "echo eat ec >$m/ctl"
one_finding /tmp/fea-dput.json "$?" "$dev" imbalance dput-persistence-ref /ec "check (dput hooked)"
expect_no_grep eaten-persistence-ref /tmp/fea-dput.json "check (dput hooked): no eaten finding besides"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl kdir " "root entries: eb and ec are gone"
faultfs_umount $m
finish
