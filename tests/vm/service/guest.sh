#!/bin/bash
# The service test in the guest, under systemd (tests/vm/service.sh reads what it
# prints and makes the verdicts): start pdtrace-watch.service as installed by the
# package, wait for its metrics file, look at the unit, the file and the journal, read
# the node exporter's page, stop the unit and look again. Each finding is a section
# between "@@SVC BEGIN NAME" and "@@SVC END NAME"; files go as base64.
unit=pdtrace-watch.service
prom=/var/lib/prometheus/node-exporter/pdtrace.prom

section() { # name command...
	local name=$1
	shift
	echo "@@SVC BEGIN $name"
	"$@" 2>&1
	echo "@@SVC END $name $?"
}
show() { systemctl show -p ActiveState,SubState,Result,MainPID,NRestarts "$unit"; }
# The node exporter's page, over bash's /dev/tcp (no HTTP client in the root), once it
# listens.
scrape() {
	for _ in $(seq 1 60); do
		exec 3<>/dev/tcp/127.0.0.1/9100 && break
		sleep 0.5
	done 2>/dev/null
	[ -e /dev/fd/3 ] || { echo "nothing listens on port 9100"; return 1; }
	printf 'GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
	timeout 60 cat <&3 | tr -d '\r' | grep -E '^(pdtrace_|node_textfile_scrape_error)'
	exec 3<&-
}

section pid1 cat /proc/1/comm
section system-state systemctl is-system-running --wait
section failed-units systemctl --failed --no-legend --plain
section enabled systemctl is-enabled "$unit"
section start systemctl start "$unit"
t0=$(date +%s)
for _ in $(seq 1 240); do
	[ -s "$prom" ] && break
	sleep 0.5
done
section waited echo "$(($(date +%s) - t0))"
section active systemctl is-active "$unit"
section show-running show
section prom-running base64 "$prom"
section node-exporter scrape
# Work for the tracker while it runs under the sandbox: 21 directories made on /run (a
# tmpfs), 10 of them removed; then the first file written after it.
mkdir /run/pdtrace-vmtest && for i in $(seq 1 20); do mkdir "/run/pdtrace-vmtest/d$i"; done &&
	for i in $(seq 1 10); do rmdir "/run/pdtrace-vmtest/d$i"; done
touch /tmp/workload-done
for _ in $(seq 1 80); do
	[ "$prom" -nt /tmp/workload-done ] && break
	sleep 0.5
done
section rewritten sh -c "[ $prom -nt /tmp/workload-done ] && echo yes"
section prom-rewritten base64 "$prom"
section active-later systemctl is-active "$unit"
# systemd says how the main process ended at debug level only when it ended well.
systemctl log-level debug
section stop systemctl stop "$unit"
systemctl log-level info
journalctl --sync
# A unit that failed stays loaded and says so; one that stopped well is unloaded, and
# the journal keeps how its process ended and what systemd made of it.
section is-failed systemctl is-failed "$unit"
section exit journalctl -q -b -u "$unit" -o verbose MESSAGE_ID=98e322203f7a4ed290d09fe03c09fe15
section deactivated journalctl -q -b -u "$unit" -o cat MESSAGE_ID=7ad2d189f7e94e70a38c781354912448
section starts journalctl -q -b -u "$unit" -o cat MESSAGE_ID=39f53479d3a045ac8e11786248231fbf
section prom-stopped base64 "$prom"
section leftover ls -A /var/lib/prometheus/node-exporter
# What the unit's processes wrote (standard error; standard output goes nowhere) and
# what systemd said of the unit at warning level or above.
section journal-output journalctl -q -o cat -b _SYSTEMD_UNIT="$unit" _COMM=pdtrace
section journal-warnings journalctl -q -o short-monotonic -b -u "$unit" -p warning
section journal-all journalctl -q -o short-monotonic -b -u "$unit" -p info
# The kernel's complaints (as tests/vm/guest/init looks for them).
section kernel sh -c "journalctl -q -k -b -o cat | grep -E 'WARNING:|BUG:|kernel BUG at|Oops|general protection fault|Kernel panic|Busy inodes|UBSAN:|KASAN:|refcount_t:|list_(add|del) corruption'"
section boot-time systemd-analyze time
section blame sh -c "systemd-analyze blame | head -n 25"
echo "@@SVC DONE"
