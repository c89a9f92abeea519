# pdtfaultfs without a fault is balanced. Mount makes 4 kernel entries persistent
# (/ctl, /kdir, /kdir/kfile, /kdir/ksub); a user workload persists and discards exactly
# one per entry it creates and removes; "remove kdir" with only kernel entries below
# discards those 3; umount unpins the rest (no d_make_discardable() call), with no WARN.
# timeout: 120
# kmods: pdt_faultfs
. /lib.sh
m=/mnt/fc
dmesg_mark clean
mkdir -p $m
$PDTRACE stat -- sh -c "mount -t pdtfaultfs pdtfaultfs $m" >/tmp/fc-mount.out 2>&1
expect_eq "$?" 0 "mount under pdtrace stat"
cat /tmp/fc-mount.out
dev=$(dev_of $m)
[ -n "$dev" ] || { fail "pdtfaultfs is not mounted on $m"; cat /tmp/insmod.log; finish; }
expect_eq "$(stat_col /tmp/fc-mount.out "$dev" 4)" 4 "persisted at mount: ctl kdir kdir/kfile kdir/ksub"
expect_eq "$(stat_col /tmp/fc-mount.out "$dev" 5)" 0 "discarded at mount"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl kdir " "root entries"
expect_eq "$(ls $m/kdir | tr '\n' ' ')" "kfile ksub " "kdir entries"

# 8 entries created (mkdir x3, touch, write, symlink, hard link, fifo), 8 removed
# (the rename over u/sub/g discards the old g; the other renames move persistent dentries).
cat >/tmp/fc-work.sh <<EOS
set -e
mkdir $m/u
mkdir $m/u/sub
touch $m/u/f
echo hello >$m/u/g
ln -s f $m/u/s
ln $m/u/f $m/u/h
mknod $m/u/p p
mkdir $m/u/d1
mv $m/u/d1 $m/u/d2
mv $m/u/g $m/u/sub/g
[ "\$(cat $m/u/sub/g)" = hello ]
mv $m/u/h $m/u/sub/g
[ -L $m/u/s ] && [ -p $m/u/p ] && [ -d $m/u/d2 ]
rm $m/u/s $m/u/p $m/u/sub/g
rmdir $m/u/sub $m/u/d2
rm $m/u/f
rmdir $m/u
EOS
$PDTRACE stat -- sh /tmp/fc-work.sh >/tmp/fc-work.out 2>&1
expect_eq "$?" 0 "user workload"
cat /tmp/fc-work.out
expect_eq "$(stat_col /tmp/fc-work.out "$dev" 4)" 8 "persisted by the user workload"
expect_eq "$(stat_col /tmp/fc-work.out "$dev" 5)" 8 "discarded by the user workload"

$PDTRACE stat -- sh -c "echo remove kdir >$m/ctl" >/tmp/fc-rm.out 2>&1
expect_eq "$?" 0 "remove kdir (kernel entries only)"
cat /tmp/fc-rm.out
expect_eq "$(stat_col /tmp/fc-rm.out "$dev" 4)" 0 "persisted by remove kdir"
expect_eq "$(stat_col /tmp/fc-rm.out "$dev" 5)" 3 "discarded by remove kdir: kdir kfile ksub"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl " "root entries after remove kdir"

# Bad commands fail and change nothing.
echo "no-such-fault x" >$m/ctl 2>/dev/null && fail "unknown command accepted"
echo "orphan" >$m/ctl 2>/dev/null && fail "command without a name accepted"
echo "orphan a/b" >$m/ctl 2>/dev/null && fail "name with a slash accepted"
echo "remove ctl" >$m/ctl 2>/dev/null && fail "remove of a non-directory accepted"
echo "remove nothere" >$m/ctl 2>/dev/null && fail "remove of a missing directory accepted"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl " "root entries after bad commands"
faultfs_works $m

$PDTRACE stat -- umount $m >/tmp/fc-umount.out 2>&1
expect_eq "$?" 0 "umount under pdtrace stat"
expect_eq "$(stat_col /tmp/fc-umount.out "$dev" 5)" "" "umount unpins without d_make_discardable()"

# The clean mode proper: mount, no command, umount.
faultfs_mount /mnt/fc2 || finish
faultfs_umount /mnt/fc2

dmesg_since clean >/tmp/fc.log
show_kernel_lines /tmp/fc.log
expect_no_grep 'WARNING\|BUG\|Busy inodes' /tmp/fc.log "no WARN, BUG or busy inodes in the whole scenario"
expect_eq "$(faultfs_refs)" "$(faultfs_mounts)" "every superblock freed"
finish
