# Fault extra-dput: dput() on a persistent dentry whose count is 1, i.e. the persistence
# reference itself, then dget() to give it back. No WARN; pdtrace stat counts one persist
# per fault. The entry survives dropping the dcache (its reference is back), unlinks and
# unmounts cleanly.
# timeout: 90
# kmods: pdt_faultfs
. /lib.sh
m=/mnt/fxd
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark extra-dput
$PDTRACE stat -- sh -c "echo extra-dput xd >$m/ctl && echo extra-dput xd2 >$m/ctl" >/tmp/fxd.out 2>&1
expect_eq "$?" 0 "the faults are accepted"
cat /tmp/fxd.out
expect_eq "$(stat_col /tmp/fxd.out "$dev" 4)" 2 "persisted"
expect_eq "$(stat_col /tmp/fxd.out "$dev" 5)" 0 "discarded"
fault_logged extra-dput /tmp/fxd.log "$dev: extra-dput xd"
expect_no_grep 'WARNING\|BUG' /tmp/fxd.log "the kernel does not WARN"
# Had the reference not been restored, the shrinker would free these unused dentries
# and, the dcache being their only storage, the files would be gone.
echo 2 >/proc/sys/vm/drop_caches
expect_eq "$(ls $m | tr '\n' ' ')" "ctl kdir xd xd2 " "root entries after dropping the dcache"
echo data >$m/xd && expect_eq "$(cat $m/xd)" data "$m/xd holds data"
$PDTRACE stat -- rm $m/xd2 >/tmp/fxd-rm.out 2>&1
expect_eq "$?" 0 "rm xd2"
expect_eq "$(stat_col /tmp/fxd-rm.out "$dev" 5)" 1 "discarded by rm xd2"
faultfs_works $m
faultfs_umount $m
finish
