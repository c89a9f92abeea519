# record + report equals check on an umount that leaks a dentry (the umount task dies of
# the kernel's BUG): the busy-at-umount finding, its stack and the command's status come
# out of the recording exactly as check reported them.
# timeout: 150
# boot: own
# kmods: pdt_faultfs
. /lib.sh
m=/mnt/frl
faultfs_mount $m || finish
echo "leak lk" >$m/ctl
echo 0 >/proc/sys/kernel/panic_on_oops # let the BUG kill only the umount task
: >/tmp/l.json
: >/tmp/l.pdtrec
$PDTRACE record -o /tmp/l.pdtrec -- $PDTRACE check -f json -o /tmp/l.json -- umount $m 2>/dev/null
expect_eq "$?" 0 "record exit status"
$PDTRACE report -f json -o /tmp/l-r.json /tmp/l.pdtrec
expect_eq "$?" 1 "report exits 1, as check did"
expect_grep '"rule":"busy-at-umount"' /tmp/l-r.json "report: busy-at-umount"
if [ "$(strip /tmp/l.json)" = "$(strip /tmp/l-r.json)" ]; then
	pass "report JSON equals check JSON"
else
	fail "report JSON differs from check JSON"
	strip /tmp/l.json; echo; strip /tmp/l-r.json; echo
fi
emit /tmp/l.pdtrec rec-faultfs-leak.pdtrec
(sleep 3; echo o >/proc/sysrq-trigger) &
finish
