#!/usr/bin/env bash
# Extract the kernel's BTF (what /sys/kernel/btf/vmlinux exports) from an arm64 boot
# Image, which Debian ships uncompressed and not as ELF: the .BTF section sits in it
# as it is, a btf_header (magic 0xeB9F, version 1, hdr_len 24) followed by its type and
# string sections. Find that header, read its lengths, copy header + sections.
# bpftool reads the raw BTF as it reads /sys/kernel/btf/vmlinux.
# Usage: extract-btf.sh IMAGE OUT
set -euo pipefail
img=$1 out=$2
die() { echo "extract-btf: $*" >&2; exit 2; }
# "ARM\x64" at offset 0x38 marks an arm64 Image (Documentation/arch/arm64/booting.rst).
[ "$(od -An -tx1 -j 56 -N 4 "$img" | tr -d ' ')" = 41524d64 ] ||
	die "$img is not an arm64 Image"
u32() { od -An -tu4 --endian=little -j "$1" -N 4 "$img" | tr -d ' '; }
found=0
for off in $(LC_ALL=C grep -obUaP '\x9f\xeb\x01\x00\x18\x00\x00\x00' "$img" | cut -d: -f1); do
	type_off=$(u32 $((off + 8))) type_len=$(u32 $((off + 12)))
	str_off=$(u32 $((off + 16))) str_len=$(u32 $((off + 20)))
	# The kernel's own BTF: types first, strings right after, and large.
	[ "$type_off" -eq 0 ] && [ "$str_off" -eq "$type_len" ] && [ "$type_len" -gt 1000000 ] || continue
	dd if="$img" of="$out.tmp" iflag=skip_bytes,count_bytes skip="$off" count=$((24 + str_off + str_len)) \
		status=none
	${BPFTOOL:-bpftool} btf dump file "$out.tmp" format raw >/dev/null 2>&1 || continue
	mv "$out.tmp" "$out"
	found=1
	break
done
rm -f "$out.tmp"
[ $found -eq 1 ] || die "no kernel BTF in $img"
