#!/usr/bin/env bash
# Host tests of the Debian package (make deb): its control fields, files, modes and
# md5sums, man pages gzip -9n, the DEP-5 copyright against the sources' SPDX headers,
# a second build identical to the first, lintian (no error, no warning besides the
# overrides it ships); then dpkg -i into a fresh Debian 12 root (mmdebstrap minbase +
# man-db, cached: tests/host/debroot.sh), where pdtrace --version, man -w and
# pdtrace doctor run, and dpkg --purge leaves nothing. TAP output. make test only (the
# root needs the network once).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
build=${OUTPUT:-$top/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


version=$(sed -n 's/^VERSION := //p' "$top/Makefile")
rev=$(sed -n 's/^DEB_REVISION := //p' "$top/Makefile")
# DEB_ARCH=arm64: make ARCH=arm64 deb's package (build/arm64), the same tests; in the
# Debian 12 root (amd64, arm64 added as a foreign architecture) its binary runs under
# qemu-user (qemu-aarch64-static, copied in).
arch=${DEB_ARCH:-amd64}
make_args=() glibc=glibc run=()
if [ "$arch" = arm64 ]; then
	build=$build/arm64
	make_args=(ARCH=arm64 OUTPUT="$build")
	glibc=cross-toolchain-base # libc6-dev-arm64-cross's source, which holds glibc's
	run=(/usr/bin/qemu-aarch64-static)
fi
deb=$build/pdtrace_$version-${rev}_$arch.deb
make -s -C "$top" "${make_args[@]}" deb >"$tmp/make" 2>&1
check $? "make deb" "$(tail -5 "$tmp/make")"
[ -f "$deb" ]
check $? "make deb wrote $(basename "$deb")"
if [ ! -f "$deb" ]; then
	echo "1..$n"
	exit 1
fi

# Control: the fields, and a version that is the binary's.
dpkg-deb -f "$deb" >"$tmp/control"
field() { sed -n "s/^$1: //p" "$tmp/control"; }
[ "$(field Package)" = pdtrace ] && [ "$(field Version)" = "$version-$rev" ] &&
	[ "$(field Architecture)" = "$arch" ] && [ "$(field Section)" = admin ] &&
	[ "$(field Priority)" = optional ] && [[ $(field Maintainer) =~ ^[^\<]+\ \<[^@\>]+@[^\>]+\>$ ]] &&
	[[ $(field Installed-Size) =~ ^[0-9]+$ ]] && [ "$(field Installed-Size)" -gt 1000 ] &&
	[ -n "$(field Description)" ] && [ "$(grep -c '^ ' "$tmp/control")" -ge 5 ]
check $? "control: Package, Version $version-$rev, Architecture $arch, Section, Priority, Maintainer, Installed-Size, Description" "$(cat "$tmp/control")"
for src in $glibc libbpf elfutils zlib libzstd; do
	field Built-Using | tr ',' '\n' | grep -qE "^ ?$src \(= [^)]+\)$" || echo "$src"
done >"$tmp/bu"
[ ! -s "$tmp/bu" ]
check $? "control: Built-Using names the libraries linked in ($glibc, libbpf, elfutils, zlib, libzstd)" \
	"missing: $(cat "$tmp/bu")" "Built-Using: $(field Built-Using)"
! grep -q '^Depends:' "$tmp/control"
check $? "control: no Depends (a static binary)" "$(grep '^Depends:' "$tmp/control")"

# The files, owners and modes: exactly these.
dpkg-deb -c "$deb" | awk '{print $1, $2, $6}' | sed 's| \./| /|; s|/$||' | grep -v ' $' | sort >"$tmp/files"
{
	echo "-rwxr-xr-x root/root /usr/sbin/pdtrace"
	echo "-rw-r--r-- root/root /usr/share/bash-completion/completions/pdtrace"
	echo "-rw-r--r-- root/root /usr/share/doc/pdtrace/changelog.Debian.gz"
	echo "-rw-r--r-- root/root /usr/share/doc/pdtrace/copyright"
	echo "-rw-r--r-- root/root /usr/share/lintian/overrides/pdtrace"
	echo "-rw-r--r-- root/root /usr/lib/systemd/system/pdtrace-watch.service"
	for p in "$top"/man/*.8; do echo "-rw-r--r-- root/root /usr/share/man/man8/$(basename "$p").gz"; done
	for d in /usr /usr/lib /usr/lib/systemd /usr/lib/systemd/system /usr/sbin /usr/share /usr/share/bash-completion /usr/share/bash-completion/completions \
		/usr/share/doc /usr/share/doc/pdtrace /usr/share/lintian /usr/share/lintian/overrides \
		/usr/share/man /usr/share/man/man8; do
		echo "drwxr-xr-x root/root $d"
	done
} | sort >"$tmp/want"
diff "$tmp/want" "$tmp/files" >"$tmp/fdiff"
check $? "the package holds exactly the binary, the man pages, the completion, the watch service (disabled), copyright, changelog, overrides (root, 0755/0644)" "$(cat "$tmp/fdiff")"

dpkg-deb -R "$deb" "$tmp/x"
(cd "$tmp/x" && md5sum --quiet -c DEBIAN/md5sums) >"$tmp/md5" 2>&1 &&
	[ "$(wc -l <"$tmp/x/DEBIAN/md5sums")" -eq "$(find "$tmp/x/usr" -type f | wc -l)" ]
check $? "DEBIAN/md5sums: every file, each sum right" "$(cat "$tmp/md5")"
cmp -s "$top/completion/pdtrace" "$tmp/x/usr/share/bash-completion/completions/pdtrace"
check $? "the completion is the tree's"
# gzip -9n: no name, no timestamp (bytes 3 to 7 of the header), best compression (byte 8).
for f in "$tmp"/x/usr/share/man/man8/*.gz "$tmp/x/usr/share/doc/pdtrace/changelog.Debian.gz"; do
	hdr=$(od -An -tx1 -N9 "$f" | tr -d ' \n')
	[ "${hdr:6:10}" = 0000000000 ] && [ "${hdr:16:2}" = 02 ] || echo "$(basename "$f"): header $hdr"
done >"$tmp/gz"
[ ! -s "$tmp/gz" ]
check $? "man pages and changelog.Debian.gz: gzip -9n" "$(cat "$tmp/gz")"
for p in "$top"/man/*.8; do
	zcat "$tmp/x/usr/share/man/man8/$(basename "$p").gz" | cmp -s - "$p" || echo "$(basename "$p")"
done >"$tmp/mandiff"
[ ! -s "$tmp/mandiff" ]
check $? "the man pages are the tree's" "differ: $(cat "$tmp/mandiff")"
zcat "$tmp/x/usr/share/doc/pdtrace/changelog.Debian.gz" | head -n 1 | grep -q "^pdtrace ($version-$rev) "
check $? "changelog.Debian.gz starts at $version-$rev"
readelf -S "$tmp/x/usr/sbin/pdtrace" | grep -q '\.debug_\|\.symtab'
[ $? -ne 0 ]
check $? "the binary is stripped" "$(readelf -S "$tmp/x/usr/sbin/pdtrace" | grep '\.debug_\|\.symtab')"

# copyright: DEP-5, and the licence the sources' SPDX headers name.
cr=$tmp/x/usr/share/doc/pdtrace/copyright
spdx=$(cd "$top" && grep -rhoE 'SPDX-License-Identifier: [^ */]+' src bpf include man completion | sort -u | awk '{print $2}')
head -n 1 "$cr" | grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' &&
	[ "$spdx" = GPL-2.0 ] && sed -n '/^Files: \*$/,/^$/p' "$cr" | grep -qx 'License: GPL-2' &&
	grep -qx 'License: GPL-2' "$cr" && grep -q "/usr/share/common-licenses/GPL-2'" "$cr"
check $? "copyright: DEP-5, Files: * under GPL-2, the only licence of the sources' SPDX headers" "SPDX: $(echo $spdx)"

# A second build is the same file, byte for byte.
mkdir -p "$tmp/again"
strip="strip"
[ "$arch" = amd64 ] || strip=aarch64-linux-gnu-strip
make -s -C "$top" "${make_args[@]}" install DESTDIR="$tmp/again" PREFIX=/usr >/dev/null 2>&1 &&
	DEB_ARCH=$arch STRIP=$strip "$top/scripts/mkdeb.sh" "$tmp/again" "$version-$rev" "$tmp/again.deb" >/dev/null 2>&1 &&
	cmp -s "$deb" "$tmp/again.deb"
check $? "a second build of the package is identical"

# lintian: no error, no warning (the overrides it ships say why each is there).
if command -v lintian >/dev/null; then
	lintian --display-info --pedantic --tag-display-limit 0 --fail-on error,warning "$deb" >"$tmp/lintian" 2>&1
	rc=$?
	grep -v 'running with root privileges' "$tmp/lintian" >"$tmp/lint"
	[ "$rc" -eq 0 ] && ! grep -q '^[EW]: ' "$tmp/lint"
	check $? "lintian: no error, no warning" "$(cat "$tmp/lint")"
	sed 's/^/# lintian: /' "$tmp/lint"
	lintian --fail-on none --tag-display-limit 0 --no-override "$deb" 2>/dev/null | grep '^[EW]: ' | sed 's/^/# overridden: /'
else
	not_ok "lintian is installed (Debian package lintian; make deps)"
fi

# Installed into a fresh Debian 12 root.
skip_root() { # why
	local t
	for t in "dpkg -i into a fresh bookworm root" "pdtrace --version there" "man -w pdtrace there" \
		"man -w of each command's page there" "man renders there" "pdtrace doctor there" "dpkg --purge there"; do
		skip "$t" "$1"
	done
	echo "1..$n"
	[ "$failed" -eq 0 ]
	exit
}
[ "$(id -u)" -eq 0 ] || skip_root "needs root (chroot)"
base=$("$top/tests/host/debroot.sh" 2>"$tmp/root.err")
check $? "a Debian 12 root with man-db (tests/host/debroot.sh)" "$(tail -5 "$tmp/root.err")" ||
	skip_root "no Debian 12 root"
root=$tmp/root
cp -a "$base" "$root" && cp "$deb" "$root/tmp/pdtrace.deb"
if [ "$arch" = arm64 ]; then
	chroot "$root" dpkg --add-architecture arm64 && cp "$(command -v qemu-aarch64-static)" "$root/usr/bin/"
	check $? "there: arm64 a foreign architecture, qemu-aarch64-static to run the binary"
fi
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"; }
in_root dpkg -i /tmp/pdtrace.deb >"$tmp/dpkg" 2>&1
check $? "dpkg -i pdtrace.deb into a fresh bookworm root" "$(tail -5 "$tmp/dpkg")"
out=$(in_root sh -c "command -v pdtrace && ${run[*]} \$(command -v pdtrace) --version" 2>&1)
[ "$(echo "$out" | head -n2)" = "/usr/sbin/pdtrace
pdtrace $version" ]
check $? "there: pdtrace is /usr/sbin/pdtrace, --version says $version" "$out"
out=$(in_root man -w pdtrace 2>&1)
[ "$out" = /usr/share/man/man8/pdtrace.8.gz ]
check $? "there: man -w pdtrace" "$out"
for p in "$top"/man/pdtrace-*.8; do
	p=$(basename "$p" .8)
	[ "$(in_root man -w "$p" 2>&1)" = "/usr/share/man/man8/$p.8.gz" ] || echo "$p"
done >"$tmp/manw"
[ ! -s "$tmp/manw" ]
check $? "there: man -w finds every command's page" "not found: $(cat "$tmp/manw")"
in_root env MANWIDTH=80 man --warnings pdtrace-check >"$tmp/render" 2>"$tmp/rerr" &&
	[ ! -s "$tmp/rerr" ] && grep -q 'EXIT STATUS' "$tmp/render"
check $? "there: man pdtrace-check renders, without a warning" "$(head -5 "$tmp/rerr")"
# doctor in a chroot (no /sys, no /proc), as root: no kernel BTF, privileges read from
# capget(2). Its contract: exit 2, the table, a problem line per reason, the verdict.
in_root "${run[@]}" /usr/sbin/pdtrace doctor >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$tmp/err" ] &&
	grep -q '^kernel BTF  *MISSING  *no /sys/kernel/btf/vmlinux (.*): CONFIG_DEBUG_INFO_BTF is needed$' "$tmp/out" &&
	grep -q '^privileges  *ok  *CAP_BPF and CAP_PERFMON$' "$tmp/out" &&
	[ "$(grep -c '^problem: ' "$tmp/out")" -eq 1 ] &&
	grep -q '^problem: no kernel BTF (/sys/kernel/btf/vmlinux: E[A-Z]*): a kernel built without CONFIG_DEBUG_INFO_BTF, or no sysfs mounted here$' "$tmp/out" &&
	[ "$(tail -n 1 "$tmp/out")" = "verdict: pdtrace cannot trace on this kernel" ]
check $? "there: pdtrace doctor exits 2, no BTF, one problem line, the verdict" "exit $rc" "stderr: $(cat "$tmp/err")" \
	"$(grep -v '^hook ' "$tmp/out")"
in_root dpkg --purge pdtrace >"$tmp/dpkg" 2>&1 &&
	[ ! -e "$root/usr/sbin/pdtrace" ] && [ ! -e "$root/usr/share/doc/pdtrace" ] &&
	[ ! -e "$root/usr/share/man/man8/pdtrace.8.gz" ] && [ ! -e "$root/usr/share/bash-completion/completions/pdtrace" ]
check $? "there: dpkg --purge pdtrace leaves none of its files" "$(tail -5 "$tmp/dpkg")"

echo "1..$n"
[ "$failed" -eq 0 ]
