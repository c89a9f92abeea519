# Wakeups: the BPF side commits events without waking the reader (a wakeup per event
# costs more than the event), and wakes it for a superblock's first event, so that the
# mountpoint is looked up while the filesystem is mounted, and as the ring buffer fills
# (each time another eighth of it is waiting, and at every event past half), so that a
# burst cannot fill it. Here the reader's own wait is 10 s (PDTRACE_TESTING=poll-ms, a testing
# aid): only those wakeups have it take events while the command runs. A tmpfs gets two
# directories and is unmounted a second later: still named by its mountpoint. Another
# gets one directory, then a second later (the reader has taken it and waits) 3000 at
# once, each streamed (PDTRACE_TESTING=no-elide), through a 1 MiB ring buffer (about 1,700
# events): all arrive. Without the first wakeup the mountpoint is missing; without those
# by fill the reader sleeps through the burst (each checked by taking it out of
# submit()). A smaller buffer loses events to this VM's reader whatever the wait. Last,
# the command's exit (SIGCHLD) ends a 60 s wait.
# timeout: 300
. /lib.sh
mkdir -p /mnt/q1 /mnt/q2
: >/tmp/wk.json

PDTRACE_TESTING='poll-ms=10000 no-elide' $PDTRACE check --ringbuf-pages 256 -f json -o /tmp/wk.json -- sh -c '
	mount -t tmpfs wk1 /mnt/q1 && mkdir /mnt/q1/a /mnt/q1/b && sleep 1 && umount /mnt/q1 &&
	mount -t tmpfs wk2 /mnt/q2 && mkdir /mnt/q2/0 && sleep 1 && cd /mnt/q2 && mkdir $(seq 1 3000)'
expect_eq "$?" 0 "check with a 10 s wait, 256 pages: exit 0"
expect_grep '"complete":true,"lost_events":0,"map_full":0' /tmp/wk.json "complete data, nothing lost"
expect_eq "$(made /tmp/wk.json /mnt/q1)" 2 "the tmpfs unmounted a second after its first event: its mountpoint, 2 made"
expect_eq "$(made /tmp/wk.json /mnt/q2)" 3001 "the burst: 3001 made"
umount /mnt/q2

# The command's exit ends the reader's wait too: with a 60 s wait, check reports as
# soon as `sleep 1` is done (timeout(1) would kill it at 40 s: check stays for its report
# on SIGTERM, and exits with its command's status).
PDTRACE_TESTING=poll-ms=60000 timeout -s KILL 40 $PDTRACE check -f json -o /tmp/wk2.json -- sleep 1
expect_eq "$?" 0 "check with a 60 s wait: exit 0 when its command exits"
expect_grep '"complete":true' /tmp/wk2.json "its report, complete"
finish
