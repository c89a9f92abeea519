# The dlm fix (tests/hunt/patches/0002-dlm-do-not-warn-when-a-comm-without-an-address-is-
# removed.patch) verified: with the patched module, removing a comm that was never given an
# address (mkdir dlm/cluster/comms/1, then its rmdir) logs no WARNING, and configfs stays
# balanced (everything made is discarded, no pdtrace finding). On Debian's packaged module
# (the bug) it fails: exercise-dlm-comm-rmdir is that module's scenario. Run it on Debian's
# kernel with the patched module (tests/hunt/patched-module.sh PATCH fs/dlm dlm OUT):
#   tests/vm/run.sh --kernel VMLINUZ --modules OUT/modules hunt-dlm-fixed
# suite: patched
# timeout: 120
# boot: own
# modules: dlm
. /lib.sh
cfs=/sys/kernel/config
grep -qs " $cfs " /proc/self/mountinfo || mount -t configfs configfs $cfs
dev=$(dev_of $cfs)
dmesg_mark dlm
# Node 1 twice over: "1" and "0x1" name one node, the case a fix in drop_comm() would miss.
$PDTRACE check -f json -o /tmp/dlm.json -- sh -c \
	"mkdir $cfs/dlm/cluster && mkdir $cfs/dlm/cluster/comms/1 && rmdir $cfs/dlm/cluster/comms/1 &&
	 mkdir $cfs/dlm/cluster/comms/0x1 && rmdir $cfs/dlm/cluster/comms/0x1 && rmdir $cfs/dlm/cluster"
rc=$?
head -c 2000 /tmp/dlm.json; echo
expect_eq "$rc" 0 "check exits 0: no finding"
expect_eq "$(cmd_status /tmp/dlm.json)" 0 "the mkdirs and rmdirs succeed"
line=$(sbs /tmp/dlm.json | awk -v d="$dev" '$2 == d')
made=$(echo "$line" | awk '{ print $3 }')
discarded=$(echo "$line" | awk '{ print $4 }')
[ "${made:-0}" -gt 0 ] && pass "configfs: $made entries made" || fail "no configfs entries made"
expect_eq "$discarded" "$made" "every entry made is discarded"
dmesg_since dlm >/tmp/dlm.log
show_kernel_lines /tmp/dlm.log
expect_grep 'closing connection to node 1' /tmp/dlm.log "the rmdirs closed node 1, which never had a connection"
expect_no_grep 'WARNING\|BUG' /tmp/dlm.log "the kernel says nothing else"
finish
