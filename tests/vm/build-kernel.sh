#!/usr/bin/env bash
# Build a kernel the VM harness can boot, from a kernel source tree: allnoconfig, then
# kconfig/base.config (what a qemu guest with an initramfs needs) and kconfig/pdtrace.config
# (what pdtrace and its tests need), in the sid chroot that builds the test module, with
# the source and the build tree bind-mounted at their own paths so that the tree's
# "build" link means the same thing inside and out.
#
# Usage: tests/vm/build-kernel.sh [--ksrc DIR] [-j N]
#   --ksrc DIR  a kernel source tree, kept clean (the build goes to a tree of its own);
#               default: Debian's linux-source-7.2, unpacked in the cache
#   -j N        parallel jobs (default: the number of CPUs)
#   PDTRACE_CACHE  cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace)
# Prints the output directory: bzImage, modules/lib/modules/RELEASE (with build ->
# the build tree), config, RELEASE, build.log. One output directory per source tree,
# configured again when the fragments change; building again in it is kbuild's own
# incremental build (none at all for Debian's source with the same fragments).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${PDTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace}
ksrc= jobs=$(nproc)
fragments=("$top/kconfig/base.config" "$top/kconfig/pdtrace.config")
# What kbuild needs besides the chroot's compiler and make.
tools=(gcc flex bison bc libelf-dev libssl-dev python3 cpio kmod xz-utils dwarves)

die() { echo "build-kernel: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--ksrc) ksrc=${2:?--ksrc needs a directory}; shift 2 ;;
	-j) jobs=${2:?-j needs a number}; shift 2 ;;
	-j[0-9]*) jobs=${1#-j}; shift ;;
	-h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
case "$jobs" in ''|*[!0-9]*|0) die "bad job count '$jobs'" ;; esac
[ "$(id -u)" -eq 0 ] || die "building in the sid chroot needs root (chroot, mount)"

# The chroot is the one of Debian's packaged kernel (tests/kmod/build.sh makes it too).
kver=$(cat "$("$top/tests/vm/fetch-kernel.sh")/VERSION") || die "cannot resolve Debian's packaged kernel version"
extra=()
[ -n "$ksrc" ] || extra=(linux-source-7.2)
# The chroot's lock only while packages go in: the module build shares the chroot.
mkdir -p "$cache"
root=$(flock "$cache/chroot-$kver.lock" "$top/tests/vm/sid-chroot.sh" "$kver" "${tools[@]}" "${extra[@]}")

# Debian's source, unpacked once per package version.
debian_source() {
	local v dir
	v=$(chroot "$root" dpkg-query -W -f='${Version}' linux-source-7.2) || die "linux-source-7.2 is not in the chroot"
	dir=$cache/linux-source-$v
	if [ ! -f "$dir/.pdtrace-unpacked" ]; then
		echo "build-kernel: unpacking linux-source-7.2 $v into $dir" >&2
		rm -rf "$dir" "$dir.new"
		mkdir -p "$dir.new"
		tar -xJf "$root/usr/src/linux-source-7.2.tar.xz" -C "$dir.new" --strip-components=1 ||
			die "cannot unpack $root/usr/src/linux-source-7.2.tar.xz"
		mv "$dir.new" "$dir"
		echo "$v" >"$dir/.pdtrace-unpacked"
	fi
	echo "$dir"
}

if [ -z "$ksrc" ]; then
	ksrc=$(debian_source)
else
	[ -f "$ksrc/Makefile" ] && [ -f "$ksrc/Kconfig" ] || die "no kernel source tree in '$ksrc'"
	ksrc=$(readlink -f "$ksrc")
	[ ! -f "$ksrc/.config" ] || die "$ksrc has a .config: the build needs a clean tree (make mrproper)"
fi
# One output directory per source tree; the fragments' hash decides whether it must be
# configured again (kbuild then rebuilds what the changed options touch).
key=$(echo "$ksrc" | sha256sum | cut -c1-16)
out=$cache/kbuild-$key
obj=$out/obj
confhash=$(cat "${fragments[@]}" | sha256sum | cut -d' ' -f1)
mkdir -p "$obj"
# One build per output directory at a time.
exec 9>"$out.lock"
flock -n 9 || { echo "build-kernel: waiting for another build of $out" >&2; flock 9; }
# Debian's source does not change under its version: a build of this configuration is done.
if [ "$ksrc" = "$cache/linux-source-$(cat "$ksrc/.pdtrace-unpacked" 2>/dev/null)" ] &&
	[ "$(cat "$out/built" 2>/dev/null)" = "$confhash" ] && [ -f "$out/RELEASE" ]; then
	echo "$out"
	exit 0
fi
rm -f "$out/built"
cp "${fragments[@]}" "$out/"

# Bind mounts at the same paths inside the chroot, undone on the way out.
mounts=()
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
bind() { # dir
	mkdir -p "$root$1"
	mount --bind "$1" "$root$1" || die "cannot bind-mount $1 into $root"
	mounts+=("$root$1")
}
mount -t proc proc "$root/proc" || die "cannot mount /proc in $root"
mounts+=("$root/proc")
bind "$ksrc"
bind "$out"

in_chroot() { # command...
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 chroot "$root" "$@"
}
kmake() { in_chroot make -C "$ksrc" O="$obj" "$@"; }

configure() {
	kmake allnoconfig
	in_chroot "$ksrc/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$out/base.config" "$out/pdtrace.config"
	kmake olddefconfig
	# A fragment line that did not land (an unmet dependency, a renamed option) would
	# show up later as a test failing for no visible reason: stop here instead.
	local missing
	missing=$(grep -hE '^CONFIG_[A-Z0-9_]+=' "${fragments[@]}" | while read -r l; do
		grep -qxF "$l" "$obj/.config" || echo "$l"
	done)
	[ -z "$missing" ] || die "options of the fragments not in the final .config: $(echo $missing)"
}

log=$out/build.log
start=$(date +%s)
(
	{ [ "$(cat "$out/configured" 2>/dev/null)" = "$confhash" ] ||
		{ configure && echo "$confhash" >"$out/configured"; }; } &&
		kmake -j"$jobs" bzImage modules &&
		rm -rf "$out/modules" &&
		kmake INSTALL_MOD_PATH="$out/modules" modules_install
) >"$log" 2>&1 || die "the kernel build failed: $(grep -m1 -E 'error|Error|not in the final' "$log" || tail -n1 "$log") (see $log)"
release=$(cat "$obj/include/config/kernel.release")
ln -sfn "obj/arch/x86/boot/bzImage" "$out/bzImage"
cp "$obj/.config" "$out/config"
echo "$release" >"$out/RELEASE"
# The test module is built in this chroot too (tests/kmod/build.sh --kdir).
echo "$root" >"$obj/.pdtrace-chroot"
echo "$confhash" >"$out/built"
echo "build-kernel: $release built in $(($(date +%s) - start)) s: $out" >&2
echo "$out"
