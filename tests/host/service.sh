#!/usr/bin/env bash
# Host tests of the systemd unit (packaging/systemd/pdtrace-watch.service): make install
# puts it where systemd reads units, naming the binary it installed; systemd-analyze
# verify finds nothing wrong with it; it writes to the node exporter's textfile
# directory with the sandboxing its man page documents. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
build=${OUTPUT:-$top/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unit=pdtrace-watch.service

make -s -C "$top" install DESTDIR="$tmp/usr" PREFIX=/usr >"$tmp/make" 2>&1
check $? "make install PREFIX=/usr" "$(tail -5 "$tmp/make")"
u=$tmp/usr/usr/lib/systemd/system/$unit
[ -f "$u" ] && [ "$(stat -c %a "$u")" = 644 ]
check $? "the unit is in /usr/lib/systemd/system, mode 0644" "$(ls -l "$tmp"/usr/usr/lib/systemd/system 2>&1)"
grep -qx 'ExecStart=/usr/sbin/pdtrace watch --interval 15 --prometheus /var/lib/prometheus/node-exporter/pdtrace.prom' "$u"
check $? "ExecStart: watch writing the node exporter's textfile directory" "$(grep ExecStart "$u")"
make -s -C "$top" install DESTDIR="$tmp/local" >/dev/null 2>&1
grep -q '^ExecStart=/usr/local/sbin/pdtrace ' "$tmp/local/usr/local/lib/systemd/system/$unit"
check $? "make install's default PREFIX: the unit runs /usr/local/sbin/pdtrace" \
	"$(grep ExecStart "$tmp/local/usr/local/lib/systemd/system/$unit" 2>&1)"
! grep -q '^\[Install\]' "$u" || grep -qx 'WantedBy=multi-user.target' "$u"
check $? "[Install]: WantedBy=multi-user.target (enabled by the administrator, not the package)"
[ ! -e "$top/packaging/deb/postinst" ]
check $? "no maintainer script enables or starts it: off by default"

# Every option the watch command line of the unit uses exists.
"$build/pdtrace" watch --help >"$tmp/help" 2>&1
grep -q -- '--interval=SECONDS' "$tmp/help" && grep -q -- '--prometheus=FILE' "$tmp/help"
check $? "watch has --interval and --prometheus" "$(cat "$tmp/help")"

# systemd's own reading of the unit, with the binary of this build in place of the
# installed one (and no man page lookup: man-db may not have the pages installed).
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$tmp/verify"
	sed "s|/usr/sbin/pdtrace|$build/pdtrace|" "$u" >"$tmp/verify/$unit"
	(cd "$tmp/verify" && systemd-analyze verify --man=no "./$unit") >"$tmp/verify.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && [ ! -s "$tmp/verify.out" ]
	check $? "systemd-analyze verify: no complaint" "$(cat "$tmp/verify.out")"
else
	skip "systemd-analyze verify" "systemd-analyze is not installed"
fi

# The sandboxing a root BPF tool keeps, each documented in pdtrace-watch(8).
for o in NoNewPrivileges=yes ProtectSystem=strict ReadWritePaths=/var/lib/prometheus/node-exporter \
	ProtectHome=read-only ProtectKernelTunables=yes ProtectKernelModules=yes ProtectKernelLogs=yes \
	ProtectControlGroups=yes ProtectClock=yes ProtectHostname=yes RestrictNamespaces=yes \
	RestrictRealtime=yes RestrictSUIDSGID=yes RestrictAddressFamilies=AF_UNIX LockPersonality=yes \
	MemoryDenyWriteExecute=yes SystemCallArchitectures=native; do
	grep -qx "$o" "$u" || echo "not in the unit: $o"
	grep -q "${o%%=*}" "$top/man/pdtrace-watch.8" || echo "not in pdtrace-watch(8): ${o%%=*}"
done >"$tmp/sandbox"
[ ! -s "$tmp/sandbox" ]
check $? "sandboxing options in the unit and in pdtrace-watch(8)" "$(cat "$tmp/sandbox")"
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$u")
[ -n "$caps" ] && ! echo "$caps" | grep -qw CAP_SYS_MODULE && echo "$caps" | grep -qw CAP_BPF
check $? "CapabilityBoundingSet: CAP_BPF and the like, never CAP_SYS_MODULE" "$caps"
echo "1..$n"
[ "$failed" -eq 0 ]
