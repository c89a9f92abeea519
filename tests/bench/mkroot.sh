#!/usr/bin/env bash
# Make (once) the guest userland of the benchmarks and of the third-party client
# tests (make clienttest): a Debian sid root made with mmdebstrap (minbase +
# bpftrace + the clients), cached outside the work tree and shared into the guest
# read-only over 9p. Recreated when missing or incomplete.
#
# Usage: mkroot.sh KERNELVER
#   PDTRACE_CACHE   cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace)
#   PDTRACE_MIRROR  Debian mirror URL (default: the one apt already uses)
# Prints the root's directory.
set -euo pipefail

ver=${1:?usage: mkroot.sh KERNELVER}
cache=${PDTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace}
root=$cache/bench-root-$ver
# What the benchmarks (bpftrace) and the client scenarios (tests/vm/scenarios/client-*.sh)
# need besides minbase (targetcli asks the system bus for user backstores: dbus-daemon);
# a change here makes a new root.
pkgs="bpftrace stress-ng nvmetcli targetcli-fb dbus-daemon trace-cmd bpftool"

die() { echo "bench-root: $*" >&2; exit 2; }

. "$(dirname "$0")/../vm/mirror.sh"

if [ -f "$root/.pdtrace-bench-root" ] && [ "$(cat "$root/.pdtrace-bench-root")" = "$pkgs" ] &&
	[ -x "$root/usr/bin/bpftrace" ] && [ -d "$root/bench" ] && [ -d "$root/etc/target" ]; then
	echo "$root"
	exit 0
fi
command -v mmdebstrap >/dev/null || die "mmdebstrap is missing (apt-get install mmdebstrap)"
mkdir -p "$cache"
tmp=$root.new
rm -rf "$tmp"
echo "bench-root: making $root with mmdebstrap (sid minbase + $pkgs)" >&2
mmdebstrap --quiet --variant=minbase --mode=root \
	--aptopt='Acquire::Check-Valid-Until "false"' --aptopt='APT::Install-Recommends "false"' \
	--include="${pkgs// /,}" --dpkgopt='path-exclude=/usr/share/{doc,man,locale}/*' \
	sid "$tmp" "$(debian_mirror)" >&2 || { rm -rf "$tmp"; die "mmdebstrap failed"; }
mkdir -p "$tmp/bench" # where the guest mounts the benchmarks' own share
# Mount points of the client scenarios: the root is read-only in the guest, so
# targetcli's configuration directory gets a tmpfs there.
mkdir -p "$tmp/etc/target"
echo "$pkgs" >"$tmp/.pdtrace-bench-root"
rm -rf "$root"
mv "$tmp" "$root"
echo "$root"
