# Fault create-in-dead: during simple_recursive_removal() of kdir, the removal callback
# on kdir makes kdir/late persistent after kdir's inode got S_DEAD; then kdir/late is
# unlinked (simple_unlink()). No WARN; pdtrace stat counts 1 persist (late) and 4
# discards (kfile, ksub, kdir, late); the fs works and unmounts cleanly.
# timeout: 90
# kmods: pdt_faultfs
. /lib.sh
m=/mnt/fcd
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark create-in-dead
$PDTRACE stat -- sh -c "echo create-in-dead kdir >$m/ctl" >/tmp/fcd.out 2>&1
expect_eq "$?" 0 "the fault is accepted"
cat /tmp/fcd.out
expect_eq "$(stat_col /tmp/fcd.out "$dev" 4)" 1 "persisted: kdir/late"
expect_eq "$(stat_col /tmp/fcd.out "$dev" 5)" 4 "discarded: kdir kfile ksub late"
fault_logged create-in-dead /tmp/fcd.log "$dev: create-in-dead kdir"
expect_no_grep 'WARNING\|BUG' /tmp/fcd.log "the kernel does not WARN"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl " "root entries"
faultfs_works $m
faultfs_umount $m
finish
