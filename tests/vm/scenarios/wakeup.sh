# Wakeups: the BPF side commits events without waking the reader (a wakeup per event
# costs more than the event), and wakes it for a superblock's first event, so that the
# mountpoint is looked up while the filesystem is mounted, and as the ring buffer fills
# (each time another eighth of it is waiting, and at every event past half), so that a
# burst cannot fill it. Here the reader's own wait is 10 s (PDTRACE_POLL_MS, a testing
# aid): only those wakeups have it take events while the command runs. A tmpfs gets two
# directories and is unmounted a second later; another gets 3000 streamed directories
# (PDTRACE_NO_ELIDE) at once through a 256 KiB ring buffer (about 430 events). Both are
# seen whole, nothing is lost, and the first is named by its mountpoint. Without the
# first wakeup the reader sleeps through the umount; without those by fill the burst
# overflows the buffer (each checked by taking it out of submit()). A smaller buffer loses
# events to this VM's reader whatever the wait: 16 pages lost 700 to 1,800 with a 10 s
# or the default 100 ms wait.
# timeout: 300
. /lib.sh
mkdir -p /mnt/q1 /mnt/q2
: >/tmp/wk.json
# made FILE DIR: the count of entries made on the superblock mounted at DIR.
made() { sed -n "s|.*\"mountpoint\":\"$2\",\"mounts\":[0-9]*,\"made\":\([0-9]*\).*|\1|p" "$1"; }

PDTRACE_POLL_MS=10000 PDTRACE_NO_ELIDE=1 $PDTRACE check --ringbuf-pages 64 -f json -o /tmp/wk.json -- sh -c '
	mount -t tmpfs wk1 /mnt/q1 && mkdir /mnt/q1/a /mnt/q1/b && sleep 1 && umount /mnt/q1 &&
	mount -t tmpfs wk2 /mnt/q2 && cd /mnt/q2 && mkdir $(seq 1 3000)'
expect_eq "$?" 0 "check with a 10 s wait, 64 pages: exit 0"
expect_grep '"complete":true,"lost_events":0,"map_full":0' /tmp/wk.json "complete data, nothing lost"
expect_eq "$(made /tmp/wk.json /mnt/q1)" 2 "the tmpfs unmounted a second after its first event: its mountpoint, 2 made"
expect_eq "$(made /tmp/wk.json /mnt/q2)" 3000 "the burst: 3000 made"
umount /mnt/q2
finish
