#!/usr/bin/env bash
# The Debian sid chroot that builds for Debian's packaged kernel: made with mmdebstrap
# once per kernel version (make, libc6-dev and linux-headers-VERSION, whose dependencies
# bring the compiler that kernel was built with), cached outside the work tree, with more
# packages added on request. Debian builds its kernel with sid's gcc, and kbuild's host
# tools need sid's libc: the host's own toolchain cannot stand in.
#
# Usage: tests/vm/sid-chroot.sh VERSION [PACKAGE...]
#   PDTRACE_CACHE  cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace)
#   PDTRACE_MIRROR Debian mirror (default: the one apt already uses)
# Prints the chroot's directory. The caller holds $cache/chroot-VERSION.lock.
# An arm64 VERSION (...-arm64) gets an amd64 root with arm64 as a foreign architecture
# and linux-headers-VERSION:arm64, which brings the cross compiler that kernel was
# built with (gcc-N-for-host:arm64) and the kbuild tools for the host (Debian's way of
# building modules for another architecture): build with ARCH=arm64
# CROSS_COMPILE=aarch64-linux-gnu-.
set -euo pipefail

ver=${1:?usage: sid-chroot.sh VERSION [PACKAGE...]}
shift
cache=${PDTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace}
root=$cache/chroot-$ver
log=$cache/chroot-$ver.log

die() { echo "sid-chroot: $*" >&2; exit 2; }

case "$ver" in *[!A-Za-z0-9.+~-]*|'') die "bad kernel version '$ver'" ;; esac
[ "$(id -u)" -eq 0 ] || die "the sid chroot needs root (mmdebstrap, chroot, mount)"

. "$(dirname "$0")/mirror.sh"

make_root() {
	[ -f "$root/usr/src/linux-headers-$ver/Makefile" ] && [ -x "$root/usr/bin/make" ] && return
	command -v mmdebstrap >/dev/null || die "mmdebstrap is missing (apt-get install mmdebstrap)"
	echo "sid-chroot: creating a sid chroot with linux-headers-$ver in $root (under a minute, about 500 MB)" >&2
	mkdir -p "$cache"
	rm -rf "$root.new" "$root"
	local headers=linux-headers-$ver archs=()
	case "$ver" in *-arm64) headers=$headers:arm64 archs=(--architectures=amd64,arm64) ;; esac
	mmdebstrap --variant=minbase --mode=root --quiet "${archs[@]}" \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		--include="make,libc6-dev,$headers" \
		sid "$root.new" "$(debian_mirror)" >"$log" 2>&1 || {
		rm -rf "$root.new"
		die "mmdebstrap of sid with linux-headers-$ver failed (is that package in sid?): see $log"
	}
	mv "$root.new" "$root"
}

# Packages not yet in the root, installed with the root's own apt.
add_packages() { # packages...
	local missing=() p
	for p in "$@"; do
		chroot "$root" dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	echo "sid-chroot: installing ${missing[*]} in $root" >&2
	mount -t proc proc "$root/proc" || die "cannot mount /proc in $root"
	local rc=0
	{ env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
		chroot "$root" apt-get update -q &&
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
			chroot "$root" apt-get install -y -q --no-install-recommends "${missing[@]}"; } >>"$log" 2>&1 || rc=$?
	umount "$root/proc" || echo "sid-chroot: warning: could not unmount $root/proc" >&2
	[ $rc -eq 0 ] || die "installing ${missing[*]} in the sid chroot failed: see $log"
}

make_root
add_packages "$@"
echo "$root"
