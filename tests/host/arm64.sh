#!/usr/bin/env bash
# Host tests of the arm64 build (make arm64: make ARCH=arm64 into build/arm64): the
# binary and the guest tools are static ELF for AArch64, the embedded BPF objects were
# compiled for arm64's pt_regs, vmlinux/arm64/vmlinux.h is a kernel's with the API, and
# the binary, run on this machine under qemu-user, reports every recording of the fuzz
# corpus exactly as the x86-64 binary does (text and JSON). The x86-64 binary stays
# x86-64. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
build=${OUTPUT:-$top/build}
arm=${ARM64_OUTPUT:-$build/arm64}
bin=$arm/pdtrace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

machine() { LC_ALL=C readelf -h "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p'; }
static() { ! LC_ALL=C readelf -lW "$1" 2>/dev/null | grep -q 'INTERP\|Requesting program interpreter' &&
	! LC_ALL=C readelf -d "$1" 2>/dev/null | grep -q NEEDED; }

if [ ! -x "$bin" ]; then
	not_ok "build/arm64/pdtrace exists (make arm64)" "missing: $bin"
	echo "1..$n"
	exit 1
fi
[ "$(machine "$bin")" = AArch64 ]
check $? "build/arm64/pdtrace is AArch64 ELF" "Machine: $(machine "$bin")" "$(file "$bin")"
static "$bin"
check $? "build/arm64/pdtrace is statically linked" "$(readelf -d "$bin" | grep NEEDED)"
file "$bin" | grep -q 'ARM aarch64.*statically linked'
check $? "file(1) says ARM aarch64, statically linked" "$(file "$bin")"
[ "$(machine "$build/pdtrace")" = "Advanced Micro Devices X86-64" ]
check $? "build/pdtrace (the default ARCH) is x86-64" "Machine: $(machine "$build/pdtrace")"
bad=
for t in "$arm"/guest-tools/*; do
	[ "$(machine "$t")" = AArch64 ] && static "$t" || bad="$bad $(basename "$t")"
done
[ -z "$bad" ] && [ -x "$arm/guest-tools/pdt-fsop" ]
check $? "the guest tools are static AArch64 ELF" "not:$bad"
# __TARGET_ARCH_arm64: bpf_tracing.h reads the kprobe programs' arguments from struct
# user_pt_regs (x86: struct pt_regs' di, si, ...); the embedded objects' BTF names it, a
# string of its own (libbpf itself holds "bpf_user_pt_regs_t" on both).
btf_name() { LC_ALL=C grep -qaP '\x00user_pt_regs\x00' "$1"; }
btf_name "$bin" && ! btf_name "$build/pdtrace"
check $? "the embedded BPF objects are arm64's (struct user_pt_regs), not x86's"
grep -q 'DCACHE_PERSISTENT = ' "$top/vmlinux/arm64/vmlinux.h" &&
	grep -q '^struct user_pt_regs {' "$top/vmlinux/arm64/vmlinux.h"
check $? "vmlinux/arm64/vmlinux.h: an arm64 kernel's types, DCACHE_PERSISTENT among them"

qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
if [ -z "$qemu" ]; then
	not_ok "qemu-user for aarch64 is installed (qemu-user-static; make deps)"
	echo "1..$n"
	exit 1
fi
version=$(sed -n 's/^VERSION := //p' "$top/Makefile")
out=$("$qemu" "$bin" --version 2>&1)
[ "$(echo "$out" | head -n1)" = "pdtrace $version" ] && echo "$out" | grep -q "^BPF programs for arm64: "
check $? "under qemu-user: pdtrace --version says $version" "$out"
"$qemu" "$bin" frobnicate >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]
check $? "under qemu-user: an unknown command is one line on stderr, exit 2" "exit $rc" "$(cat "$tmp/err")"
# The rules engine and the report writers on arm64: the same reports as x86-64's.
nrec=0 diffs=
for r in "$top"/tests/fuzz/corpus/*.pdtrec; do
	nrec=$((nrec + 1))
	for f in text json; do
		"$build/pdtrace" report -f $f "$r" >"$tmp/x86" 2>&1
		rx=$?
		"$qemu" "$bin" report -f $f "$r" >"$tmp/arm" 2>&1
		ra=$?
		[ $rx -eq $ra ] && cmp -s "$tmp/x86" "$tmp/arm" || diffs="$diffs $(basename "$r")/$f(exit $rx/$ra)"
	done
done
[ $nrec -gt 0 ] && [ -z "$diffs" ]
check $? "under qemu-user: report of the $nrec corpus recordings, text and JSON, as x86-64's" "differ:$diffs"
echo "1..$n"
[ "$failed" -eq 0 ]
