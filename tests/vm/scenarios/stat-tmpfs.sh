# The stat program counts exactly the d_make_persistent()/d_make_discardable() calls
# that mkdir/rmdir on a fresh tmpfs make: one each per directory.
# timeout: 60
. /lib.sh
mkdir -p /mnt/t
mount -t tmpfs pdt-t /mnt/t || { fail "mount tmpfs"; finish; }
dev=$(dev_of /mnt/t)

$PDTRACE stat -- sh -c 'mkdir /mnt/t/a && rmdir /mnt/t/a' >/tmp/s1.out 2>&1
expect_eq "$?" 0 "stat exit status (mkdir+rmdir)"
cat /tmp/s1.out
expect_eq "$(stat_col /tmp/s1.out "$dev" 4)" 1 "persisted by mkdir a; rmdir a"
expect_eq "$(stat_col /tmp/s1.out "$dev" 5)" 1 "discarded by mkdir a; rmdir a"

$PDTRACE stat -- sh -c 'mkdir -p /mnt/t/x/y/z && touch /mnt/t/x/f && ln -s f /mnt/t/x/l && rm -r /mnt/t/x' >/tmp/s2.out 2>&1
expect_eq "$?" 0 "stat exit status (tree)"
cat /tmp/s2.out
expect_eq "$(stat_col /tmp/s2.out "$dev" 4)" 5 "persisted by 3 dirs, a file, a symlink"
expect_eq "$(stat_col /tmp/s2.out "$dev" 5)" 5 "discarded by rm -r"

# The command's exit status is stat's.
$PDTRACE stat -- sh -c 'exit 7' >/dev/null 2>&1
expect_eq "$?" 7 "stat passes the command's exit status"
umount /mnt/t
finish
