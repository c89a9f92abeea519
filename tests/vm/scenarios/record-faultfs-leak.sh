# record + report equals check on an umount that leaks a dentry (the umount task dies of
# the kernel's BUG): the busy-at-umount finding, its stack and the command's status come
# out of the recording exactly as check reported them.
# timeout: 150
# boot: own
# kmods: pdt_faultfs
# The leak fault's umount: the dcache's and the VFS's complaints, the BUG that kills it (tests/vm/run.sh).
# expect-kernel: BUG: Dentry .* still in use \([0-9]+\) \[unmount of pdtfaultfs pdtfaultfs\]|WARNING: fs/dcache\.c:[0-9]+ at umount_check\+|Busy inodes after unmount of pdtfaultfs|kernel BUG at fs/super\.c:[0-9]+|Oops: invalid opcode
. /lib.sh
m=/mnt/frl
faultfs_mount $m || finish
echo "leak lk" >$m/ctl
echo 0 >/proc/sys/kernel/panic_on_oops # let the BUG kill only the umount task
: >/tmp/l.json
: >/tmp/l.pdtrec
$PDTRACE record -o /tmp/l.pdtrec -- $PDTRACE check -f json -o /tmp/l.json -- umount $m 2>/dev/null
rs=$?
$PDTRACE report -f json -o /tmp/l-r.json /tmp/l.pdtrec
same_report /tmp/l.json /tmp/l-r.json "$?" leak
expect_eq "$rs" "$(rec_status /tmp/l-r.json)" "record exit status"
expect_eq "$(cmd_status /tmp/l-r.json)" 1 "check exited 1"
expect_grep '"rule":"busy-at-umount"' /tmp/l-r.json "report: busy-at-umount"
emit /tmp/l.pdtrec rec-faultfs-leak.pdtrec
(sleep 3; echo o >/proc/sysrq-trigger) &
finish
