# outlives-module when other modules take the memory of the one that leaks. pdt_faultfs
# (leave_debugfs=1) makes /pdt_faultfs_leftover from its init text, which is freed when
# its init returns; nvmet, nvmet-tcp, nvme-loop and null_blk are loaded next (one of
# them usually takes that memory) and stay loaded, then pdt_faultfs is unloaded. The one
# finding names pdt_faultfs, and the creation stack's frame in the freed init text is
# still "(init_text)+0x... [pdt_faultfs]", not the function of whichever module holds
# that address at the end. The same from a recording, and from trace as it happens.
# timeout: 240
# boot: own
# modules: nvmet nvme-loop nvmet-tcp null_blk
# kmods: pdt_faultfs
. /lib.sh
grep -qs ' /sys/kernel/debug ' /proc/self/mountinfo || mount -t debugfs none /sys/kernel/debug
rmmod pdt_faultfs nvme_loop nvmet_tcp nvmet null_blk
expect_eq "$?" 0 "rmmod of the modules init loaded"
dbg=$(dev_of /sys/kernel/debug)
others="$(mods_ko nvmet) $(mods_ko nvmet_tcp) $(mods_ko nvme_loop) $(mods_ko null_blk)"

$PDTRACE trace -f json >/tmp/omr-trace.json 2>/tmp/omr-trace.err &
tpid=$!
# Attaching takes a moment under emulation: wait for the banner.
for i in $(seq 1 300); do grep -q 'tracing persistent dentries' /tmp/omr-trace.err && break; sleep 0.1; done
$PDTRACE record -o /tmp/omr.pdtrec -- $PDTRACE check -f json --show-addresses -o /tmp/omr.json -- sh -c \
	"insmod $(mods_ko pdt_faultfs) leave_debugfs=1 && for m in $others; do insmod \$m || exit 1; done && rmmod pdt_faultfs"
rs=$?
sleep 2
kill -INT $tpid
wait $tpid
cat /tmp/omr.json; echo
expect_eq "$rs" 0 "record exits 0 (its data is complete)"
expect_eq "$(grep -o '"kind":"' /tmp/omr.json | wc -l)" 1 "exactly one finding"
expect_grep "\"rule\":\"outlives-module\",\"fs_type\":\"debugfs\",\"s_id\":\"debugfs\",\"dev\":\"$dbg\",\"path\":\"/pdt_faultfs_leftover\"" \
	/tmp/omr.json "leak/outlives-module at /pdt_faultfs_leftover"
expect_grep '"module":"pdt_faultfs"' /tmp/omr.json "the module is named"
expect_grep '"created_stack":\["[^]]*(init_text)+0x[0-9a-f]* \[pdt_faultfs\]","0x[0-9a-f]* do_one_initcall' /tmp/omr.json \
	"the frame in the freed init text is named after pdt_faultfs"
# Whether another module took that memory: what the frame would have been named otherwise.
init=$(sed -n 's/.*"created_stack":\[[^]]*"0x\([0-9a-f]*\) (init_text)+0x\([0-9a-f]*\) \[pdt_faultfs\]","0x[0-9a-f]* do_one_initcall.*/\1/p' /tmp/omr.json)
taker=
for m in nvmet nvmet_tcp nvme_loop null_blk; do
	for s in /sys/module/$m/sections/.text /sys/module/$m/sections/.text.unlikely; do
		[ -r "$s" ] || continue
		lo=$(cat "$s"); lo=${lo#0x}
		[ -n "$init" ] && [ "$((0x$init - 0x$lo))" -ge 0 ] && [ "$((0x$init - 0x$lo))" -lt $((1 << 20)) ] && taker="$taker $m"
	done
done
echo "modules whose text starts up to 1 MiB below the init frame:${taker:- none}"
$PDTRACE report -f json -o /tmp/omr-r.json /tmp/omr.pdtrec
expect_grep '"created_stack":\["[^]]*(init_text)+0x[0-9a-f]* \[pdt_faultfs\]","do_one_initcall' /tmp/omr-r.json \
	"report of the recording: the same name"
cat /tmp/omr-trace.err
expect_grep '"rule":"outlives-module".*"created_stack":\["[^]]*(init_text)+0x[0-9a-f]* \[pdt_faultfs\]","do_one_initcall' \
	/tmp/omr-trace.json "trace: the same name, as it happens"
finish
