#!/usr/bin/env bash
# Extract the uncompressed ELF vmlinux (with its .BTF section) from a bzImage.
# Same idea as the kernel's scripts/extract-vmlinux: find each compression magic,
# try to decompress from there, keep the first result that is an ELF file.
# Usage: extract-vmlinux.sh VMLINUZ OUT
set -euo pipefail
img=$1 out=$2
try() { # magic(grep -P) decompressor
	local off
	for off in $(LC_ALL=C grep -obUaP "$1" "$img" | cut -d: -f1); do
		tail -c +$((off + 1)) "$img" | $2 >"$out.tmp" 2>/dev/null || true
		if [ "$(head -c 4 "$out.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
			mv "$out.tmp" "$out"
			return 0
		fi
	done
	return 1
}
try '\x28\xb5\x2f\xfd' 'zstd -dcq' || try '\xfd\x37\x7a\x58\x5a\x00' 'xz -dcq' ||
	try '\x1f\x8b\x08' 'gzip -dcq' || { rm -f "$out.tmp"; echo "extract-vmlinux: no ELF vmlinux in $img" >&2; exit 2; }
