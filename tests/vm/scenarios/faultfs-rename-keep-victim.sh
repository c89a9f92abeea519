# Fault rename-keep-victim: NAME.victim (mode 0600) and NAME (0644) made persistent by the
# kernel, then NAME moved over NAME.victim as simple_rename() would, but without
# d_make_discardable() on the victim before d_move(). __d_move() unhashes the victim and
# leaves it among the root's children: still persistent (count 1), invisible, out of the
# shrinker's reach. pdtrace stat counts 2 persists, no discard; NAME.victim is now the old
# NAME (0644); the kernel says nothing. The umount walk still reaches the victim through
# the root's d_children and unpins it: umount is clean, the superblock freed.
# pdtrace check (the tracker's redesign) with --no-dput: one leak rename-victim-kept at
# /NAME.victim.
# timeout: 150
# kmods: pdt_faultfs
. /lib.sh

m=/mnt/frv
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark rename-keep-victim
$PDTRACE stat -- sh -c "echo rename-keep-victim rv >$m/ctl" >/tmp/frv.out 2>&1
expect_eq "$?" 0 "the fault is accepted"
cat /tmp/frv.out
expect_eq "$(stat_col /tmp/frv.out "$dev" 4)" 2 "persisted: rv.victim, rv"
expect_eq "$(stat_col /tmp/frv.out "$dev" 5)" 0 "discarded: none (the victim is kept)"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl kdir rv.victim " "root entries: rv moved over rv.victim"
expect_eq "$(stat -c %a $m/rv.victim)" 644 "rv.victim is the old rv (mode 644, the victim's was 600)"
[ -e $m/rv ] && fail "$m/rv exists"
echo "rename-keep-victim kdir" >$m/ctl 2>/dev/null && fail "a rename over an existing NAME accepted"
echo "rename-keep-victim rv" >$m/ctl 2>/dev/null && fail "a second rename-keep-victim rv accepted (rv.victim exists)"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl kdir rv.victim " "root entries after refused commands"
echo 2 >/proc/sys/vm/drop_caches
echo data >$m/rv.victim && expect_eq "$(cat $m/rv.victim)" data "$m/rv.victim works as a file"
fault_logged rename-keep-victim /tmp/frv.log "$dev: rename-keep-victim rv"
expect_no_grep 'WARNING\|BUG' /tmp/frv.log "the kernel says nothing"
faultfs_works $m
faultfs_umount $m

# pdtrace check, on a fresh mount.
faultfs_mount $m || finish
dev=$(dev_of $m)
$PDTRACE check --no-dput -f json -o /tmp/frv.json -- sh -c "echo rename-keep-victim rw >$m/ctl"
one_finding /tmp/frv.json "$?" "$dev" leak rename-victim-kept /rw.victim "check --no-dput"
faultfs_umount $m
finish
