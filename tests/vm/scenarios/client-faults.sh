# The clients of the other client-*.sh scenarios (one round each: stress-ng on tmpfs,
# nvmetcli and targetcli on configfs, trace-cmd on tracefs, bpftool on bpffs, cp/mv/tar/rm
# on overlayfs) all at once under one pdtrace check, while another process injects
# pdtfaultfs bugs (3 discards of entries that are not persistent, 2 eaten persistence
# references) one at a time as they run: exactly those findings, on pdtfaultfs, and no
# others; complete data, the self-check clean, every other superblock's books back to
# zero, and each client did all it does in its own scenario.
# suite: clients
# root: sid
# timeout: 1200
# modules: nvmet nvme-loop nvmet-tcp null_blk target_core_mod target_core_file tcm_loop iscsi_target_mod overlay
# kmods: pdt_faultfs
# The kernel's WARN in d_make_discardable() at each discard-unpersisted fault (tests/vm/run.sh).
# expect-kernel: WARNING: fs/dcache\.c:[0-9]+ at d_make_discardable\+
. /lib.sh
CLIENTS="stressng nvmetcli targetcli tracecmd bpftool overlay"
for c in $CLIENTS; do
	CLIENT_PREP=1 . /scenarios/client-$c.sh
done
faultfs_mount /mnt/f || finish
runs="client-stress-tmpfs client-nvmetcli client-targetcli client-tracecmd client-bpftool client-overlay"
# Their outputs exist before the trace starts: no file is made on /tmp during it.
for r in $runs; do : >/tmp/$r.out; done
cat >/tmp/faults.sh <<EOS
for r in $runs; do sh /tmp/\$r.sh >/tmp/\$r.out 2>&1 & done
for f in "discard-unpersisted nx1" "eat xd1" "discard-unpersisted nx2" "eat xd2" "discard-unpersisted nx3"; do
	sleep 3
	echo "\$f" >/mnt/f/ctl || echo "@client inject failed: \$f"
done
wait
EOS
client_run faults /tmp/faults.sh
CLIENT_TAG=" (with faults)"
expect_eq "$client_rc" 1 "clients with faults: check exits 1"
expect_eq "$(grep -o '"rule":"[a-z-]*","fs_type":"[a-z]*"' /tmp/faults.json | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
	' 3 "rule":"discard-unpersisted","fs_type":"pdtfaultfs"; 2 "rule":"eaten-persistence-ref","fs_type":"pdtfaultfs";' \
	"clients with faults: exactly the injected findings, on pdtfaultfs"
expect_grep '"summary":{"leak":0,"imbalance":5,"illegal-removal":0}' /tmp/faults.json "clients with faults: 5 imbalance"
client_books "clients with faults" /tmp/faults.json pdtfaultfs
for r in $runs; do
	echo "== $r"
	cat /tmp/$r.out
done
stress_check /tmp/faults.json tmpfs $ALL
nvmetcli_check /tmp/faults.json
targetcli_check /tmp/faults.json
tracecmd_check /tmp/faults.json
bpftool_check /tmp/faults.json
overlay_check /tmp/faults.json
CLIENT_TAG=
client_summary "echo >ctl (injector)" pdtfaultfs "3 discard-unpersisted, 2 eat" /tmp/faults.json "$(dev_of /mnt/f)"
umount /mnt/f
finish
