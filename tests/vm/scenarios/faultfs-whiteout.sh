# Whiteouts: pdtfaultfs's rename supports RENAME_WHITEOUT as tmpfs does (shmem_whiteout():
# the filesystem d_alloc()s a dentry with the old name and makes it a persistent char 0:0
# device through its mknod). A user's rename(kdir/kfile, kdir/kfile2, RENAME_WHITEOUT)
# inside the kernel-made kdir leaves a persistent whiteout kdir/kfile (1 persist); over an
# existing target it also discards the target (1 persist, 1 discard); a user removes a
# whiteout like any file. "remove kdir" then discards kdir, the whiteout, kfile2, ksub
# (4). The kernel says nothing; the fs works and unmounts cleanly.
# The whiteout is made by the kernel on behalf of the user's rename: pdtrace calls it a
# user entry, so the recursive removal that discards it is an illegal removal.
# pdtrace check (the tracker's redesign) with --no-dput: one illegal-removal
# user-entry-removed at /kdir/kfile, origin user.
# timeout: 150
# kmods: pdt_faultfs
. /lib.sh

m=/mnt/fwo
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark whiteout
$PDTRACE stat -- pdt-fsop rename $m/kdir/kfile $m/kdir/kfile2 whiteout >/tmp/fwo.out 2>&1
expect_eq "$?" 0 "rename kdir/kfile kdir/kfile2 whiteout"
cat /tmp/fwo.out
expect_eq "$(stat_col /tmp/fwo.out "$dev" 4)" 1 "persisted: the whiteout kdir/kfile"
expect_eq "$(stat_col /tmp/fwo.out "$dev" 5)" 0 "discarded"
expect_eq "$(ls $m/kdir | tr '\n' ' ')" "kfile kfile2 ksub " "kdir entries"
expect_eq "$(stat -c '%F %t:%T %a' $m/kdir/kfile)" "character special file 0:0 0" "kdir/kfile is a whiteout (char 0:0, mode 0)"
[ -f $m/kdir/kfile2 ] || fail "$m/kdir/kfile2 is not a regular file"

touch $m/u $m/v
$PDTRACE stat -- pdt-fsop rename $m/u $m/v whiteout >/tmp/fwo-over.out 2>&1
expect_eq "$?" 0 "rename u v whiteout, v existing"
cat /tmp/fwo-over.out
expect_eq "$(stat_col /tmp/fwo-over.out "$dev" 4)" 1 "persisted: the whiteout u"
expect_eq "$(stat_col /tmp/fwo-over.out "$dev" 5)" 1 "discarded: the old v"
expect_eq "$(stat -c %F $m/u)" "character special file" "u is a whiteout"
# Over a non-empty directory the filesystem refuses before making the whiteout.
mkdir $m/d $m/e && touch $m/d/f
$PDTRACE stat -- pdt-fsop rename $m/e $m/d whiteout >/tmp/fwo-err.out 2>&1
cat /tmp/fwo-err.out
expect_grep 'pdt-fsop: rename .*: ENOTEMPTY' /tmp/fwo-err.out "a whiteout rename over a non-empty directory: ENOTEMPTY"
expect_eq "$(stat_col /tmp/fwo-err.out "$dev" 4)" "" "the refused rename made no whiteout"
[ -d $m/e ] || fail "$m/e is gone after a refused rename"
$PDTRACE stat -- rm -r $m/u $m/v $m/d $m/e >/tmp/fwo-rm.out 2>&1
expect_eq "$?" 0 "rm the whiteout and the rest"
expect_eq "$(stat_col /tmp/fwo-rm.out "$dev" 5)" 5 "discarded: u (whiteout), v, d, d/f, e"

$PDTRACE stat -- sh -c "echo remove kdir >$m/ctl" >/tmp/fwo-rmk.out 2>&1
expect_eq "$?" 0 "remove kdir"
cat /tmp/fwo-rmk.out
expect_eq "$(stat_col /tmp/fwo-rmk.out "$dev" 4)" 0 "persisted by remove kdir"
expect_eq "$(stat_col /tmp/fwo-rmk.out "$dev" 5)" 4 "discarded by remove kdir: kdir, kfile (whiteout), kfile2, ksub"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl " "root entries"
dmesg_since whiteout >/tmp/fwo.log
show_kernel_lines /tmp/fwo.log
expect_grep "pdtfaultfs $dev: remove kdir" /tmp/fwo.log "the module logs the removal"
expect_no_grep 'WARNING\|BUG' /tmp/fwo.log "the kernel says nothing"
faultfs_works $m
faultfs_umount $m

# pdtrace check, on a fresh mount: the whiteout made and removed under check.
faultfs_mount $m || finish
dev=$(dev_of $m)
$PDTRACE check --no-dput -f json -o /tmp/fwo.json -- \
	sh -c "pdt-fsop rename $m/kdir/kfile $m/kdir/kfile2 whiteout && echo remove kdir >$m/ctl"
one_finding /tmp/fwo.json "$?" "$dev" illegal-removal user-entry-removed /kdir/kfile "check --no-dput"
expect_grep '"path":"/kdir/kfile","origin":"user"' /tmp/fwo.json "check --no-dput: the whiteout's origin is user"
faultfs_umount $m
finish
