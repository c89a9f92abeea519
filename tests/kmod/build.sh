#!/usr/bin/env bash
# Build pdt_faultfs.ko, the fault-injection filesystem of the VM tests, for Debian's
# packaged kernel. Debian builds its kernel with sid's gcc and its kbuild tools need
# sid's libc, so the module is built in a sid chroot holding that kernel's headers,
# made with mmdebstrap once per kernel version and cached outside the work tree.
#
# Usage: tests/kmod/build.sh [--kdir DIR] [VERSION]
#   VERSION   kernel ABI version, e.g. 7.2.13+deb14-amd64 (default: the one
#             tests/vm/fetch-kernel.sh resolves: PDTRACE_KERNEL_VER, else sid's)
#   --kdir    build against this kernel build tree: with the host's tools, or in the
#             chroot that a tree from tests/vm/build-kernel.sh names (DIR/.pdtrace-chroot)
#   OUTPUT         build directory (default: build); the module is $OUTPUT/kmod/pdt_faultfs.ko
#   PDTRACE_CACHE  cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace)
#   PDTRACE_MIRROR Debian mirror for the chroot (default: the one apt already uses)
# Prints the module's path. Reuses the module when its sources and kernel are unchanged.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/tests/kmod
out=${OUTPUT:-$top/build}/kmod
cache=${PDTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace}
sources=("$src/pdt_faultfs.c" "$src/Kbuild" "$0")
kdir= ver=

die() { echo "kmod: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--kdir) kdir=${2:?--kdir needs a directory}; shift 2 ;;
	-h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option '$1'" ;;
	*) ver=$1; shift ;;
	esac
done

# The first compiler error of a failed build, for a one-line message.
first_error() { grep -m1 -E 'error|Error|No such|not found' "$1" || tail -n1 "$1"; }

build_in_chroot() { # root log
	local root=$1 log=$2 work=/tmp/pdt-kmod cross=()
	# Debian's arm64 kernel, cross-compiled (tests/vm/sid-chroot.sh).
	case "$ver" in *-arm64) cross=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) ;; esac
	rm -rf "${root:?}$work"
	mkdir -p "$root$work"
	cp "$src/pdt_faultfs.c" "$src/Kbuild" "$root$work/"
	# objtool reads /proc; mount our own and take only it down again.
	mount -t proc proc "$root/proc" || die "cannot mount /proc in $root"
	local rc=0
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		chroot "$root" make -C "/usr/src/linux-headers-$ver" "${cross[@]}" M="$work" modules >"$log" 2>&1 || rc=$?
	umount "$root/proc" || echo "kmod: warning: could not unmount $root/proc" >&2
	[ $rc -eq 0 ] || die "building pdt_faultfs.ko for $ver failed: $(first_error "$log") (see $log)"
	cp "$root$work/pdt_faultfs.ko" "$out/pdt_faultfs.ko.new"
}

# A tree made by tests/vm/build-kernel.sh names the chroot it was built in: its kbuild
# tools need that chroot's libc. The tree and its source are bind-mounted at their own
# paths there.
build_in_kdir_chroot() { # root log
	local root=$1 log=$2 work=$out/src obj src d rc=0 mounts=()
	obj=$(readlink -f "$kdir")
	src=$(readlink -f "$obj/source" 2>/dev/null || echo "$obj")
	for d in "$obj" "$src" "$work"; do
		mkdir -p "$root$d"
		mountpoint -q "$root$d" && continue
		mount --bind "$d" "$root$d" || die "cannot bind-mount $d into $root"
		mounts=("$root$d" "${mounts[@]}")
	done
	mount -t proc proc "$root/proc" && mounts=("$root/proc" "${mounts[@]}")
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		chroot "$root" make -C "$obj" M="$work" modules >"$log" 2>&1 || rc=$?
	for d in "${mounts[@]}"; do umount "$d" || echo "kmod: warning: could not unmount $d" >&2; done
	[ $rc -eq 0 ] || die "building pdt_faultfs.ko against $kdir failed: $(first_error "$log") (see $log)"
}

build_on_host() { # log
	local log=$1 work=$out/src root
	rm -rf "$work"
	mkdir -p "$work"
	cp "$src/pdt_faultfs.c" "$src/Kbuild" "$work/"
	if [ -f "$kdir/.pdtrace-chroot" ]; then
		root=$(cat "$kdir/.pdtrace-chroot")
		[ -x "$root/usr/bin/make" ] || die "the chroot $kdir was built in ($root) is gone: run make kernel again"
		build_in_kdir_chroot "$root" "$log"
	else
		make -C "$kdir" M="$work" modules >"$log" 2>&1 ||
			die "building pdt_faultfs.ko against $kdir failed: $(first_error "$log") (see $log)"
	fi
	cp "$work/pdt_faultfs.ko" "$out/pdt_faultfs.ko.new"
}

main() {
	local key stamp
	if [ -n "$kdir" ]; then
		[ -f "$kdir/Makefile" ] || die "no kernel build tree in '$kdir'"
		key="kdir $(readlink -f "$kdir") $(cat "$kdir/.config" "$kdir/Module.symvers" 2>/dev/null | sha256sum)"
	else
		if [ -z "$ver" ]; then
			local kd
			kd=$("$top/tests/vm/fetch-kernel.sh") || die "cannot resolve Debian's packaged kernel version"
			ver=$(cat "$kd/VERSION")
		fi
		case "$ver" in *[!A-Za-z0-9.+~-]*|'') die "bad kernel version '$ver'" ;; esac
		key="debian $ver"
	fi
	stamp=$({ echo "$key"; cat "${sources[@]}"; } | sha256sum | cut -d' ' -f1)
	if [ -f "$out/pdt_faultfs.ko" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
		echo "$out/pdt_faultfs.ko"
		return
	fi
	mkdir -p "$out" "$cache"
	if [ -n "$kdir" ]; then
		build_on_host "$out/build.log"
	else
		[ "$(id -u)" -eq 0 ] || die "building in the sid chroot needs root (chroot, mount)"
		# One builder per kernel version at a time (the chroot and its work dir are shared).
		exec 9>"$cache/chroot-$ver.lock"
		flock 9
		build_in_chroot "$("$top/tests/vm/sid-chroot.sh" "$ver")" "$out/build.log"
	fi
	mv "$out/pdt_faultfs.ko.new" "$out/pdt_faultfs.ko"
	echo "$stamp" >"$out/stamp"
	echo "$out/pdt_faultfs.ko"
}

main
