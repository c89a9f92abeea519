# The qla2xxx fix (tests/hunt/patches/0001-scsi-qla2xxx-destroy-the-trace-instance-at-
# unload.patch) verified: with the patched module, qla2xxx's load makes its tracefs
# instance and its unload destroys it: every entry made is discarded, pdtrace reports
# nothing, and no instance is left. Held open by a user at unload, the instance stays
# (trace_array_destroy(): -EBUSY) and the user's rmdir removes it once closed. On Debian's
# packaged module (the bug) it fails: hunt-qla2xxx-trace-instance is that module's
# scenario. Run it on Debian's kernel with the patched module
# (tests/hunt/patched-module.sh), or on make kernel's from the patched tree:
#   tests/vm/run.sh --kernel VMLINUZ --modules OUT/modules hunt-qla2xxx-fixed
#   tests/vm/run.sh --kernel KDIR hunt-qla2xxx-fixed
# suite: patched
# timeout: 240
# boot: own
# modules: qla2xxx
. /lib.sh
trc=/sys/kernel/tracing
grep -qs " $trc " /proc/self/mountinfo || mount -t tracefs none $trc
# init loaded it (with its dependencies): begin unloaded, so that pdtrace sees the load.
rmmod qla2xxx
expect_eq "$?" 0 "rmmod of the qla2xxx init loaded"
[ ! -e $trc/instances/qla2xxx ] && pass "init's load and unload left no instance" ||
	fail "instances/qla2xxx is left after init's load and unload"
dev=$(dev_of $trc)

dmesg_mark qla
$PDTRACE check -f json -o /tmp/qla.json -- sh -c "insmod /lib/modules/qla2xxx.ko && rmmod qla2xxx"
rc=$?
head -c 3000 /tmp/qla.json; echo
expect_eq "$rc" 0 "check exits 0: no finding"
expect_eq "$(cmd_status /tmp/qla.json)" 0 "insmod and rmmod succeed"
line=$(sbs /tmp/qla.json | awk -v d="$dev" '$2 == d')
made=$(echo "$line" | awk '{ print $3 }')
discarded=$(echo "$line" | awk '{ print $4 }')
[ "${made:-0}" -gt 0 ] && pass "qla2xxx made $made tracefs entries" || fail "no tracefs entries made"
expect_eq "$discarded" "$made" "every entry it made is discarded at its unload"
expect_eq "$(grep -o '"kind":"' /tmp/qla.json | wc -l)" 0 "no finding"
[ ! -e $trc/instances/qla2xxx ] && pass "no instance is left after rmmod" ||
	fail "instances/qla2xxx is left after rmmod"
dmesg_since qla >/tmp/qla.log
show_kernel_lines /tmp/qla.log
expect_no_grep 'WARNING\|BUG' /tmp/qla.log "the kernel says nothing"

# A user holds a file of the instance open at unload: the instance stays, and goes with
# the user's rmdir once the file is closed.
insmod /lib/modules/qla2xxx.ko
expect_eq "$?" 0 "loaded again"
sleep 3 <$trc/instances/qla2xxx/trace &
holder=$!
sleep 0.5
rmmod qla2xxx
expect_eq "$?" 0 "rmmod while a file of the instance is open"
[ -d $trc/instances/qla2xxx ] && pass "the instance stays while held" || fail "the instance went while held"
wait $holder
rmdir $trc/instances/qla2xxx
expect_eq "$?" 0 "the user's rmdir removes it once closed"
finish
