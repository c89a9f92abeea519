#!/usr/bin/env bash
# Make (once) the root the service test boots with systemd as PID 1
# (tests/vm/service.sh): Debian sid minbase with systemd and prometheus-node-exporter,
# made with mmdebstrap and cached outside the work tree. The test never changes it: each
# run copies it into an ext4 image of its own. Recreated when missing or incomplete.
#
# Usage: systemd-root.sh
#   PDTRACE_CACHE   cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace)
#   PDTRACE_MIRROR  Debian mirror URL (default: the one apt already uses)
# Prints the root's directory.
set -euo pipefail

cache=${PDTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace}
# sid: the suite of the kernel the VM boots, the first with the API pdtrace traces.
suite=sid
root=$cache/systemd-root-$suite
# What the test needs besides minbase; a change here makes a new root.
pkgs="systemd systemd-sysv prometheus-node-exporter"

die() { echo "systemd-root: $*" >&2; exit 2; }

. "$(dirname "$0")/mirror.sh"

if [ -f "$root/.pdtrace-systemd-root" ] && [ "$(cat "$root/.pdtrace-systemd-root")" = "$pkgs" ] &&
	[ -x "$root/usr/lib/systemd/systemd" ] && [ -x "$root/usr/bin/prometheus-node-exporter" ] &&
	[ -f "$root/etc/.updated" ]; then
	echo "$root"
	exit 0
fi
command -v mmdebstrap >/dev/null || die "mmdebstrap is missing (apt-get install mmdebstrap)"
mkdir -p "$cache"
tmp=$root.new
rm -rf "$tmp"
echo "systemd-root: making $root with mmdebstrap ($suite minbase + $pkgs)" >&2
mmdebstrap --quiet --variant=minbase --mode=root \
	--aptopt='Acquire::Check-Valid-Until "false"' --aptopt='APT::Install-Recommends "false"' \
	--include="${pkgs// /,}" --dpkgopt='path-exclude=/usr/share/{doc,man,locale}/*' \
	"$suite" "$tmp" "$(debian_mirror)" >&2 || { rm -rf "$tmp"; die "mmdebstrap failed"; }
# A machine id: without one, systemd takes the boot for a first boot. /etc and /var
# marked up to date with /usr, as a first boot leaves them: the units that rebuild caches
# after an update (ldconfig, the journal's catalog, sysusers) do not run at each boot.
head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$tmp/etc/machine-id"
echo >>"$tmp/etc/machine-id"
chroot "$tmp" /usr/lib/systemd/systemd-update-done >&2 || { rm -rf "$tmp"; die "systemd-update-done failed"; }
echo "$pkgs" >"$tmp/.pdtrace-systemd-root"
rm -rf "$root"
mv "$tmp" "$root"
echo "$root"
