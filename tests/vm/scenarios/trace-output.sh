# pdtrace trace -o FILE, as a service runs it under logrotate: SIGHUP after the file was
# moved away sends the next lines to a new FILE, nothing lost or doubled; SIGTERM ends it
# with the summary written, the file complete. watch --prometheus stopped by SIGTERM
# leaves its last file whole, and no temporary file beside it.
# timeout: 150
. /lib.sh
mkdir -p /mnt/to
$PDTRACE trace --events -o /tmp/t.log 2>/tmp/t.err &
pid=$!
$PDTRACE watch -i 0.5 --prometheus /tmp/p.prom >/dev/null 2>/tmp/w.err &
wpid=$!
for i in $(seq 1 200); do grep -q 'tracing persistent dentries' /tmp/t.err && [ -s /tmp/p.prom ] && break; sleep 0.1; done
mount -t tmpfs to /mnt/to
for i in 1 2 3 4 5; do mkdir /mnt/to/a$i; done
sleep 1
mv /tmp/t.log /tmp/t.log.1
kill -HUP $pid
sleep 1
for i in 1 2 3 4 5; do mkdir /mnt/to/b$i; done
umount /mnt/to
sleep 1
kill -TERM $pid $wpid
wait $pid
expect_eq "$?" 0 "trace: exit 0 after SIGHUP then SIGTERM"
wait $wpid
expect_eq "$?" 0 "watch: exit 0 after SIGTERM"
expect_eq "$(grep -c '^persist .* tmpfs  */a[1-5] ' /tmp/t.log.1)" 5 "the rotated file: the five persists before SIGHUP"
expect_eq "$(grep -c '^persist .* tmpfs  */b[1-5] ' /tmp/t.log)" 5 "the new file: the five after"
expect_eq "$(grep -c '^persist .* tmpfs  */[ab][1-5] ' /tmp/t.log.1 /tmp/t.log | awk -F: '{ s += $2 } END { print s }')" 10 "no persist lost or doubled"
expect_grep '^summary: 0 leak, 0 imbalance, 0 illegal-removal$' /tmp/t.log "the new file ends with the summary"
grep -q '^summary:' /tmp/t.log.1 && fail "summary in the rotated file" || pass "no summary in the rotated file"
expect_grep "^tmpfs .* /mnt/to  *10  *0  *10  *0  *0 unmounted$" /tmp/t.log "summary row: made 10, unpinned 10"
expect_grep '^pdtrace_lost_events_total 0$' /tmp/p.prom "watch: last Prometheus file whole"
ls /tmp/p.prom.* >/dev/null 2>&1 && fail "temporary file left: $(ls /tmp/p.prom.*)" || pass "no temporary file left"
# A file that cannot be reopened: said on standard error, the old one written on.
$PDTRACE trace -o /tmp/ro/t.log 2>/tmp/bad.err
expect_eq "$?" 2 "trace -o in a missing directory: exit 2"
expect_grep "^pdtrace: trace: cannot write '/tmp/ro/t.log': No such file or directory$" /tmp/bad.err "one line naming the file"
finish
