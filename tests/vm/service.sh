#!/usr/bin/env bash
# The packaged systemd unit (packaging/systemd/pdtrace-watch.service) under systemd: Debian's
# packaged kernel boots in qemu with systemd as PID 1 on a Debian sid root (systemd and
# prometheus-node-exporter, cached: tests/vm/systemd-root.sh) into which pdtrace is
# installed as its package lays it out; the root is an ext4 image of its own each run, mounted by a
# small initramfs (tests/vm/service/init) that hands over to systemd. In the guest
# (tests/vm/service/guest.sh, a unit started from the kernel command line) systemctl
# starts pdtrace-watch, waits for its metrics file, stops it; what it saw comes back on
# the second serial port, and here it is judged. TAP output.
#
#   OUTPUT                build directory (default: build); the run's files in OUTPUT/vm-service
#   PDTRACE_KERNEL_VER    the kernel (tests/vm/fetch-kernel.sh)
#   PDTRACE_VM_TIMEOUT    seconds added to the guest's time limit
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
build=${OUTPUT:-$top/build}
out=$build/vm-service
unit=pdtrace-watch.service
# About 100 s of one core; several times that when other guests share the machine.
limit=$((600 + ${PDTRACE_VM_TIMEOUT:-0}))

bail() { # name diagnostics...: a step the rest needs failed
	not_ok "$@"
	echo "1..$n"
	exit 1
}

rm -rf "$out"
mkdir -p "$out"
kdir=$("$top/tests/vm/fetch-kernel.sh" 2>"$out/kernel.err") ||
	bail "Debian's packaged kernel (tests/vm/fetch-kernel.sh)" "$(tail -5 "$out/kernel.err")"
kver=$(cat "$kdir/VERSION")
base=$("$top/tests/vm/systemd-root.sh" 2>"$out/root.err") ||
	bail "a Debian sid root with systemd and prometheus-node-exporter (tests/vm/systemd-root.sh)" \
		"$(tail -5 "$out/root.err")"

# The root: the cached one, pdtrace installed as the package lays it out (make deb's
# make install: /usr/sbin/pdtrace, the unit in /usr/lib/systemd/system, disabled), the
# guest part added. Nothing waits for a login prompt (a getty would wait for its tty's
# device unit, which needs udev).
root=$out/root
cp -a "$base" "$root" &&
	make -s -C "$top" install DESTDIR="$root" PREFIX=/usr SBINDIR=/usr/sbin MANDIR=/usr/share/man \
		BASHCOMPDIR=/usr/share/bash-completion/completions UNITDIR=/usr/lib/systemd/system \
		>"$out/install" 2>&1
check $? "make install into the root, as the package lays it out" "$(tail -5 "$out/install")" ||
	bail "the root"
mkdir -p "$root/usr/local/lib/pdtrace-vmtest"
install -m 0755 "$top/tests/vm/service/guest.sh" "$root/usr/local/lib/pdtrace-vmtest/guest.sh"
install -m 0644 "$top/tests/vm/service/pdtrace-vmtest.service" "$root/etc/systemd/system/"
ln -sf /dev/null "$root/etc/systemd/system/getty.target"
# The root has no modules of the kernel: the units that load one would do nothing, slowly.
ln -sf /dev/null "$root/etc/systemd/system/modprobe@.service"
# ext4, as a disk: systemd on the root it is used to, written to by the unit and journald.
mkfs.ext4 -q -F -L pdtrace-vmtest -d "$root" "$out/disk.img" 1G >"$out/mkfs" 2>&1 ||
	bail "mkfs.ext4 -d of the root" "$(cat "$out/mkfs")"
rm -rf "$root"

# The initramfs: busybox, and the modules the disk needs (Debian's kernel has virtio_blk
# and ext4 as modules), in load order.
ird=$out/initramfs
mkdir -p "$ird/bin" "$ird/modules" "$out/modroot/lib/modules"
cp /bin/busybox "$ird/bin/busybox"
install -m 0755 "$top/tests/vm/service/init" "$ird/init"
ln -s "$kdir/modules" "$out/modroot/lib/modules/$kver"
depmod -b "$out/modroot" "$kver" 2>/dev/null
for m in virtio_blk ext4; do
	modprobe -d "$out/modroot" -S "$kver" --show-depends "$m" 2>/dev/null || echo "missing $m" >&2
done | awk '$1 == "insmod" { print $2 }' | while read -r f; do
	b=$(basename "$f"); b=${b%.xz}; b=${b%.zst}
	grep -qsx "$b" "$ird/modules/load-order" && continue
	case "$f" in
	*.xz) xz -dc "$f" ;;
	*.zst) zstd -dcq "$f" ;;
	*) cat "$f" ;;
	esac >"$ird/modules/$b"
	echo "$b" >>"$ird/modules/load-order"
done
grep -qx ext4.ko "$ird/modules/load-order" 2>/dev/null && grep -qx virtio_blk.ko "$ird/modules/load-order" ||
	bail "the initramfs has virtio_blk and ext4 with their dependencies" "$(cat "$ird/modules/load-order" 2>&1)"
(cd "$ird" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out/initrd.gz"

# Boot: systemd starts the guest part (systemd.wants=), which powers the guest off. The
# console has the kernel's and systemd's errors only: each byte of it costs under
# software emulation.
start=$(date +%s)
timeout --kill-after=10 "$limit" qemu-system-x86_64 -accel tcg,thread=single -cpu max -m 1024 -smp 2 \
	-no-reboot -display none -monitor none -nodefaults \
	-kernel "$kdir/vmlinuz" -initrd "$out/initrd.gz" \
	-drive "file=$out/disk.img,format=raw,if=virtio" \
	-serial "file:$out/console" -serial "file:$out/results" \
	-append "console=ttyS0 panic=-1 oops=panic quiet systemd.show_status=error systemd.wants=pdtrace-vmtest.service" \
	</dev/null >/dev/null 2>"$out/qemu"
rc=$?
echo "# vm-service: kernel $kver, guest ran $(($(date +%s) - start)) s (qemu status $rc)"
touch "$out/results"
sed -i 's/\r$//' "$out/results"
rm -f "$out/disk.img"

# section NAME: its lines; status NAME: the exit status of its command.
section() { awk -v s="$1" '$0 == "@@SVC BEGIN " s { on = 1; next } $1 == "@@SVC" && $2 == "END" && $3 == s { on = 0 } on' "$out/results"; }
status() { awk -v s="$1" '$1 == "@@SVC" && $2 == "END" && $3 == s { print $4 }' "$out/results"; }
console_tail() { tail -n 30 "$out/console" 2>/dev/null; }

grep -qx '@@SVC DONE' "$out/results"
check $? "the guest booted systemd and ran its part to the end (console: ${out#"$top"/}/console)" \
	"$(tail -n 5 "$out/results")" "$(console_tail)" || { echo "1..$n"; exit 1; }
[ "$(section pid1)" = systemd ]
check $? "PID 1 is systemd" "$(section pid1)"
state=$(section system-state)
[ "$state" = running ]
check $? "systemctl is-system-running: running (no unit failed during boot)" "$state" \
	"failed: $(section failed-units)"
[ "$(section enabled)" = disabled ]
check $? "$unit installed disabled" "$(section enabled)"
[ "$(status start)" = 0 ]
check $? "systemctl start $unit" "$(section start)" "$(section journal-all)"
[ "$(section active)" = active ]
check $? "systemctl is-active: active, once the metrics file is there" "$(section active)" \
	"$(section show-running)" "$(section journal-all)"
echo "# metrics file after $(section waited) s"

section prom-running | base64 -d >"$out/running.prom" 2>/dev/null
[ -s "$out/running.prom" ] && /usr/bin/python3 "$top/tests/host/prom_check.py" --complete "$out/running.prom" >"$out/pc" 2>&1
check $? "the unit wrote /var/lib/prometheus/node-exporter/pdtrace.prom: whole, valid, no loss, no finding" \
	"$(cat "$out/pc")" "$(head -n 20 "$out/running.prom")" "$(section journal-all)"
grep -q '^pdtrace_lost_events_total 0$' "$out/running.prom"
check $? "pdtrace_lost_events_total 0" "$(grep lost "$out/running.prom")"
# The tracker sees the guest's own tmpfs: systemd's /run.
grep -qE '^pdtrace_persistent_dentries\{fs_type="tmpfs",[^}]*mountpoint="/run"\} [1-9][0-9]*$' "$out/running.prom"
check $? "a row for systemd's /run (tmpfs) with persistent dentries in it" \
	"$(grep '^pdtrace_persistent_dentries' "$out/running.prom")"
grep -q '^node_textfile_scrape_error 0$' <(section node-exporter) &&
	grep -q '^pdtrace_lost_events_total 0$' <(section node-exporter) &&
	grep -q '^pdtrace_persistent_dentries{' <(section node-exporter)
check $? "prometheus-node-exporter serves the file's metrics, no textfile scrape error" \
	"$(section node-exporter | head -n 20)"
grep -qx NRestarts=0 <(section show-running) && grep -qx SubState=running <(section show-running)
check $? "running, never restarted" "$(section show-running)"

# Events came through while it ran: the file written after the guest made 21 directories
# on /run and removed 10 counts them (and what systemd did there meanwhile).
section prom-rewritten | base64 -d >"$out/rewritten.prom" 2>/dev/null
count() { # file metric: the /run row's value
	sed -n "s/^$2{fs_type=\"tmpfs\",[^}]*mountpoint=\"\/run\"} \([0-9]*\)$/\1/p" "$1"
}
made=$(count "$out/rewritten.prom" pdtrace_made_total) discarded=$(count "$out/rewritten.prom" pdtrace_discarded_total)
[ "$(section rewritten)" = yes ] && [ "${made:-0}" -ge 21 ] && [ "${discarded:-0}" -ge 10 ] &&
	/usr/bin/python3 "$top/tests/host/prom_check.py" --complete "$out/rewritten.prom" >"$out/pc" 2>&1
check $? "the next interval's file counts the guest's 21 directories made on /run and 10 removed (made $made, discarded $discarded)" \
	"rewritten: $(section rewritten)" "$(cat "$out/pc")" "$(grep 'mountpoint="/run"' "$out/rewritten.prom")"
[ "$(section active-later)" = active ]
check $? "still active then" "$(section active-later)" "$(section journal-all)"

# The sandboxing left tracing whole: pdtrace said nothing (its standard error is in the
# journal), systemd said nothing above notice of the unit.
out_lines=$(section journal-output)
[ -z "$out_lines" ]
check $? "the journal has no line from pdtrace (standard error) while it ran and stopped" "$out_lines"
warn=$(section journal-warnings)
[ -z "$warn" ]
check $? "the journal has no warning or error from systemd about the unit" "$warn"

[ "$(status stop)" = 0 ]
check $? "systemctl stop $unit" "$(section stop)"
# systemd unloads a unit that stopped well; the journal keeps how it ended.
[ "$(section is-failed)" = inactive ]
check $? "systemctl is-failed after the stop: inactive, not failed" "$(section is-failed)" "$(section journal-all)"
ex=$(section exit)
grep -qx ' *EXIT_CODE=exited' <<<"$ex" && grep -qx ' *EXIT_STATUS=0' <<<"$ex" &&
	[ "$(grep -c '^ *EXIT_STATUS=' <<<"$ex")" = 1 ]
check $? "the main process exited by itself with status 0 at the stop (SIGTERM)" \
	"$(grep -E 'MESSAGE=|EXIT_' <<<"$ex")" "$(section journal-all)"
[ "$(section deactivated | wc -l)" = 1 ] && [ "$(section starts | wc -l)" = 1 ]
check $? "systemd: started once, deactivated successfully" "$(section journal-all)"
section prom-stopped | base64 -d >"$out/stopped.prom" 2>/dev/null
[ -s "$out/stopped.prom" ] && /usr/bin/python3 "$top/tests/host/prom_check.py" --complete "$out/stopped.prom" >"$out/pc" 2>&1
check $? "the file left after the stop: whole, valid, no loss, no finding" "$(cat "$out/pc")" \
	"$(head -n 20 "$out/stopped.prom")"
[ "$(section leftover)" = pdtrace.prom ]
check $? "no temporary file left beside it" "$(section leftover)"

kern=$(section kernel)
[ -z "$kern" ]
check $? "the kernel logged no warning, BUG, oops or the like" "$kern"

echo "# $(section boot-time | head -n 1)"
echo "1..$n"
[ "$failed" -eq 0 ]
