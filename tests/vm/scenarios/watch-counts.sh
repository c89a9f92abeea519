# pdtrace watch, not on a terminal: one line per superblock per interval with exact
# counts at each step of a workload; seeded counts for filesystems populated before it
# started match a walk of their trees; the Prometheus file parses strictly and agrees.
# A second watch with --prometheus and no -f, as the service runs it, prints only the
# finding on its stdout.
# timeout: 180
# kmods: pdt_faultfs
# The kernel's WARN in d_make_discardable() at each discard-unpersisted fault (tests/vm/run.sh).
# expect-kernel: WARNING: fs/dcache\.c:[0-9]+ at d_make_discardable\+
. /lib.sh
mkdir -p /mnt/pre /mnt/w /sys/kernel/debug
mount -t tmpfs pre /mnt/pre && mkdir -p /mnt/pre/a/b && touch /mnt/pre/c
grep -q ' /sys/kernel/debug ' /proc/mounts || mount -t debugfs debugfs /sys/kernel/debug
# With CONFIG_TRACEFS_AUTOMOUNT_DEPRECATED (Debian's kernel, make kernel's), debugfs has
# "tracing", an automount point (kernel/trace/trace.c: debugfs_create_automount()) pinned
# with d_make_persistent() like every debugfs entry (fs/debugfs/inode.c). Opening it mounts
# tracefs there: find -xdev stops at a mount already there, but enters an automount point
# not yet triggered and counts tracefs's root as debugfs's. Triggered before watch starts:
# the seed must count the entry that mount covers, without entering it.
ls /sys/kernel/debug/tracing/ >/dev/null 2>&1
predev=$(dev_of /mnt/pre)
dbgdev=$(dev_of /sys/kernel/debug)

$PDTRACE watch -i 0.5 -f text --prometheus /tmp/p.prom >/tmp/w.out 2>/tmp/w.err &
pid=$!
$PDTRACE watch -i 0.5 --prometheus /tmp/pq.prom >/tmp/wq.out 2>/tmp/wq.err &
qpid=$!
for i in $(seq 1 200); do [ -s /tmp/w.out ] && [ -s /tmp/pq.prom ] && break; sleep 0.1; done

# latest DEV FIELD: FIELD=value from the last line about DEV
latest() { awk -v d="$1" -v f="$2" '$3 == d { for (i = 5; i <= NF; i++) if (index($i, f "=") == 1) v = substr($i, length(f) + 2) } END { print v }' /tmp/w.out; }
settle() { sleep 1.5; }

expect_eq "$(latest "$predev" persistent)" 3 "seeded count of a tmpfs populated before start"
grep -q " $predev /mnt/pre .* seeded" /tmp/w.out && pass "tmpfs row marked seeded" || fail "tmpfs row not marked seeded"
# debugfs: every entry below the root is persistent, a mountpoint too (the walk must agree
# with find).
want=$(find /sys/kernel/debug -xdev -mindepth 1 | wc -l)
expect_eq "$(latest "$dbgdev" persistent)" "$want" "seeded debugfs count equals a walk of the tree"

mount -t tmpfs w /mnt/w
wdev=$(dev_of /mnt/w)
for i in $(seq 1 20); do mkdir /mnt/w/d$i; done
settle
expect_eq "$(latest "$wdev" persistent)" 20 "20 entries made"
expect_eq "$(latest "$wdev" made)" 20 "made counter"
for i in $(seq 1 10); do rmdir /mnt/w/d$i; done
settle
expect_eq "$(latest "$wdev" persistent)" 10 "half removed"
expect_eq "$(latest "$wdev" discarded)" 10 "discarded counter"
# The Prometheus file says the same, and is well-formed to a strict reading.
line=$(grep "^pdtrace_persistent_dentries{.*mountpoint=\"/mnt/w\"}" /tmp/p.prom)
expect_eq "${line##* }" 10 "prometheus gauge for /mnt/w"
bad=$(awk '
	/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .+$/ { next }
	/^# TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (counter|gauge)$/ { types[$3] = 1; next }
	/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")*\})? -?[0-9]+$/ {
		name = $0; sub(/[{ ].*/, "", name); if (!(name in types)) print "untyped: " $0; next }
	{ print "bad: " $0 }' /tmp/p.prom)
[ -z "$bad" ] && pass "prometheus file parses strictly" || fail "prometheus file: $bad"
expect_grep '^pdtrace_findings_total{kind="leak"} 0$' /tmp/p.prom "findings counter"
expect_grep '^pdtrace_lost_events_total 0$' /tmp/p.prom "lost events counter"
expect_eq "$(grep -c "mountpoint=\"/mnt/pre\"" /tmp/p.prom)" 3 "seeded superblock exported"

umount /mnt/w
settle
expect_grep " $wdev - persistent=0 made=20 discarded=10 unpinned=10 .* unmounted$" /tmp/w.out "umount shown: 10 unpinned, row marked unmounted"
last=$(tail -n 1 /tmp/w.out | cut -d' ' -f1)
if grep "^$last " /tmp/w.out | grep -q " $wdev "; then fail "unmounted row still listed in the last interval"; else pass "unmounted row dropped afterwards"; fi
grep -q "mountpoint=\"/mnt/w\"" /tmp/p.prom && fail "gone superblock still exported" || pass "gone superblock not exported"
# A finding while watching is printed, never dropped, and counted.
faultfs_mount /mnt/wf
wfdev=$(dev_of /mnt/wf)
echo discard-unpersisted nx >/mnt/wf/ctl
settle
expect_grep "^finding: imbalance: discard-unpersisted: pdtfaultfs $(dev_of /mnt/wf) /nx$" /tmp/w.out "finding printed while watching"
expect_grep '^pdtrace_findings_total{kind="imbalance"} 1$' /tmp/p.prom "finding counted in the Prometheus file"
umount /mnt/wf
kill -INT $pid $qpid
wait $pid
expect_eq "$?" 1 "watch exit status after SIGINT: 1, a finding was made"
wait $qpid
expect_eq "$?" 1 "watch --prometheus, no -f: exit 1, a finding was made"
expect_eq "$(cat /tmp/wq.out)" "finding: imbalance: discard-unpersisted: pdtfaultfs $wfdev /nx" \
	"watch --prometheus, no -f: the finding's line, nothing else on stdout"
expect_grep '^pdtrace_findings_total{kind="imbalance"} 1$' /tmp/pq.prom "watch --prometheus, no -f: the finding in its file"
if grep -q $'\033' /tmp/w.out; then fail "escape codes in non-terminal output"; else pass "no escape codes when not on a terminal"; fi
finish
