# Fault leak: a persistent entry whose creation reference is never dropped. At umount
# the kernel unpins it, then reports it "still in use (1)" (a WARN in umount_check())
# and busy inodes, which CONFIG_BUG_ON_DATA_CORRUPTION turns into a BUG that kills
# the umount task. That leaves the superblock's s_umount held for good (sync would
# hang), hence a boot of its own and a poweroff that skips sync.
# timeout: 90
# boot: own
# kmods: pdt_faultfs
# The leak fault's umount: the dcache's and the VFS's complaints, the BUG that kills it (tests/vm/run.sh).
# expect-kernel: BUG: Dentry .* still in use \([0-9]+\) \[unmount of pdtfaultfs pdtfaultfs\]|WARNING: fs/dcache\.c:[0-9]+ at umount_check\+|Busy inodes after unmount of pdtfaultfs|kernel BUG at fs/super\.c:[0-9]+|Oops: invalid opcode
. /lib.sh
m=/mnt/flk
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark leak
$PDTRACE stat -- sh -c "echo leak lk >$m/ctl" >/tmp/flk.out 2>&1
expect_eq "$?" 0 "the fault is accepted"
cat /tmp/flk.out
expect_eq "$(stat_col /tmp/flk.out "$dev" 4)" 1 "persisted: lk"
expect_eq "$(stat_col /tmp/flk.out "$dev" 5)" 0 "discarded"
faultfs_works $m
# The guest boots with oops=panic: let the BUG kill only the umount task.
echo 0 >/proc/sys/kernel/panic_on_oops
umount $m
rc=$?
[ "$rc" -ne 0 ] && pass "umount dies (status $rc)" || fail "umount survived the leak"
fault_logged leak /tmp/flk.log "$dev: leak lk"
expect_grep 'BUG: Dentry .*n=lk}.*still in use (1) \[unmount of pdtfaultfs pdtfaultfs\]' /tmp/flk.log \
	"umount_check() reports lk still in use (1)"
expect_grep 'WARNING:.*umount_check+' /tmp/flk.log "the kernel WARNs in umount_check()"
expect_grep 'VFS: Busy inodes after unmount of pdtfaultfs (pdtfaultfs)' /tmp/flk.log "busy inodes"
expect_grep 'kernel BUG at\|invalid opcode' /tmp/flk.log "busy inodes are a BUG (CONFIG_BUG_ON_DATA_CORRUPTION)"
grep -q " $m " /proc/self/mountinfo && fail "$m is still mounted"
expect_eq "$(faultfs_refs)" 1 "the dead superblock still holds the module"
# init's sync (and poweroff's) would block on the dead superblock's s_umount: power off
# from the kernel once init has reported this scenario.
(sleep 3; echo o >/proc/sysrq-trigger) &
finish
