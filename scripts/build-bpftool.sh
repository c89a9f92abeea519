#!/usr/bin/env bash
# Build Debian sid's bpftool from its source, the kernel's (linux-source-7.2, which the
# suite fetches for the KTAP parser too), for the build machine, into DIR. Debian 12's
# bpftool (libbpf 1.1) and bookworm-backports' (libbpf 1.5) cannot link BPF objects that
# share a kfunc, and sid's binary needs a newer glibc. Cached per source version.
#
# Usage: scripts/build-bpftool.sh DIR    (DIR/bpftool is made)
set -euo pipefail

out=${1:?usage: build-bpftool.sh DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PDTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdtrace}

die() { echo "build-bpftool: $*" >&2; exit 2; }

src=$("$top/tests/vm/fetch-kernel.sh" --tools) || die "cannot fetch the kernel's tools/"
bin=$cache/bpftool-$(basename "$src")/bpftool
if [ ! -x "$bin" ]; then
	log=$cache/bpftool-$(basename "$src").log
	mkdir -p "$(dirname "$bin")/obj"
	echo "build-bpftool: building bpftool from $(basename "$src")" >&2
	# A clean environment: the caller's make variables (ARCH, CC for a cross build)
	# are not the build machine's. No LLVM or libbfd disassembler: pdtrace needs none.
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$HOME" LC_ALL=C.UTF-8 \
		make -C "$src/tools/bpf/bpftool" -j"$(nproc)" OUTPUT="$(dirname "$bin")/obj/" \
		feature-libbfd=0 feature-llvm=0 >"$log" 2>&1 ||
		die "building bpftool failed: $(grep -m1 -E 'error|Error' "$log" || tail -n1 "$log") (see $log)"
	cp "$(dirname "$bin")/obj/bpftool" "$bin"
fi
mkdir -p "$out"
cp "$bin" "$out/bpftool.new" && mv "$out/bpftool.new" "$out/bpftool"
