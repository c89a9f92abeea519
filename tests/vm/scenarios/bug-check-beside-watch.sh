# A false finding not fixed yet: a check started while another pdtrace (watch, or trace)
# runs and ramfs superblocks come and go (mount, one file, umount) reports each of those
# files as pinned-after-umount and the superblock as sb-balance, with origin "kernel",
# though every umount unpinned its file. Alone (started before or during the cycles) or
# with the cycles as its own command, check reports nothing. Seen on Debian's 7.2.13 with
# watch -i 1, watch -i 100, watch --fs tmpfs, and trace with a 50 ms poll in the
# background: 35 to 64 false leaks in 5 s; with trace at its default poll, once 0. All of
# those ran while the host was loaded (load average 7 to 10: other VMs and builds); on an
# idle host the same scenario passed, on the commit that failed and on later ones, so
# the race needs a slow guest: run it with the host busy (e.g. beside make check).
# Run alone: tests/vm/run.sh bug-check-beside-watch (a suite of its own: it fails today).
# suite: bugs
# timeout: 300
# boot: own
. /lib.sh
mkdir -p /mnt/c
$PDTRACE watch -i 100 >/dev/null 2>&1 &
wpid=$!
sleep 8
pdt-fsop mount-cycle ramfs /mnt/c 800 1 &
fpid=$!
sleep 2
$PDTRACE check -f json -o /tmp/r.json -- sh -c 'sleep 5' >/dev/null 2>/tmp/r.err
rc=$?
wait $fpid
expect_eq "$?" 0 "800 ramfs mount cycles, each umount succeeded"
kill $wpid
wait $wpid
expect_grep '"complete":true' /tmp/r.json "check: data complete"
expect_eq "$(grep -o '"rule":"pinned-after-umount"' /tmp/r.json | wc -l)" 0 "no pinned-after-umount finding"
expect_eq "$rc" 0 "check beside watch: exit 0, no finding"
finish
