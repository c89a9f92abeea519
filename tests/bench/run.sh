#!/usr/bin/env bash
# `make bench`: what pdtrace costs the traced machine. Boots Debian's packaged
# kernel in qemu (software emulation, one boot), with a cached sid userland shared
# over 9p (bpftrace lives there), and runs every benchmark untraced, traced by
# pdtrace, by pdtrace --dput and by an equivalent bpftrace script, interleaved
# A B C D A B C D ... Prints a table of medians and ratios, writes build/bench.json.
#
# Usage: tests/bench/run.sh [--rounds N] [--secs S] [--fill N] [--timeout S] [--keep]
#   --rounds N   runs of each benchmark per variant (default 5)
#   --secs S     guest seconds per timed run (default 0.25: 2.5e8 instructions;
#                the tracefs benchmark runs 4 times as long)
#   --fill N     entries in the umount benchmark's tmpfs (default 100000)
#   --variants L comma-separated subset of base,pdt,dput,bt and the --bin names (default:
#                base,pdt, each --bin, dput,bt; make bench adds --bin floor=build/floor/pdtrace,
#                pdtrace whose programs return at once on the same hooks: the floor, and
#                --bin stream=build/stream-floor/pdtrace, the smallest event per persist,
#                discard and unpin to a reader that drops it: the floor of streaming, and
#                --bin stacks=build/stack-floor/pdtrace, the origin marks and an unwind per
#                kernel-made entry: the floor of keeping creation stacks)
#   --only L     comma-separated subset of the benchmarks (default: all)
#   --bin NAME=PATH  another pdtrace binary, run as variant NAME (before/after
#                figures of a change: --bin before=OLD --variants base,before,pdt)
#   --no-sustained  skip the events-per-second measurement under pdtrace check
#   --sustained-secs S  guest seconds of that measurement (default 2: many times
#                what pdtrace's ring buffer holds, so a reader that falls behind loses)
#   --no-icount  guest time is host time (default: qemu -icount, see below)
#   --bpf-stats  the kernel times the tracer's BPF programs (kernel.bpf_stats_enabled):
#                where its cost goes; each program run costs more, so the ops/s of
#                such a run are not those of a default one
#   --append A   more kernel parameters for the guest (what a setting of the machine does
#                to the figures), after those below: --append "rcutree.qhimark=10000
#                rcutree.qovld=20000" restores the kernel's defaults
#   --smp N      virtual CPUs (default 2). With 1, nothing runs interleaved with
#                anything else, so CPU and BPF run times count only their own instructions;
#                the 2-process benchmarks then share the one CPU
#   --no-isolate the vCPUs past the first do the kernel's housekeeping too (see below)
#
# The guest's RCU never switches to its callback-overload mode (rcutree.qhimark and
# rcutree.qovld raised from 10,000 and 20,000 queued callbacks to 1,000,000 and 2,000,000).
# Churn frees a dentry and an inode through call_rcu() per operation; a run that queues
# past the mark has the grace-period thread force quiescent states from the other CPU,
# which under single-threaded emulation is the benchmark's own wall time. With the
# kernel's marks, untraced runs fell in two groups about 3% apart by whether they crossed
# it (one vCPU's RCU softirqs ran 50 times a run instead of 3,000): a median of five
# landed in either. A real machine runs that thread beside the benchmark, not in turn.
#
# The vCPUs past the first are kept free of the kernel's own work (isolcpus, nohz_full,
# rcu_nocbs and irqaffinity: no kworkers, timers, RCU callbacks or interrupts there). Under
# single-threaded emulation whatever runs on another vCPU runs in turn with the benchmark,
# not beside it, and lands in whichever timed run it falls in: with that work on the second
# vCPU the untraced runs of one boot spread by 4-5% and each row moved by a point or two from
# boot to boot; without it the rounds repeat within a few tenths of a point, as on one vCPU.
# That work then runs on the first vCPU, where it is charged to the benchmark evenly. The
# 2-process benchmarks pin a process to each vCPU, which isolation allows.
#
# Time in the guest is counted in instructions (qemu -icount shift=0: one guest
# nanosecond per instruction), not host time: the machine is shared, and another
# VM or a fuzzer on the host would otherwise change ops/s from one run to the next.
# The figures are then what the guest's CPUs execute, interleaved round-robin on one
# host thread (single-threaded TCG, as the kernel notes require): the tracer's own
# process is charged in full, and 2 vCPUs add contention, not parallelism.
#   PDTRACE_CACHE, PDTRACE_KERNEL_VER, PDTRACE_MIRROR as for tests/vm/run.sh
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${OUTPUT:-$top/build}
out=$build/bench
rounds=5 secs=0.25 ssecs=2 fill=100000 bpfstats=0 smp=2 limit=0 variants= only=all bins=() sustained=1 icount=1 append=
isolate=1
rcu="rcutree.qhimark=1000000 rcutree.qovld=2000000"

die() { echo "bench: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=${2:?}; shift 2 ;;
	--secs) secs=${2:?}; shift 2 ;;
	--fill) fill=${2:?}; shift 2 ;;
	--timeout) limit=${2:?}; shift 2 ;;
	--variants) variants=${2:?}; shift 2 ;;
	--only) only=${2:?}; shift 2 ;;
	--bin) bins+=("${2:?}"); shift 2 ;;
	--no-sustained) sustained=0; shift ;;
	--sustained-secs) ssecs=${2:?}; shift 2 ;;
	--no-icount) icount=0; shift ;;
	--bpf-stats) bpfstats=1; shift ;;
	--smp) smp=${2:?}; shift 2 ;;
	--no-isolate) isolate=0; shift ;;
	--append) append=${2:?}; shift 2 ;;
	-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
# Default: untraced, pdtrace, each --bin (make bench gives the floor), --dput, bpftrace.
if [ -z "$variants" ]; then
	variants=base,pdt
	for b in ${bins[@]+"${bins[@]}"}; do variants=$variants,${b%%=*}; done
	variants=$variants,dput,bt
fi

[ -x "$build/pdtrace" ] || die "$build/pdtrace is missing: run make first"
[ -x "$out/pdtbench" ] || die "$out/pdtbench is missing: run make bench"
if ! command -v mmdebstrap >/dev/null; then
	echo "bench: installing mmdebstrap" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null ||
		die "cannot install mmdebstrap"
fi

case $smp in
'' | *[!0-9]* | 0) die "--smp $smp: not a number of CPUs" ;;
esac
# The vCPUs past the first, free of housekeeping (see above).
iso=
if [ "$isolate" = 1 ] && [ "$smp" -gt 1 ]; then
	cpus=1-$((smp - 1))
	[ "$smp" -gt 2 ] || cpus=1
	iso="isolcpus=$cpus nohz_full=$cpus rcu_nocbs=$cpus irqaffinity=0"
fi

kdir=$("$top/tests/vm/fetch-kernel.sh") || die "cannot get Debian's packaged kernel"
ver=$(cat "$kdir/VERSION")
root=$("$top/tests/bench/mkroot.sh" "$ver") || die "cannot make the sid root"

# Modules with their dependencies, in load order, decompressed into the initramfs.
# Debian's package has no modules.dep: make one in a scratch tree.
add_modules() { # initramfs-root names...
	local r=$1; shift
	local tmp=$out/modroot m f dep
	rm -rf "$tmp"
	mkdir -p "$tmp/lib/modules" "$r/lib/modules"
	ln -s "$(readlink -f "$kdir/modules")" "$tmp/lib/modules/$ver"
	depmod -b "$tmp" "$ver" 2>/dev/null || die "depmod failed"
	: >"$r/lib/modules/load-order"
	for m in "$@"; do
		modprobe -d "$tmp" -S "$ver" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" { print $2 }' |
			while read -r f; do
				dep=$(basename "$f"); dep=${dep%.xz}; dep=${dep%.zst}
				grep -qx "$dep" "$r/lib/modules/load-order" && continue
				case "$f" in
				*.xz) xz -dc "$f" >"$r/lib/modules/$dep" ;;
				*.zst) zstd -dcq "$f" >"$r/lib/modules/$dep" ;;
				*) cp "$f" "$r/lib/modules/$dep" ;;
				esac
				echo "$dep" >>"$r/lib/modules/load-order"
			done
		grep -q "^${m//-/_}.ko$\|^$m.ko$" "$r/lib/modules/load-order" || die "module '$m' not found"
	done
	rm -rf "$tmp"
}

build_guest() {
	local r=$out/initramfs s=$out/share
	rm -rf "$r" "$s"
	mkdir -p "$r/bin" "$s"
	cp /bin/busybox "$r/bin/busybox"
	cp "$top/tests/bench/guest-init" "$r/init"
	chmod +x "$r/init"
	# 9p for the root; configfs + nvmet for the configfs benchmark.
	add_modules "$r" netfs 9pnet 9pnet_virtio 9p configfs nvmet
	(cd "$r" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out/initrd.gz"
	cp "$build/pdtrace" "$out/pdtbench" "$top/tests/bench/guest.sh" "$top/tests/bench/pdtrace.bt" "$s/"
	local b
	for b in ${bins[@]+"${bins[@]}"}; do
		[ -x "${b#*=}" ] || die "--bin $b: no such binary"
		cp "${b#*=}" "$s/pdtrace.${b%%=*}"
	done
	cat >"$s/params" <<EOP
sustained=$sustained
bpfstats=$bpfstats
ssecs=$ssecs
rounds=$rounds
secs=$secs
fill=$fill
variants="${variants//,/ }"
only="${only//,/ }"
EOP
}

boot() {
	local t=$limit
	# Budget: every run of every variant, plus tracer start-ups and the fills.
	# Budget: with -icount a guest second is about 10 host seconds here.
	local nv
	nv=$(echo "${variants//,/ }" | wc -w)
	[ "$t" -gt 0 ] || t=$(awk -v r="$rounds" -v s="$secs" -v f="$fill" -v n="$nv" \
		'BEGIN { printf "%d", 900 + r * n * (15 * 10 * s + 60 + f / 200) }')
	rm -f "$out/console" "$out/results" "$out/results.log"
	local clock=()
	[ $icount -eq 0 ] || clock=(-icount shift=0,sleep=off)
	echo "bench: booting $ver (tcg, $smp vCPUs${iso:+, those past the first isolated}$([ $icount -eq 0 ] || echo ", icount")), up to ${t}s; console in $out/console" >&2
	: >"$out/results"
	timeout --kill-after=10 "$t" qemu-system-x86_64 \
		-accel tcg,thread=single "${clock[@]}" -cpu max -m 2048 -smp "$smp" -no-reboot \
		-display none -monitor none -nodefaults \
		-serial "file:$out/console" -serial "file:$out/results" \
		-virtfs "local,path=$root,mount_tag=broot,security_model=none,readonly=on" \
		-virtfs "local,path=$out/share,mount_tag=bshare,security_model=none" \
		-kernel "$kdir/vmlinuz" -initrd "$out/initrd.gz" \
		-append "console=ttyS0 panic=-1 oops=panic quiet $rcu${iso:+ $iso}${append:+ $append}" \
		</dev/null >/dev/null 2>"$out/qemu.log" &
	local qpid=$! t0
	t0=$(date +%s)
	# Host time of every result line as it arrives (results.log: seconds since the
	# boot started, then the line; the same on the terminal): where the wall time goes.
	tail -n +1 -s 1 -F --pid=$qpid "$out/results" 2>/dev/null | while IFS= read -r l; do
		printf '%5d %s\n' "$(($(date +%s) - t0))" "${l%$'\r'}"
	done | tee "$out/results.log" | sed -u 's/^/bench: /' >&2 &
	local logger=$!
	wait $qpid || true
	wait $logger || true
	[ -f "$out/results" ] && sed -i 's/\r$//' "$out/results"
	grep -q '^@@B BOOTED' "$out/results" 2>/dev/null || die "the guest never reached init (see $out/console)"
	grep -q '^@@B DONE' "$out/results" || die "the guest did not finish: hung, crashed or timed out (see $out/console, $out/results)"
}

mkdir -p "$out"
start=$(date +%s)
build_guest
boot
end=$(date +%s)
"$top/tests/bench/report.sh" "$out/results" "$build/bench.json" "$((end - start))" "$ver"
