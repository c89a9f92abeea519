# pdtrace check on an umount that leaks a dentry: the finding matches the kernel's own
# "Dentry ... still in use (1)" line, and check exits 1 although umount itself dies.
# timeout: 120
# boot: own
# kmods: pdt_faultfs
# The leak fault's umount: the dcache's and the VFS's complaints, the BUG that kills it (tests/vm/run.sh).
# expect-kernel: BUG: Dentry .* still in use \([0-9]+\) \[unmount of pdtfaultfs pdtfaultfs\]|WARNING: fs/dcache\.c:[0-9]+ at umount_check\+|Busy inodes after unmount of pdtfaultfs|kernel BUG at fs/super\.c:[0-9]+|Oops: invalid opcode
. /lib.sh
m=/mnt/fcl
faultfs_mount $m || finish
dev=$(dev_of $m)
echo "leak lk" >$m/ctl
echo 0 >/proc/sys/kernel/panic_on_oops # let the BUG kill only the umount task
dmesg_mark leak
$PDTRACE check -f json -o /tmp/l.json -- umount $m
expect_eq "$?" 1 "check exits 1"
dmesg_since leak >/tmp/l.log
show_kernel_lines /tmp/l.log
cat /tmp/l.json; echo
expect_grep 'BUG: Dentry .*n=lk}.*still in use (1) \[unmount of pdtfaultfs pdtfaultfs\]' /tmp/l.log "the kernel: lk still in use (1)"
expect_grep '"kind":"leak","rule":"busy-at-umount","fs_type":"pdtfaultfs","s_id":"pdtfaultfs","dev":"'"$dev"'","path":"/lk","origin":"unknown","refcount":1' /tmp/l.json "pdtrace: leak busy-at-umount /lk refcount 1"
expect_grep '"stack":\["umount_check+' /tmp/l.json "stack starts in umount_check"
expect_grep '"exit_status":1[0-9][0-9]' /tmp/l.json "umount died (its status is in the report)"
(sleep 3; echo o >/proc/sysrq-trigger) &
finish
