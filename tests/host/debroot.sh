#!/usr/bin/env bash
# Make (once) the root the package test installs pdtrace.deb into: Debian 12 bookworm
# minbase and man-db, made with mmdebstrap and cached outside the work tree. The test
# never changes it: it installs into an overlay (or a copy) of it. Recreated when
# missing or incomplete.
#
# Usage: debroot.sh
#   PDTRACE_CACHE   cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace)
#   PDTRACE_MIRROR  Debian mirror URL (default: the one apt already uses)
# Prints the root's directory.
set -euo pipefail

cache=${PDTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace}
suite=bookworm
root=$cache/deb-root-$suite
# What the test needs besides minbase; a change here makes a new root.
pkgs=man-db

die() { echo "deb-root: $*" >&2; exit 2; }

. "$(dirname "$0")/../vm/mirror.sh"

if [ -f "$root/.pdtrace-deb-root" ] && [ "$(cat "$root/.pdtrace-deb-root")" = "$pkgs" ] &&
	[ -x "$root/usr/bin/man" ] && [ -x "$root/usr/bin/dpkg" ]; then
	echo "$root"
	exit 0
fi
command -v mmdebstrap >/dev/null || die "mmdebstrap is missing (apt-get install mmdebstrap)"
mkdir -p "$cache"
tmp=$root.new
rm -rf "$tmp"
echo "deb-root: making $root with mmdebstrap ($suite minbase + $pkgs)" >&2
mmdebstrap --quiet --variant=minbase --mode=root \
	--aptopt='APT::Install-Recommends "false"' --include="${pkgs// /,}" \
	"$suite" "$tmp" "$(debian_mirror)" >&2 || { rm -rf "$tmp"; die "mmdebstrap failed"; }
echo "$pkgs" >"$tmp/.pdtrace-deb-root"
rm -rf "$root"
mv "$tmp" "$root"
echo "$root"
