# Fault eat-unlink: an eaten persistence reference on a kept dentry (no DCACHE_DONTCACHE,
# no d_delete op): it stays hashed on the LRU with count 0 and DCACHE_PERSISTENT set.
# Then a user unlinks it (rm): the lookup takes the count to 1, simple_unlink()'s
# d_make_discardable() finds the flag (no WARN), drops the count to 0 and its
# finish_dput() kills the dentry under the unlink (dentry_kill(): inode detached).
# vfs_unlink() then goes on with the dead dentry: d_delete_notify() does
# ihold(d_inode(dentry)), a NULL pointer. Booted: "BUG: kernel NULL pointer
# dereference, address: 0000000000000148" (i_count), "RIP: 0010:ihold+0xe/0x30" called
# from vfs_unlink+0x21b, rm killed (status 137) holding the root directory's i_rwsem
# and its mount: pdtrace stat counts 1 persist, then 1 discard (by rm), no WARN before
# the oops, and umount is refused (EBUSY). Hence a boot of its own, panic_on_oops off,
# nothing that would look the directory up again, and a poweroff that skips sync.
# pdtrace check (the tracker's redesign) with --no-dput: one imbalance
# eaten-persistence-ref at /NAME.
# timeout: 150
# boot: own
# kmods: pdt_faultfs
# The unlink's NULL dereference in ihold() and its oops (tests/vm/run.sh).
# expect-kernel: BUG: kernel NULL pointer dereference|Oops:
. /lib.sh

echo 0 >/proc/sys/kernel/panic_on_oops # the guest boots with oops=panic
m=/mnt/feu
faultfs_mount $m || finish
dev=$(dev_of $m)
dmesg_mark eat-unlink
$PDTRACE stat -- sh -c "echo eat-unlink eu >$m/ctl" >/tmp/feu.out 2>&1
expect_eq "$?" 0 "the fault is accepted"
cat /tmp/feu.out
expect_eq "$(stat_col /tmp/feu.out "$dev" 4)" 1 "persisted: eu"
expect_eq "$(stat_col /tmp/feu.out "$dev" 5)" 0 "discarded"
fault_logged eat-unlink /tmp/feu.log "$dev: eat-unlink eu"
expect_no_grep 'WARNING\|BUG' /tmp/feu.log "the kernel says nothing at the fault"
expect_eq "$(ls $m | tr '\n' ' ')" "ctl eu kdir " "root entries: eu is kept"
[ -f $m/eu ] || fail "$m/eu is not a regular file"

dmesg_mark rm
$PDTRACE stat -- rm $m/eu >/tmp/feu-rm.out 2>&1
rc=$?
cat /tmp/feu-rm.out
echo "rm under pdtrace stat: status $rc"
dmesg_since rm >/tmp/feu-rm.log
show_kernel_lines /tmp/feu-rm.log
grep -E 'RIP: 0010|pc : |lr : |Call [Tt]race|\]  [a-z_]*unlink|note:' /tmp/feu-rm.log | sed 's/^/kernel: /'
expect_eq "$(stat_col /tmp/feu-rm.out "$dev" 5)" 1 "discarded by rm: eu (simple_unlink)"
# The oops as each architecture words it. x86: "BUG: kernel NULL pointer dereference",
# "RIP: 0010:ihold+...", vfs_unlink in the call trace. arm64: "Unable to handle kernel
# NULL pointer dereference", "pc : ihold+...", and vfs_unlink on the "lr :" line only:
# ihold() is a leaf that never saves the link register, so arm64's unwind (frame records)
# goes from it to vfs_unlink()'s caller.
case "$(uname -m)" in
aarch64)
	expect_grep 'Unable to handle kernel NULL pointer dereference' /tmp/feu-rm.log "the unlink dereferences a NULL inode"
	expect_grep 'pc : ihold+' /tmp/feu-rm.log "in ihold()"
	expect_grep 'lr : vfs_unlink+' /tmp/feu-rm.log "called by vfs_unlink() (d_delete_notify() is inlined)"
	;;
*)
	expect_grep 'BUG: kernel NULL pointer dereference' /tmp/feu-rm.log "the unlink dereferences a NULL inode"
	expect_grep 'RIP: 0010:ihold+' /tmp/feu-rm.log "in ihold()"
	# A frame of the oops's call trace, with or without the kernel's timestamps (CONFIG_PRINTK_TIME).
	expect_grep '^\(\[ *[0-9.]*\]\)\{0,1\} *vfs_unlink+' /tmp/feu-rm.log "called by vfs_unlink() (d_delete_notify() is inlined)"
	;;
esac
expect_no_grep 'WARNING:' /tmp/feu-rm.log "no WARN before the oops"
[ "$rc" -ne 0 ] && pass "rm dies (status $rc)" || fail "rm survived"
# The dead rm still holds the mount (its path) and the root's i_rwsem: no lookup there.
umount $m 2>/tmp/feu-umount.err
rc=$?
echo "umount $m: status $rc: $(cat /tmp/feu-umount.err)"
[ "$rc" -ne 0 ] && pass "umount $m refused (status $rc)" || fail "umount $m succeeded"

# pdtrace check, on another mount (its rm oopses too).
m2=/mnt/feu2
faultfs_mount $m2 || finish
dev2=$(dev_of $m2)
$PDTRACE check --no-dput -f json -o /tmp/feu.json -- sh -c "echo eat-unlink ev >$m2/ctl && rm $m2/ev"
one_finding /tmp/feu.json "$?" "$dev2" imbalance eaten-persistence-ref /ev "check --no-dput"
# The oopsed tasks died holding locks and references: power off from the kernel once
# init has reported this scenario.
(sleep 3; echo o >/proc/sysrq-trigger) &
finish
