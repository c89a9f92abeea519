#!/usr/bin/env bash
# Regenerate vmlinux.h from a packaged kernel's BTF (never the running kernel's):
# fetch Debian's kernel (tests/vm/fetch-kernel.sh), take its BTF (amd64: the ELF vmlinux
# extracted from its bzImage; arm64: the raw BTF from its uncompressed Image), dump it as
# C with bpftool, check that DCACHE_PERSISTENT is there.
# Usage: gen-vmlinux-h.sh OUT [VMLINUZ]
#   PDTRACE_ARCH  the kernel's Debian architecture: amd64 (default) or arm64
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
img=${2:-}
arch=${PDTRACE_ARCH:-amd64}
if [ -z "$img" ]; then
	img=$(PDTRACE_ARCH=$arch "$top/tests/vm/fetch-kernel.sh")/vmlinuz
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$arch" in
amd64) "$top/scripts/extract-vmlinux.sh" "$img" "$tmp/vmlinux" ;;
arm64) "$top/scripts/extract-btf.sh" "$img" "$tmp/vmlinux" ;;
*) echo "gen-vmlinux-h: unsupported PDTRACE_ARCH '$arch' (amd64, arm64)" >&2; exit 2 ;;
esac
${BPFTOOL:-bpftool} btf dump file "$tmp/vmlinux" format c >"$tmp/vmlinux.h"
grep -q 'DCACHE_PERSISTENT = ' "$tmp/vmlinux.h" ||
	{ echo "gen-vmlinux-h: $img has no DCACHE_PERSISTENT in its BTF" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
mv "$tmp/vmlinux.h" "$out"
echo "gen-vmlinux-h: wrote $out from $img" >&2
