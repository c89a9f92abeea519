# What pdtrace leaves behind: SIGKILL of trace or check leaves no BPF program or link
# attached, and no pin; without CAP_BPF+CAP_PERFMON (or root) it refuses in one line.
# timeout: 120
. /lib.sh
count() { pdt-bpfpin count tracing; }
attached() { # pid: wait until its BPF links are open
	for i in $(seq 1 120); do
		ls -l /proc/$1/fd 2>/dev/null | grep -q 'bpf.link' && return 0
		sleep 0.5
	done
	return 1
}
settled() { # wait for the kernel to free what the dead process held
	for i in $(seq 1 40); do [ "$(count)" = "$base" ] && return 0; sleep 0.25; done
	return 1
}
base=$(count)
echo "before: $base"

$PDTRACE trace >/dev/null 2>&1 &
pid=$!
attached $pid && pass "trace attached" || fail "trace never attached"
echo "while tracing: $(count)"
[ "$(count)" != "$base" ] && pass "programs and links are visible while tracing" || fail "count did not change while tracing"
kill -KILL $pid
wait $pid 2>/dev/null
settled && pass "SIGKILL of trace leaves nothing attached ($(count))" || fail "after SIGKILL of trace: $(count), before: $base"

$PDTRACE check -- sleep 20 >/dev/null 2>&1 &
pid=$!
attached $pid && pass "check attached" || fail "check never attached"
kill -KILL $pid
wait $pid 2>/dev/null
settled && pass "SIGKILL of check leaves nothing attached ($(count))" || fail "after SIGKILL of check: $(count), before: $base"
kill $(pidof sleep) 2>/dev/null

mkdir -p /sys/fs/bpf && mount -t bpf bpf /sys/fs/bpf 2>/dev/null
expect_eq "$(ls -A /sys/fs/bpf | wc -l)" 0 "nothing pinned in bpffs"

# Unprivileged: uid 65534 without capabilities.
pdt-runas 65534 $PDTRACE doctor >/tmp/u.out 2>&1
expect_eq "$?" 2 "doctor as nobody: exit 2"
expect_grep '^privileges  *MISSING  *need CAP_BPF and CAP_PERFMON (or root)' /tmp/u.out "doctor as nobody: privileges row"
expect_grep '^problem: insufficient privileges: run as root or with CAP_BPF and CAP_PERFMON$' /tmp/u.out "doctor as nobody: one problem line"
for cmd in "check -- true" "trace -d 1" "watch -n 1" "stat -- true"; do
	pdt-runas 65534 $PDTRACE $cmd >/tmp/u.out 2>/tmp/u.err
	expect_eq "$?" 2 "$cmd as nobody: exit 2"
	expect_eq "$(cat /tmp/u.err)" "pdtrace: ${cmd%% *}: insufficient privileges: run as root or with CAP_BPF and CAP_PERFMON" "$cmd as nobody: one line"
done
finish
