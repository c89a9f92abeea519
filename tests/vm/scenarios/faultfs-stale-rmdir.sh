# A user's rmdir refused after the LSM hook leaves its task's unlink/rmdir mark behind:
# kdir is not empty (simple_rmdir() says so after security_inode_rmdir()). The same task
# then has the kernel remove kdir the way configfs unregisters a group (pdtfaultfs's
# unregister: a correct removal, nothing but persistence holding kdir). That discard is
# not the rmdir's: check finds nothing. It was once read as a user's rmdir whose VFS
# reference was missing, a false eaten-persistence-ref.
# timeout: 120
# kmods: pdt_faultfs
. /lib.sh
m=/mnt/fsr
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark stale-rmdir
$PDTRACE check -f json -o /tmp/fsr.json -- pdt-fsop rmdir-refused $m/kdir $m/ctl "unregister kdir"
rc=$?
cat /tmp/fsr.json; echo
expect_eq "$rc" 0 "check exits 0"
expect_grep '"findings":\[\]' /tmp/fsr.json "no finding"
expect_grep "\"dev\":\"$dev\",[^}]*\"discarded\":3," /tmp/fsr.json "kdir, kfile and ksub discarded"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl " "kdir is gone"
fault_logged stale-rmdir /tmp/fsr.log "$dev: unregister kdir"
expect_no_grep 'WARNING\|BUG' /tmp/fsr.log "the kernel says nothing"
faultfs_works $m
faultfs_umount $m
finish
