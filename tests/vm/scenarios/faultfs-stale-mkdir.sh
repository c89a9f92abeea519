# A user's mkdir refused after the LSM hook leaves its task's create mark behind, and its
# negative dentry dies (pdtfaultfs refuses names starting with "refused" and drops the
# dentry, as configfs does when a make_group() says no). The same task then has the
# kernel make kdir/kfN (kfill), whose dentry is often the freed one's memory (pdt-fsop
# waits for the free, on one CPU). Five times over: each kfN is the kernel's entry, so
# the removal of kdir that follows destroys no user entry and check finds nothing. One
# was once taken for the user's mkdir, and its removal for the illegal removal of a user
# entry (user-entry-removed).
# timeout: 120
# kmods: pdt_faultfs
. /lib.sh
m=/mnt/fsm
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark stale-mkdir
cat >/tmp/fsm.sh <<SH
set -e
for i in 1 2 3 4 5; do pdt-fsop mkdir-refused $m/kdir/refused\$i $m/ctl "kfill kf\$i"; done
echo remove kdir >$m/ctl
SH
$PDTRACE check -f json -o /tmp/fsm.json -- sh /tmp/fsm.sh
rc=$?
cat /tmp/fsm.json; echo
expect_eq "$rc" 0 "check exits 0"
expect_grep '"findings":\[\]' /tmp/fsm.json "no finding"
expect_grep "\"dev\":\"$dev\",[^}]*\"made\":5,\"discarded\":8," /tmp/fsm.json "kf1-5 made; kdir, kfile, ksub and kf1-5 discarded"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl " "kdir is gone"
fault_logged stale-mkdir /tmp/fsm.log "$dev: kfill kf5"
expect_no_grep 'WARNING\|BUG' /tmp/fsm.log "the kernel says nothing"
faultfs_works $m
faultfs_umount $m
finish
