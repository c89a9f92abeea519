#!/usr/bin/env bash
# Unpack Debian sid's libbpf source package (a current libbpf: Debian 12's 1.1 predates
# kprobe sessions and links BPF objects without kfuncs) and print its directory. The
# Makefile builds it into OUTPUT/libbpf and links it statically, as libbpf-bootstrap does
# with its copy. apt checks the package against sid's signed Sources; nothing of it
# enters the work tree. Cached per version outside the work tree.
#
# Usage: scripts/fetch-libbpf.sh
#   PDTRACE_CACHE   cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace)
#   PDTRACE_MIRROR  Debian mirror (default: the one apt already uses)
#   PDTRACE_LIBBPF  a libbpf source tree to use instead (its src/ is built)
set -euo pipefail

cache=${PDTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace}
apt_dir=$cache/apt-sid-src

die() { echo "fetch-libbpf: $*" >&2; exit 2; }

. "$(dirname "$0")/../tests/vm/mirror.sh"

if [ -n "${PDTRACE_LIBBPF:-}" ]; then
	[ -f "$PDTRACE_LIBBPF/src/libbpf.c" ] || die "PDTRACE_LIBBPF=$PDTRACE_LIBBPF: no src/libbpf.c there"
	echo "$PDTRACE_LIBBPF"
	exit 0
fi

apt_opts=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt_dir/sources"
	-o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache"
	-o Dir::State::status=/dev/null -o APT::Sandbox::User=root)

# The version apt knows, updating sid's source index once (and again if it is gone).
version() {
	apt-cache "${apt_opts[@]}" showsrc libbpf 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n1 || true
}

mkdir -p "$apt_dir/sources" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
v=$(version)
if [ -z "$v" ]; then
	cat >"$apt_dir/sources/sid.sources" <<EOS
Types: deb-src
URIs: $(debian_mirror)
Suites: sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	apt-get "${apt_opts[@]}" -qq update >&2 || die "apt-get update of sid's sources failed"
	v=$(version)
	[ -n "$v" ] || die "no libbpf source package in sid"
fi
dir=$cache/libbpf-${v#*:}
if [ ! -f "$dir/src/libbpf.c" ]; then
	tmp=$(mktemp -d "$cache/.libbpf.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	echo "fetch-libbpf: downloading Debian's libbpf $v source (sid)" >&2
	(cd "$tmp" && apt-get "${apt_opts[@]}" -qq source --download-only "libbpf=$v" >&2) ||
		die "cannot download libbpf $v's source"
	# dpkg-source applies Debian's patches; apt has checked the files' hashes.
	(cd "$tmp" && dpkg-source --no-check -x ./libbpf_*.dsc src >/dev/null) ||
		die "cannot unpack libbpf $v's source"
	rm -rf "$dir"
	mv "$tmp/src" "$dir"
fi
echo "$dir"
