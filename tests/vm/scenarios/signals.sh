# SIGTERM and SIGHUP (and a SIGINT sent by a process) reach COMMAND through check, which still drains
# and reports; COMMAND's status is in the report. stat has the same policy: COMMAND gets the
# signal, stat prints its counts and exits with COMMAND's status.
# timeout: 120
. /lib.sh
mkdir -p /mnt/sg && mount -t tmpfs sg /mnt/sg
# COMMAND runs once check is attached (every program copy: a few seconds on TCG) and
# forwards signals: wait for its mkdir.
running() { for i in $(seq 1 240); do [ -d "$1" ] && return 0; sleep 0.5; done; return 1; }
# (A shell starts background jobs with SIGINT ignored, so SIGINT is not tried here: sleep
# would ignore it too.)
for sig in TERM HUP; do
	$PDTRACE check -f json -o /tmp/sg-$sig.json -- sh -c "mkdir /mnt/sg/$sig; exec sleep 60" &
	pid=$!
	running /mnt/sg/$sig || fail "check never ran COMMAND"
	sleep 1
	kill -$sig $pid
	wait $pid
	expect_eq "$?" 0 "SIG$sig: check exits 0 (nothing found)"
	case $sig in TERM) st=143 ;; HUP) st=129 ;; esac
	expect_grep "\"exit_status\":$st}" /tmp/sg-$sig.json "SIG$sig: forwarded, COMMAND died of it ($st)"
	expect_grep '"made":1,' /tmp/sg-$sig.json "SIG$sig: events drained and reported"
done
# stat: the same child policy (it used to die of the signal, its COMMAND left running).
$PDTRACE stat -- sh -c 'echo $$ >/tmp/sg-stat.pid; mkdir /mnt/sg/stat; exec sleep 60' >/tmp/sg-stat.out 2>&1 &
pid=$!
running /mnt/sg/stat || fail "stat never ran COMMAND"
sleep 1
kill -TERM $pid
wait $pid
expect_eq "$?" 143 "stat SIGTERM: forwarded, stat exits with COMMAND's status (143)"
expect_grep '^tmpfs .* 1 *0$' /tmp/sg-stat.out "stat SIGTERM: the counts are printed"
kill -0 "$(cat /tmp/sg-stat.pid)" 2>/dev/null && fail "stat SIGTERM: COMMAND still runs" ||
	pass "stat SIGTERM: COMMAND is gone"
umount /mnt/sg
finish
