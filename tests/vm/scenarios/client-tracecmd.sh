# tracefs instances through trace-cmd, as its users run it: `trace-cmd record -B` (an
# instance made for the recording and removed after it) of a command's exec and exit
# events, and `trace-cmd start -B`, `stop`, `extract -B`, `reset -B -d` (an instance
# made, read out and deleted); three rounds under pdtrace check, the recordings read back
# with `trace-cmd report`. No finding, complete data, the self-check clean, and tracefs
# (which stays mounted) discarded every entry of the instances.
# suite: clients
# root: sid
# timeout: 900
. /lib.sh
need_sid trace-cmd
ROUNDS=3
! client_prep_only || ROUNDS=1
tfs=$SID/sys/kernel/tracing
grep -q " $tfs " /proc/mounts || mount -t tracefs tracefs "$tfs" || { fail "mount tracefs"; finish; }

# tracecmd_check JSON: after the run, what trace-cmd said it did; its line of the table.
tracecmd_check() {
	local out=/tmp/client-tracecmd.out rec ext
	expect_no_grep '^@client trace-cmd failed\|^@client umount failed' $out "trace-cmd: every command succeeded"
	rec=$(awk '$1 == "@client" && $2 == "recorded" { n += $4 } END { print n + 0 }' $out)
	ext=$(awk '$1 == "@client" && $2 == "extracted" { n += $4 } END { print n + 0 }' $out)
	expect_eq "$(awk '$1 == "@client" && ($2 == "recorded" || $2 == "extracted") && $4 > 0' $out | wc -l)" \
		$((ROUNDS * 2)) "trace-cmd: every recording and extraction holds events"
	expect_eq "$(grep '^instance left: ' $out)" "" "trace-cmd: no instance left"
	client_summary trace-cmd tracefs \
		"$ROUNDS x (record -B, start/stop/extract/reset -d -B): $((ROUNDS * 2)) instances, $rec events recorded, $ext extracted" \
		"$1" "$(dev_of "$tfs")"
}

client_home_dir tracecmd
cat >/tmp/client-tracecmd.sh <<EOS
. /lib.sh
client_home tracecmd || exit 1
tc() { sid trace-cmd "\$@" || echo "@client trace-cmd failed: \$*"; }
for r in \$(seq 1 $ROUNDS); do
	tc record -B pdt-rec\$r -e sched:sched_process_exec -e sched:sched_process_exit -o rec\$r.dat ls -R /etc
	echo "@client recorded \$r \$(sid trace-cmd report -i rec\$r.dat 2>/dev/null | grep -c 'sched_process_e')"
	tc start -B pdt-ext\$r -e sched:sched_process_exec
	sid sh -c 'for i in 1 2 3 4 5; do /bin/true; done'
	tc stop -B pdt-ext\$r
	tc extract -B pdt-ext\$r -o ext\$r.dat
	tc reset -B pdt-ext\$r -d
	echo "@client extracted \$r \$(sid trace-cmd report -i ext\$r.dat 2>/dev/null | grep -c 'sched_process_exec')"
done
ls $tfs/instances | sed 's/^/instance left: /'
client_home_down || echo "@client umount failed"
EOS
! client_prep_only || return 0
client_run client-tracecmd /tmp/client-tracecmd.sh
client_clean "trace-cmd on tracefs" /tmp/client-tracecmd.json
tracecmd_check /tmp/client-tracecmd.json
finish
