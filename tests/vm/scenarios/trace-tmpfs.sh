# pdtrace trace streams lifecycle events (--events) until SIGINT, then prints its summary.
# timeout: 120
. /lib.sh
mkdir -p /mnt/tr
$PDTRACE trace --events >/tmp/tr.out 2>/tmp/tr.err &
pid=$!
# Attaching takes a moment under emulation: wait for the banner.
for i in $(seq 1 100); do grep -q 'tracing persistent dentries' /tmp/tr.err && break; sleep 0.1; done
mount -t tmpfs tr /mnt/tr && mkdir /mnt/tr/d && touch /mnt/tr/d/f && rm /mnt/tr/d/f && umount /mnt/tr
sleep 0.5
kill -INT $pid
wait $pid
expect_eq "$?" 0 "trace exit status after SIGINT"
cat /tmp/tr.out
dev=$(awk '$1 == "persist" && $3 == "tmpfs" && $4 == "/d" { print $2; exit }' /tmp/tr.out)
[ -n "$dev" ] && pass "persist of /d streamed" || fail "no persist event for /d"
expect_grep "^persist  *$dev  *tmpfs  */d/f  *origin=user" /tmp/tr.out "persist of /d/f, user origin"
expect_grep "^discard  *$dev  *tmpfs  */d/f .*origin=user" /tmp/tr.out "discard of /d/f"
expect_grep "^unpin  *$dev " /tmp/tr.out "unpin of /d at umount"
expect_grep "^sb-down  *$dev  *tmpfs" /tmp/tr.out "superblock shutdown"
expect_grep "^tmpfs  *$dev  *tmpfs  */mnt/tr  *2  *1  *1  *0  *0 unmounted$" /tmp/tr.out "summary row: made 2, discarded 1, unpinned 1"
expect_grep '^summary: 0 leak, 0 imbalance, 0 illegal-removal$' /tmp/tr.out "summary line"
# Nothing that looks like a kernel address.
if grep -q 'ffff[0-9a-f]\{8\}' /tmp/tr.out; then fail "kernel address printed"; else pass "no kernel address printed"; fi
finish
