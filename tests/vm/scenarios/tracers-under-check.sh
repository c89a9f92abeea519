# Every tracer of current_tracer started and stopped while pdtrace check runs (what
# ftrace's own selftest 00basic/basic2.tc and `trace-cmd record -p function_graph` do): the kernel must log no WARNING, BUG or Oops meanwhile, check must
# find nothing and see every event.
#
# Why it can: pdtrace's brackets are a kprobe.session, an fprobe with an exit handler, so
# the kernel registers fprobe's one fgraph_ops (fprobe_graph_ops) with the function graph
# tracer. On 7.2.13 function_graph_enter_regs() sets BIT(0) in every frame's bitmap
# (kernel/trace/fgraph.c:706-710), and __ftrace_return_to_handler() calls the retfunc of
# fgraph_array[] for every bit set (fgraph.c:850-864): whoever holds index 0 is called at
# the return of every function any graph user traced. The first graph user since boot
# gets index 0 (fgraph_lru_init(), fgraph.c:186-192). When that is fprobe and
# function_graph starts, fprobe_return() runs at the return of a function fprobe never
# entered, finds no data of its own (fgraph_retrieve_data() returns NULL) and warns:
# `WARNING: kernel/trace/fprobe.c:683 at fprobe_return` (the first function traced is
# the mutex_unlock() that ends register_ftrace_graph()). docs/kernel-fgraph-bit0.md has
# the whole path and the proposed kernel fix. pdtrace attaches its session again when it
# got index 0 (avoid_graph_index0() in src/tracker.c); without that this scenario fails
# with that WARN, every time.
#
# A boot of its own: pdtrace must be the first graph user of the boot for its fprobe to
# get index 0, which is where the bug shows every time.
# boot: own
# timeout: 300
. /lib.sh
t=/sys/kernel/tracing
grep -q " $t tracefs " /proc/mounts || mount -t tracefs tracefs $t || { fail "mount tracefs"; finish; }
tracers=$(cat $t/available_tracers)
echo "available tracers: $tracers"
case " $tracers " in *" function_graph "*) ;; *) echo "SKIP: no function_graph tracer"; exit 77 ;; esac

# The run: each tracer (function_graph first, the one that matters) started, a small
# workload that goes through every kind of pdtrace bracket (a tmpfs mounted and
# unmounted: deactivate_locked_super, generic_shutdown_super; a tracefs instance made
# and removed: simple_recursive_removal), the tracer stopped. mmiotrace is left out: it
# takes every CPU but one offline and traces device MMIO, none of the function graph.
order="function_graph function"
for tr in $tracers; do
	case "$tr" in function_graph | function | nop | mmiotrace) ;; *) order="$order $tr" ;; esac
done
cat >/tmp/tracers.sh <<EOS
st=0
for tr in $order; do
	echo "\$tr" >$t/current_tracer || { echo "cannot start tracer \$tr"; st=1; continue; }
	echo "tracer \$(cat $t/current_tracer) on"
	mkdir -p /mnt/tr-\$tr && mount -t tmpfs tr-\$tr /mnt/tr-\$tr && mkdir /mnt/tr-\$tr/d &&
		umount /mnt/tr-\$tr || { echo "tmpfs under \$tr failed"; st=1; }
	mkdir $t/instances/tr-\$tr && rmdir $t/instances/tr-\$tr || { echo "instance under \$tr failed"; st=1; }
	echo nop >$t/current_tracer || { echo "cannot stop tracer \$tr"; st=1; }
	echo "tracer \$tr off"
done
exit \$st
EOS
echo "order: $order"
dmesg_mark tracers
$PDTRACE check -f json -o /tmp/tracers.json -- sh /tmp/tracers.sh
rc=$?
cat /tmp/tracers.json; echo
dmesg_since tracers >/tmp/tracers.dmesg
expect_eq "$rc" 0 "check exit status while the tracers start and stop"
expect_grep '"command":{"argv":\[.*\],"exit_status":0}' /tmp/tracers.json "every tracer started and stopped"
expect_grep '"findings":\[\]' /tmp/tracers.json "no findings"
expect_grep '"complete":true' /tmp/tracers.json "complete data"
expect_no_grep 'WARNING:\|BUG:\|Oops\|Call Trace' /tmp/tracers.dmesg \
	"the kernel logs no WARNING, BUG or Oops while the tracers start and stop under check"

# Once more, the same run: on the second registration of the boot fprobe's index is not
# 0, but WARN_ON_ONCE would be silent anyway; this is about check's verdict.
dmesg_mark tracers2
$PDTRACE check -f json -o /tmp/tracers2.json -- sh /tmp/tracers.sh >/dev/null
expect_eq "$?" 0 "check exit status, second run"
dmesg_since tracers2 >/tmp/tracers2.dmesg
expect_no_grep 'WARNING:\|BUG:\|Oops\|Call Trace' /tmp/tracers2.dmesg "the kernel logs nothing on the second run"
finish
