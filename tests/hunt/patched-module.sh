#!/usr/bin/env bash
# Verify a kernel patch to one module without building a kernel: the module's directory of
# Debian's linux-source-7.2 (the source tests/vm/build-kernel.sh unpacks), patched, built
# out of tree against Debian's packaged kernel's headers in the sid chroot (as
# tests/kmod/build.sh builds pdt_faultfs), and put in place of the package's module in a
# copy of its modules tree (hard links but for that module). Then boot it:
#   tests/vm/run.sh --kernel KDIR/vmlinuz --modules OUT/modules SCENARIO
#
# Usage: tests/hunt/patched-module.sh PATCH DIR MODULE OUT
#   PATCH   a git format-patch file against the kernel tree
#   DIR     the module's directory in the tree, e.g. drivers/scsi/qla2xxx
#   MODULE  the module, e.g. qla2xxx
#   OUT     output directory: OUT/modules (the tree), OUT/MODULE.ko, OUT/build.log
# Example (the qla2xxx fix, scenario hunt-qla2xxx-fixed):
#   tests/hunt/patched-module.sh tests/hunt/patches/0001-scsi-qla2xxx-destroy-the-trace-instance-at-unload.patch \
#       drivers/scsi/qla2xxx qla2xxx build/qla-fixed
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${PDTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace}

die() { echo "patched-module: $*" >&2; exit 2; }

[ $# -eq 4 ] || die "usage: patched-module.sh PATCH DIR MODULE OUT"
patch=$(readlink -f "$1") dir=$2 mod=$3 out=$4
[ -f "$patch" ] || die "no patch '$1'"
[ "$(id -u)" -eq 0 ] || die "the sid chroot needs root"
kdir=$("$top/tests/vm/fetch-kernel.sh") || die "cannot get Debian's packaged kernel"
kver=$(cat "$kdir/VERSION")
root=$(flock "$cache/chroot-$kver.lock" "$top/tests/vm/sid-chroot.sh" "$kver" linux-source-7.2) ||
	die "cannot make the sid chroot"
mkdir -p "$out"
out=$(readlink -f "$out")

# The module's directory of the source, patched (the patch's paths are the tree's).
# The module's directory sits at its path in the tree under tree: a trace header of the
# packaged headers that includes the module's own (include/trace/events/dlm.h has
# "../../../fs/dlm/dlm_internal.h") finds it through -I tree/include/trace/events.
tree=/tmp/pdt-patched-$mod
work=$tree/$dir
rm -rf "${root:?}$tree" "$out/src"
mkdir -p "$root$work" "$root$tree/include/trace/events" "$out/src"
tar -xJf "$root/usr/src/linux-source-7.2.tar.xz" -C "$out/src" --strip-components=1 \
	--wildcards "*/$dir/*" || die "no $dir in linux-source-7.2"
(cd "$out/src" && patch -p1 --quiet <"$patch") || die "the patch does not apply to $dir"
cp "$out/src/$dir"/* "$root$work/"

# Built against the packaged kernel's headers (its .config, its compiler); objtool reads
# /proc.
mount -t proc proc "$root/proc" || die "cannot mount /proc in $root"
rc=0
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
	chroot "$root" make -C "/usr/src/linux-headers-$kver" M="$work" \
	KCFLAGS="-I$tree/include/trace/events" modules >"$out/build.log" 2>&1 || rc=$?
umount "$root/proc" || echo "patched-module: warning: could not unmount $root/proc" >&2
[ $rc -eq 0 ] || die "the build failed (see $out/build.log)"
strip --strip-debug -o "$out/$mod.ko" "$root$work/$mod.ko"

# The package's modules tree with this module in place of the packaged one, and its
# VERSION beside it, where tests/vm/run.sh looks for the kernel's release.
rm -rf "$out/modules"
cp -al "$kdir/modules" "$out/modules"
cp "$kdir/VERSION" "$out/VERSION"
f=$(cd "$out/modules" && find . -name "$mod.ko*" | head -n1)
[ -n "$f" ] || die "no $mod in the package's modules"
rm "$out/modules/$f"
case "$f" in
*.xz) xz -c "$out/$mod.ko" >"$out/modules/$f" ;;
*.zst) zstd -q -c "$out/$mod.ko" >"$out/modules/$f" ;;
*) cp "$out/$mod.ko" "$out/modules/$f" ;;
esac
echo "patched-module: $mod built with $(basename "$patch"): $out/modules" >&2
echo "$out/modules"
