# Fault orphan: DIR and DIR/child made persistent, then DIR discarded and unhashed like
# an rmdir without the emptiness check, while DIR/child stays persistent and unreachable.
# No WARN; pdtrace stat counts 2 persists and 1 discard. The umount walk still reaches
# the child through DIR (a child of the root while the child pins it): no WARN, no busy
# inodes, superblock freed.
# timeout: 90
# kmods: pdt_faultfs
. /lib.sh
m=/mnt/for
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark orphan
$PDTRACE stat -- sh -c "echo orphan od >$m/ctl" >/tmp/for.out 2>&1
expect_eq "$?" 0 "the fault is accepted"
cat /tmp/for.out
expect_eq "$(stat_col /tmp/for.out "$dev" 4)" 2 "persisted: od, od/child"
expect_eq "$(stat_col /tmp/for.out "$dev" 5)" 1 "discarded: od"
fault_logged orphan /tmp/for.log "$dev: orphan od"
expect_no_grep 'WARNING\|BUG' /tmp/for.log "the kernel does not WARN"
[ -e $m/od ] && fail "$m/od is reachable"
[ -e $m/od/child ] && fail "$m/od/child is reachable"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl kdir " "root entries"
# The name is free again: a user directory od is a new dentry.
mkdir $m/od && touch $m/od/f && rm $m/od/f && rmdir $m/od
expect_eq "$?" 0 "a new od can be made and removed"
echo 2 >/proc/sys/vm/drop_caches
faultfs_works $m
faultfs_umount $m
finish
