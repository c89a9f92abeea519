#!/usr/bin/env bash
# Make pdtrace's Debian package with dpkg-deb (no debhelper): from a tree that
# 'make install DESTDIR=STAGE PREFIX=/usr' filled, as Debian policy wants it: the
# binary stripped, man pages gzip -9n, the copyright file (DEP-5) and
# changelog.Debian.gz in /usr/share/doc/pdtrace, lintian's overrides, control and
# md5sums; owned by root, timestamps clamped to the changelog's date.
#
# Usage: mkdeb.sh STAGE VERSION DEB
#   STAGE    the installed tree (emptied of anything else first by the Makefile)
#   VERSION  the Debian version (upstream-revision), checked against the changelog
#   DEB      the package file to write
#   DEB_ARCH the binary's Debian architecture (amd64, the default; arm64: make ARCH=arm64)
#   STRIP    the strip that knows the binary's architecture (default: strip)
set -euo pipefail

stage=${1:?usage: mkdeb.sh STAGE VERSION DEB} version=${2:?} deb=${3:?}
top=$(cd "$(dirname "$0")/.." && pwd)
pkg=$top/packaging/deb
die() { echo "mkdeb: $*" >&2; exit 2; }

# The changelog's first entry is this version; its trailer names the maintainer and
# dates the package.
head=$(head -n 1 "$pkg/changelog")
[[ $head =~ ^pdtrace\ \(([^\)]*)\)\  ]] || die "packaging/deb/changelog: no 'pdtrace (VERSION)' on its first line"
[ "${BASH_REMATCH[1]}" = "$version" ] ||
	die "packaging/deb/changelog is at ${BASH_REMATCH[1]}, the package at $version: add a changelog entry"
trailer=$(grep -m 1 '^ -- ' "$pkg/changelog")
maintainer=$(echo "$trailer" | sed -E 's/^ -- (.*>)  .*/\1/')
date=$(echo "$trailer" | sed -E 's/^ -- .*>  (.*)$/\1/')
SOURCE_DATE_EPOCH=$(date -d "$date" +%s) || die "packaging/deb/changelog: bad date '$date'"
export SOURCE_DATE_EPOCH

arch=${DEB_ARCH:-amd64}
# The Debian source packages whose code the static binary holds (policy 7.8). arm64's
# glibc comes with the cross compiler (libc6-dev-arm64-cross, built from
# cross-toolchain-base), its other libraries through multiarch.
# libbpf is built from sid's source package (scripts/fetch-libbpf.sh), not installed: its
# version is that source's.
case "$arch" in
amd64) libs=(libc6-dev libelf-dev zlib1g-dev libzstd-dev) ;;
arm64) libs=(libc6-dev-arm64-cross libelf-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64) ;;
*) die "DEB_ARCH=$arch: amd64 or arm64" ;;
esac
built_using=$(dpkg-query -W -f='${source:Package} (= ${source:Version}), ' "${libs[@]}") ||
	die "dpkg-query: build dependencies missing"
libbpf_src=$("$(dirname "$0")/fetch-libbpf.sh") || die "cannot find libbpf's source"
libbpf_version=$(dpkg-parsechangelog -l "$libbpf_src/debian/changelog" -S Version 2>/dev/null) ||
	die "$libbpf_src: no debian/changelog, so no version of libbpf for Built-Using"
built_using="$built_using libbpf (= $libbpf_version),"
built_using=$(echo "$built_using" | tr -s ' ' | sed 's/, *$//' | tr ',' '\n' | sed 's/^ //' | sort -u |
	paste -sd, | sed 's/,/, /g')

[ -x "$stage/usr/sbin/pdtrace" ] || die "$stage/usr/sbin/pdtrace: missing (make install DESTDIR=$stage PREFIX=/usr first)"
${STRIP:-strip} --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/sbin/pdtrace"
gzip -9nf "$stage"/usr/share/man/man8/*.8
doc=$stage/usr/share/doc/pdtrace
install -d -m 0755 "$doc" "$stage/usr/share/lintian/overrides"
install -m 0644 "$pkg/copyright" "$doc/copyright"
gzip -9n <"$pkg/changelog" >"$doc/changelog.Debian.gz"
install -m 0644 "$pkg/lintian-overrides" "$stage/usr/share/lintian/overrides/pdtrace"

find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -type f -exec chmod 0644 {} +
chmod 0755 "$stage/usr/sbin/pdtrace"
# Installed-Size as dpkg-gencontrol counts it: KiB per file, rounded up, 1 per directory.
size=$(find "$stage/usr" -printf '%y %s\n' |
	awk '$1 == "f" { k += int(($2 + 1023) / 1024) } $1 != "f" { k += 1 } END { print k }')
install -d -m 0755 "$stage/DEBIAN"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@MAINTAINER@/$maintainer/" \
	-e "s/@INSTALLED_SIZE@/$size/" -e "s/@BUILT_USING@/$built_using/" \
	"$pkg/control.in" >"$stage/DEBIAN/control"
if grep -q '@[A-Z_]*@' "$stage/DEBIAN/control"; then
	die "control: a field left unfilled: $(grep '@[A-Z_]*@' "$stage/DEBIAN/control")"
fi
(cd "$stage" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
