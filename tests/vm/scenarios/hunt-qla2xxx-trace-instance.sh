# Found by make hunt (docs/hunt.md): qla2xxx makes a tracefs instance, instances/qla2xxx,
# at load (qla_trace_init(): trace_array_get_by_name()) and only drops its reference at
# unload (qla_trace_uninit(): trace_array_put(), no trace_array_destroy()): the instance
# and its ring buffers stay after rmmod, with no hardware at all. pdtrace reports each of
# its entries as leak/outlives-module, naming qla2xxx; the kernel says nothing. A second
# load takes the same instance again (no new entries); a user's rmdir removes it.
# timeout: 240
# boot: own
# modules: qla2xxx
. /lib.sh
trc=/sys/kernel/tracing
grep -qs " $trc " /proc/self/mountinfo || mount -t tracefs none $trc
# init loaded it (with its dependencies): begin unloaded, so that pdtrace sees the load.
rmmod qla2xxx
expect_eq "$?" 0 "rmmod of the qla2xxx init loaded"
# That unload left the instance of init's load: remove it, as a user may.
rmdir $trc/instances/qla2xxx 2>/dev/null
[ ! -e $trc/instances/qla2xxx ] && pass "no qla2xxx instance before the run" || fail "an instance is left"
dev=$(dev_of $trc)

dmesg_mark qla
$PDTRACE check -f json -o /tmp/qla.json -- sh -c "insmod /lib/modules/qla2xxx.ko && rmmod qla2xxx"
rc=$?
head -c 3000 /tmp/qla.json; echo
expect_eq "$rc" 1 "check exits 1"
expect_eq "$(cmd_status /tmp/qla.json)" 0 "insmod and rmmod succeed"
made=$(sbs /tmp/qla.json | awk -v d="$dev" '$2 == d { print $3 }')
n=$(grep -o '"rule":"outlives-module","fs_type":"tracefs","s_id":"tracefs","dev":"'"$dev"'","path":"/instances/qla2xxx[/"]' /tmp/qla.json | wc -l)
[ "${made:-0}" -gt 0 ] && pass "qla2xxx made $made tracefs entries" || fail "no tracefs entries made"
expect_eq "$n" "$made" "every entry it made is an outlives-module finding under /instances/qla2xxx"
expect_eq "$(grep -o '"kind":"' /tmp/qla.json | wc -l)" "$n" "no other finding"
expect_grep '"module":"qla2xxx"' /tmp/qla.json "the module is named"
expect_grep '"created_stack":\["[^]]*trace_array_get_by_name' /tmp/qla.json \
	"the creation stack goes through trace_array_get_by_name()"
[ -d $trc/instances/qla2xxx ] && pass "the kernel keeps instances/qla2xxx after rmmod" ||
	fail "instances/qla2xxx is gone"
echo "left allocated: $(cat $trc/instances/qla2xxx/buffer_total_size_kb) KiB of ring buffer"
dmesg_since qla >/tmp/qla.log
show_kernel_lines /tmp/qla.log
expect_no_grep 'WARNING\|BUG\|instances' /tmp/qla.log "the kernel says nothing"

# Loaded again, it takes the instance it left: no entry made, none left behind anew.
$PDTRACE check -f json -o /tmp/qla2.json -- sh -c "insmod /lib/modules/qla2xxx.ko && rmmod qla2xxx"
expect_eq "$?" 0 "a second load and unload: check exits 0"
expect_eq "$(sbs /tmp/qla2.json | awk -v d="$dev" '$2 == d { print $3 }')" "" "the second load makes no tracefs entry"
rmdir $trc/instances/qla2xxx
expect_eq "$?" 0 "a user's rmdir removes the instance"
finish
