# SIGTERM and SIGHUP (and a SIGINT sent by a process) reach COMMAND through check, which still drains
# and reports; COMMAND's status is in the report.
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
umount /mnt/sg
finish
