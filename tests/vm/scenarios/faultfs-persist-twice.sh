# Fault persist-twice: d_make_persistent() on a dentry that already carries
# DCACHE_PERSISTENT (made negative first, so the inode's alias list stays sane). The
# kernel prints no WARN for it; pdtrace stat counts 2 persists per fault. The extra
# reference is dropped again: unlinking one entry and unmounting with the other work.
# timeout: 90
# kmods: pdt_faultfs
. /lib.sh
m=/mnt/fpt
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark persist-twice
$PDTRACE stat -- sh -c "echo persist-twice twice >$m/ctl && echo persist-twice again >$m/ctl" >/tmp/fpt.out 2>&1
expect_eq "$?" 0 "the faults are accepted"
cat /tmp/fpt.out
expect_eq "$(stat_col /tmp/fpt.out "$dev" 4)" 4 "persisted: twice per entry"
expect_eq "$(stat_col /tmp/fpt.out "$dev" 5)" 0 "discarded"
fault_logged persist-twice /tmp/fpt.log "$dev: persist-twice twice"
expect_no_grep 'WARNING\|BUG' /tmp/fpt.log "the kernel does not WARN"
[ -f $m/twice ] && [ ! -s $m/twice ] || fail "$m/twice is not an empty regular file"
echo data >$m/again && expect_eq "$(cat $m/again)" data "$m/again holds data"
$PDTRACE stat -- rm $m/twice >/tmp/fpt-rm.out 2>&1
expect_eq "$?" 0 "rm twice"
expect_eq "$(stat_col /tmp/fpt-rm.out "$dev" 5)" 1 "discarded by rm twice"
[ -e $m/twice ] && fail "$m/twice still exists after rm"
faultfs_works $m
faultfs_umount $m
finish
