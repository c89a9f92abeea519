#!/usr/bin/env bash
# Download Debian's packaged kernel (generic amd64 flavour from sid, or arm64's) into a
# cache outside the work tree, and reuse it when it is already there.
#
# Usage: fetch-kernel.sh [--kunit | --tools | --busybox]
#   --kunit  instead, the kernel's own KTAP parser (tools/testing/kunit from the suite's
#            linux-source-7.2): prints the directory holding kunit_parser.py
#   --tools  instead, tools/, kernel/bpf/ and scripts/ of that source (bpftool's,
#            scripts/build-bpftool.sh): prints the directory holding them
#   --busybox  instead, the suite's busybox-static for PDTRACE_ARCH (the guest's shell
#            where that is not the host's architecture): prints the binary's path
#   PDTRACE_CACHE      cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace)
#   PDTRACE_KERNEL_VER kernel ABI version (e.g. 7.2.13+deb14-amd64); default: resolved
#                      from sid's linux-image-amd64 meta package
#   PDTRACE_ARCH       Debian architecture of the kernel: amd64 (default) or arm64
#                      (linux-image-arm64; its vmlinuz is an EFI Image, not a bzImage)
#   PDTRACE_SUITE      Debian suite to take the kernel from (default: sid)
#   PDTRACE_MIRROR     Debian mirror URL (default: the one apt already uses)
#
# On success prints the kernel directory, which holds vmlinuz, modules/ and VERSION.
set -euo pipefail

cache=${PDTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace}
suite=${PDTRACE_SUITE:-sid}
arch=${PDTRACE_ARCH:-amd64}
case "$arch" in
amd64) apt_dir=$cache/apt-$suite ;;
arm64) apt_dir=$cache/apt-$suite-$arch ;;
*) echo "fetch-kernel: unsupported PDTRACE_ARCH '$arch' (amd64, arm64)" >&2; exit 2 ;;
esac

die() { echo "fetch-kernel: $*" >&2; exit 2; }

. "$(dirname "$0")/mirror.sh"

apt_opts() {
	echo -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt_dir/sources" \
		-o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" \
		-o Dir::State::status=/dev/null -o Acquire::Check-Valid-Until=false \
		-o APT::Get::List-Cleanup=false -o APT::Sandbox::User=root
	[ "$arch" = amd64 ] || echo -o APT::Architecture="$arch" -o APT::Architectures="$arch"
}

apt_update() {
	mkdir -p "$apt_dir/sources" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
	cat >"$apt_dir/sources/$suite.sources" <<EOS
Types: deb
URIs: $(debian_mirror)
Suites: $suite
Components: main
Architectures: $arch
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	# shellcheck disable=SC2046
	apt-get $(apt_opts) -qq update >&2 || die "apt-get update of $suite failed"
}

resolve_version() {
	# linux-image-ARCH depends on linux-image-VER-ARCH (or linux-image-VER-ARCH-unsigned)
	# shellcheck disable=SC2046
	apt-cache $(apt_opts) depends "linux-image-$arch" 2>/dev/null |
		sed -n "s/.*Depends: linux-image-\([0-9][^ ]*-$arch\)\(-unsigned\)\?\$/\1/p" | head -n1
}

download() { # package -> path of the .deb
	local pkg=$1 dir=$2
	# shellcheck disable=SC2046
	(cd "$dir" && apt-get $(apt_opts) -qq download "$pkg" >&2) || die "cannot download $pkg"
	ls "$dir"/"${pkg}"_*.deb | head -n1
}

# The parts of the kernel source the packaged kernel comes from that user-space tools are
# built or run from: tools/ (the KTAP parser, bpftool, libbpf's kernel copy), kernel/bpf/
# (bpftool's disassembler) and scripts/, unpacked once. Prints the directory.
ksource_tools() {
	[ -d "$apt_dir/lists" ] && ls "$apt_dir"/lists/*Packages* >/dev/null 2>&1 || apt_update
	local v dir
	# shellcheck disable=SC2046
	v=$(apt-cache $(apt_opts) show linux-source-7.2 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
	[ -n "$v" ] || { apt_update; v=$(apt-cache $(apt_opts) show linux-source-7.2 2>/dev/null | sed -n 's/^Version: //p' | head -n1); }
	[ -n "$v" ] || die "no linux-source-7.2 in $suite"
	dir=$cache/linux-tools-$v
	if [ ! -f "$dir/tools/testing/kunit/kunit_parser.py" ]; then
		tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		echo "fetch-kernel: downloading Debian's linux-source-7.2 $v ($suite) for its tools" >&2
		local deb
		deb=$(download linux-source-7.2 "$tmp")
		dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-7.2.tar.xz |
			tar -xJ -C "$tmp" --wildcards '*/tools/*' '*/kernel/bpf/*' '*/scripts/*' ||
			die "cannot unpack tools/ from $deb"
		rm -rf "$dir"
		mv "$tmp"/linux-source-7.2 "$dir"
	fi
	echo "$dir"
}

# busybox-static of the suite and architecture, unpacked alone.
busybox() {
	[ -d "$apt_dir/lists" ] && ls "$apt_dir"/lists/*Packages* >/dev/null 2>&1 || apt_update
	local v dir deb
	# shellcheck disable=SC2046
	v=$(apt-cache $(apt_opts) show "busybox-static:$arch" 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
	[ -n "$v" ] || die "no busybox-static for $arch in $suite"
	dir=$cache/busybox-${v#*:}-$arch
	if [ ! -x "$dir/busybox" ]; then
		tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		echo "fetch-kernel: downloading Debian's busybox-static $v ($suite, $arch)" >&2
		deb=$(download busybox-static "$tmp")
		dpkg-deb -x "$deb" "$tmp/root"
		[ -x "$tmp/root/bin/busybox" ] || [ -x "$tmp/root/usr/bin/busybox" ] || die "no busybox in $deb"
		mkdir -p "$dir.new"
		cp "$(ls "$tmp"/root/bin/busybox "$tmp"/root/usr/bin/busybox 2>/dev/null | head -n1)" "$dir.new/busybox"
		rm -rf "$dir"
		mv "$dir.new" "$dir"
	fi
	echo "$dir/busybox"
}

main() {
	if [ "${1:-}" = --kunit ]; then
		echo "$(ksource_tools)/tools/testing/kunit"
		return
	fi
	if [ "${1:-}" = --tools ]; then
		ksource_tools
		return
	fi
	if [ "${1:-}" = --busybox ]; then
		busybox
		return
	fi
	local ver=${PDTRACE_KERNEL_VER:-}
	if [ -z "$ver" ]; then
		apt_update
		ver=$(resolve_version)
		[ -n "$ver" ] || die "cannot resolve the kernel version from $suite's linux-image-$arch"
	fi
	local kdir=$cache/kernel-$ver
	if [ -f "$kdir/vmlinuz" ] && [ -d "$kdir/modules" ] && [ -f "$kdir/VERSION" ]; then
		echo "$kdir"
		return
	fi
	[ -d "$apt_dir/lists" ] && ls "$apt_dir"/lists/*Packages* >/dev/null 2>&1 || apt_update
	# global: the EXIT trap runs after main returns
	tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	echo "fetch-kernel: downloading Debian's linux $ver ($suite)" >&2
	local pkg deb
	for pkg in "linux-image-$ver" "linux-binary-$ver" "linux-modules-$ver"; do
		# Packaging moved the image between these names; take what exists.
		deb=$(download "$pkg" "$tmp" 2>/dev/null) || continue
		dpkg-deb -x "$deb" "$tmp/root"
	done
	local img
	img=$(ls "$tmp"/root/boot/vmlinuz-* "$tmp"/root/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n1 || true)
	[ -n "$img" ] || die "no vmlinuz in the packages of $ver"
	[ -d "$tmp/root/usr/lib/modules/$ver" ] || [ -d "$tmp/root/lib/modules/$ver" ] ||
		die "no modules directory for $ver"
	mkdir -p "$kdir.new"
	cp "$img" "$kdir.new/vmlinuz"
	mv "$(ls -d "$tmp"/root/usr/lib/modules/"$ver" "$tmp"/root/lib/modules/"$ver" 2>/dev/null | head -n1)" \
		"$kdir.new/modules"
	echo "$ver" >"$kdir.new/VERSION"
	rm -rf "$kdir"
	mv "$kdir.new" "$kdir"
	echo "$kdir"
}

main "$@"
