# Found by make exercise (docs/hunt.md, the exerciser): dlm warns when a comm that never had
# an address is removed from its configfs. mkdir dlm/cluster/comms/N makes a struct dlm_comm
# (make_comm()), nothing else; the connection to node N is made only when an address is
# written to the comm's addr (comm_addr_store() -> dlm_midcomms_addr() ->
# dlm_lowcomms_addr() -> nodeid2con(nodeid, GFP_NOFS)). rmdir calls drop_comm() ->
# dlm_midcomms_close(N): no midcomms node, so dlm_lowcomms_close(N), whose
# nodeid2con(N, 0) finds no connection: WARN_ON_ONCE(!con) fires, reachable by any
# configfs user with two syscalls (and a panic where panic_on_warn is set). pdtrace sees a
# balanced configfs: everything made is discarded, no finding.
# The minimized reproducer of the exerciser's log (tests/exercise/minimize.sh).
# timeout: 120
# boot: own
# modules: dlm
# expect-kernel: WARNING: fs/dlm/lowcomms\.c:[0-9]+ at dlm_lowcomms_close\+
. /lib.sh
cfs=/sys/kernel/config
grep -qs " $cfs " /proc/self/mountinfo || mount -t configfs configfs $cfs
dev=$(dev_of $cfs)
dmesg_mark dlm
$PDTRACE check -f json -o /tmp/dlm.json -- sh -c \
	"mkdir $cfs/dlm/cluster && mkdir $cfs/dlm/cluster/comms/1 && rmdir $cfs/dlm/cluster/comms/1 && rmdir $cfs/dlm/cluster"
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
expect_grep 'WARNING: fs/dlm/lowcomms.c:[0-9]* at dlm_lowcomms_close+' /tmp/dlm.log \
	"dlm warns in dlm_lowcomms_close() at the comm's rmdir"
expect_grep 'closing connection to node 1' /tmp/dlm.log "for node 1, which never had a connection"
finish
