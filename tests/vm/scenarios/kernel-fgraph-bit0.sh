# The kernel bug behind fprobe_return()'s warning when function_graph starts, without
# pdtrace (docs/kernel-fgraph-bit0.md): an fprobe with an exit handler that is the boot's
# first function graph user gets index 0 of fgraph_array; function_graph_enter_regs() sets bit 0 in every frame's bitmap
# (kernel/trace/fgraph.c:706-710), so once the function_graph tracer starts, fprobe's
# fprobe_return() runs at the return of functions fprobe never entered, finds no data and
# WARNs (kernel/trace/fprobe.c:683). The fprobe here is tracefs's own: an fprobe event on
# a function's exit (`f:NAME vfs_read%return`), enabled. Expects the WARN: the scenario
# documents the bug, and fails once the kernel is fixed (then the doc and
# tracers-under-check.sh's comment want updating).
# A boot of its own: the fprobe must be the first graph user of the boot.
# boot: own
# timeout: 300
# expect-kernel: WARNING: kernel/trace/fprobe\.c:[0-9]+ at fprobe_return\+
. /lib.sh
t=/sys/kernel/tracing
grep -q " $t tracefs " /proc/mounts || mount -t tracefs tracefs $t || { fail "mount tracefs"; finish; }
grep -qw function_graph $t/available_tracers || { echo "SKIP: no function_graph tracer"; exit 77; }
echo 'f:pdtbit0/vfsread vfs_read%return' >>$t/dynamic_events || { echo "SKIP: no fprobe events"; exit 77; }
echo 1 >$t/events/pdtbit0/vfsread/enable
expect_eq "$?" 0 "an fprobe exit event on vfs_read enabled (fprobe_graph_ops registered first)"
cat /proc/version >/dev/null # a vfs_read under the fprobe alone: no warning
dmesg_mark fgraph-bit0
echo function_graph >$t/current_tracer
expect_eq "$?" 0 "function_graph started"
cat /proc/version >/dev/null
echo nop >$t/current_tracer
dmesg_since fgraph-bit0 >/tmp/fgb.log
show_kernel_lines /tmp/fgb.log
expect_grep 'WARNING: kernel/trace/fprobe.c:[0-9]* at fprobe_return+' /tmp/fgb.log \
	"the kernel WARNs in fprobe_return() (the bug is there)"
# At the return of whichever function the function graph tracer traced first: most often
# the mutex_unlock() at the end of register_ftrace_graph(), at times a timer interrupt's.
expect_grep 'return_to_handler+' /tmp/fgb.log "at a return of the function graph tracer's (return_to_handler)"
echo 0 >$t/events/pdtbit0/vfsread/enable
echo '-:pdtbit0/vfsread' >>$t/dynamic_events
expect_eq "$?" 0 "the fprobe event removed"
finish
