# Fault discard-unpersisted: d_make_discardable() on the negative dentry of a name that
# was never made persistent. The kernel WARNs in d_make_discardable(); pdtrace stat
# counts one discard and no persist; nothing is left over: the fs works, unmounts clean.
# timeout: 90
# kmods: pdt_faultfs
# The kernel's WARN in d_make_discardable() at each discard-unpersisted fault (tests/vm/run.sh).
# expect-kernel: WARNING: fs/dcache\.c:[0-9]+ at d_make_discardable\+
. /lib.sh
m=/mnt/fdu
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark discard-unpersisted
$PDTRACE stat -- sh -c "echo discard-unpersisted ghost >$m/ctl" >/tmp/fdu.out 2>&1
expect_eq "$?" 0 "the fault is accepted"
cat /tmp/fdu.out
expect_eq "$(stat_col /tmp/fdu.out "$dev" 4)" 0 "persisted"
expect_eq "$(stat_col /tmp/fdu.out "$dev" 5)" 1 "discarded (the unpersisted dentry)"
fault_logged discard-unpersisted /tmp/fdu.log "$dev: discard-unpersisted ghost"
expect_grep 'WARNING:.*d_make_discardable+' /tmp/fdu.log "the kernel WARNs in d_make_discardable()"
expect_eq "$(grep -c 'WARNING:' /tmp/fdu.log)" 1 "exactly one WARN"
[ -e $m/ghost ] && fail "$m/ghost exists"
echo "discard-unpersisted kdir" >$m/ctl 2>/dev/null && fail "discard-unpersisted of an existing entry accepted"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl kdir " "root entries"
faultfs_works $m
faultfs_umount $m
finish
