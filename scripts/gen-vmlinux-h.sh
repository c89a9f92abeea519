#!/usr/bin/env bash
# Regenerate vmlinux.h from a packaged kernel's BTF (never the running kernel's):
# fetch Debian's kernel (tests/vm/fetch-kernel.sh), extract the ELF vmlinux from its
# bzImage, dump its BTF as C with bpftool, check that DCACHE_PERSISTENT is there.
# Usage: gen-vmlinux-h.sh OUT [VMLINUZ]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
img=${2:-}
if [ -z "$img" ]; then
	img=$("$top/tests/vm/fetch-kernel.sh")/vmlinuz
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$top/scripts/extract-vmlinux.sh" "$img" "$tmp/vmlinux"
${BPFTOOL:-bpftool} btf dump file "$tmp/vmlinux" format c >"$tmp/vmlinux.h"
grep -q 'DCACHE_PERSISTENT = ' "$tmp/vmlinux.h" ||
	{ echo "gen-vmlinux-h: $img has no DCACHE_PERSISTENT in its BTF" >&2; exit 2; }
mv "$tmp/vmlinux.h" "$out"
echo "gen-vmlinux-h: wrote $out from $img" >&2
