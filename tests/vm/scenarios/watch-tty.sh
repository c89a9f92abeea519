# pdtrace watch on a terminal (the guest console, a tmux pane on the host): the screen's
# layout, a resize to a terminal too small and back, and q to quit; then, with
# TERM=dumb, lines on the same terminal. The host part is watch-tty.host.
# timeout: 150
# console: tmux
. /lib.sh
mkdir -p /mnt/tt && mount -t tmpfs tt /mnt/tt && mkdir /mnt/tt/a /mnt/tt/b && touch /mnt/tt/c
tty=/dev/ttyS0
[ "$(uname -m)" != aarch64 ] || tty=/dev/ttyAMA0 # the virt machine's UART
stty -F $tty rows 30 cols 100
$PDTRACE watch -i 0.5 --fs tmpfs <$tty >$tty 2>&1 &
pid=$!
# The host waits for each screen in turn. Pace the changes from the moment watch has
# attached (its BPF links are open), so a slow boot cannot skip the first screen.
for i in $(seq 1 120); do
	ls -l /proc/$pid/fd 2>/dev/null | grep -q 'bpf.link' && break
	sleep 0.5
done
sleep 8
stty -F $tty rows 5 cols 30
kill -WINCH $pid
sleep 6
stty -F $tty rows 30 cols 100
kill -WINCH $pid
wait $pid
expect_eq "$?" 0 "watch quits on q with status 0"
# A terminal that cannot take escape codes (Emacs' shell, a serial console): lines.
sleep 2
TERM=dumb $PDTRACE watch -i 0.5 -n 6 --fs tmpfs <$tty >$tty 2>&1
expect_eq "$?" 0 "watch with TERM=dumb: exit 0 after -n 6"
finish
