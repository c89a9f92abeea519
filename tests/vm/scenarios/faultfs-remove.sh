# Fault remove: simple_recursive_removal() of kdir. With only kernel entries below it is
# the legitimate case (3 discards); after a user made kdir/u and kdir/u/f it also
# discards those user-created entries (5 discards): the illegal removal. The kernel has
# no WARN for either; both filesystems still work and unmount cleanly.
# timeout: 90
# kmods: pdt_faultfs
. /lib.sh
a=/mnt/frk b=/mnt/fru
faultfs_mount $a || finish
faultfs_mount $b || finish
deva=$(dev_of $a) devb=$(dev_of $b)
dmesg_mark remove
mkdir $b/kdir/u && touch $b/kdir/u/f
expect_eq "$?" 0 "user entries below $b/kdir"
$PDTRACE stat -- sh -c "echo remove kdir >$a/ctl && echo remove kdir >$b/ctl" >/tmp/frm.out 2>&1
expect_eq "$?" 0 "the removals are accepted"
cat /tmp/frm.out
expect_eq "$(stat_col /tmp/frm.out "$deva" 4)" 0 "kernel entries only: persisted"
expect_eq "$(stat_col /tmp/frm.out "$deva" 5)" 3 "kernel entries only: discarded kdir kfile ksub"
expect_eq "$(stat_col /tmp/frm.out "$devb" 4)" 0 "with user entries: persisted"
expect_eq "$(stat_col /tmp/frm.out "$devb" 5)" 5 "with user entries: discarded kdir kfile ksub u u/f"
fault_logged remove /tmp/frm.log "$devb: remove kdir"
expect_no_grep 'WARNING\|BUG' /tmp/frm.log "the kernel does not WARN"
expect_eq "$(ls $a | tr '\n' ' ')" "ctl " "$a root entries"
expect_eq "$(ls $b | tr '\n' ' ')" "ctl " "$b root entries"
faultfs_works $a
faultfs_works $b
faultfs_umount $a
faultfs_umount $b
finish
