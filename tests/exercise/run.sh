#!/usr/bin/env bash
# `make exercise`: the stateful random exerciser of the tree-in-dcache interfaces, in the
# VM harness (tests/vm/run.sh, Debian's packaged kernel, software emulation), under one
# `pdtrace trace -f json --dput` (every rule on). The guest side is
# tests/exercise/guest/xr.sh (its header lists the interfaces and their operations).
# A seed repeats a run's choices; the workers' interleaving is the scheduler's.
#
# Usage: tests/exercise/run.sh [--duration S] [--seed N] [--workers W] [--out DIR]
#        tests/exercise/run.sh --replay FILE [--out DIR]
#   --duration S   seconds of random operations in the guest (default 120)
#   --seed N       the PRNG's seed (default 1)
#   --workers W    workers at once (default 2)
#   --replay FILE  run FILE's lines (a run's replay.sh, or a minimized one) one after
#                  the other, no random operations, no setup of its own
#   --out DIR      where the run goes (default build/exercise/seed-N, or .../replay)
#   --modules 'A B' more modules of the package in the guest's tree, for a replay that
#                  loads them
# A run leaves in DIR: replay.sh (every operation, in the order they started: a
# reproducer), findings.json (pdtrace's findings), kmsg.txt (the kernel's complaints),
# signatures.txt (one finding signature a line: pdtrace's, or "kernel:" + the place of a
# WARNING/BUG), summary.txt, and the raw results and console.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
duration=120 seed=1 workers=2 replay='' out='' extra=''

die() { echo "exercise: $*" >&2; exit 2; }
log() { echo "exercise: $*" >&2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--duration) duration=${2:?}; shift 2 ;;
	--seed) seed=${2:?}; shift 2 ;;
	--workers) workers=${2:?}; shift 2 ;;
	--replay) replay=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--modules) extra=${2:?}; shift 2 ;;
	-h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
for v in "$duration" "$seed" "$workers"; do
	case "$v" in ''|*[!0-9]*) die "not a number: '$v'" ;; esac
done
[ -z "$replay" ] || [ -f "$replay" ] || die "no file '$replay'"
[ -n "$out" ] || { [ -n "$replay" ] && out=$top/build/exercise/replay || out=$top/build/exercise/seed-$seed; }
[ -x "$top/build/pdtrace" ] || die "build/pdtrace is missing: run make first"

# The modules the guest loads (xr.sh's XR_MODULES) with their dependencies, from the
# package's tree (compressed: the kernel decompresses them), with its modules.dep.
make_ci() { # ci modules-dir
	local ci=$1 mods=$2 names
	rm -rf "$ci"
	mkdir -p "$ci/xr" "$ci/kmod"
	cp "$top/tests/exercise/guest/xr.sh" "$ci/xr/"
	cp "$mods"/modules.dep "$mods"/modules.alias "$mods"/modules.symbols "$mods"/modules.builtin* "$ci/kmod/" 2>/dev/null || true
	names=$(sed -n 's/^XR_MODULES\(_ONCE\)\{0,1\}="\(.*\)"/\2/p' "$top/tests/exercise/guest/xr.sh")
	names="$names $extra"
	echo "$names" | tr ' ' '\n' | awk -v dep="$mods/modules.dep" '
		BEGIN { while ((getline l < dep) > 0) { split(l, a, ":"); p = a[1]; n = p
			sub(/.*\//, "", n); sub(/\.ko.*/, "", n); gsub(/-/, "_", n); path[n] = p; d[p] = a[2] } }
		$1 != "" { n = $1; gsub(/-/, "_", n); if (!(n in path)) { print "missing " $1 > "/dev/stderr"; next }
		  p = path[n]; print p; k = split(d[p], x, " "); for (i = 1; i <= k; i++) print x[i] }' |
		sort -u | (cd "$mods" && cpio -pdm --quiet "$ci/kmod")
	{
		echo "SEED=$seed"
		echo "DURATION=$duration"
		echo "WORKERS=$workers"
		[ -z "$replay" ] || echo "REPLAY=1"
	} >"$ci/xr/conf"
	[ -z "$replay" ] || cp "$replay" "$ci/xr/replay.sh"
	# The scenario: its timeout covers the operations, the setup and the teardown.
	cat >"$ci/xr-run.sh" <<EOF
# The exerciser's run (tests/exercise/run.sh writes it).
# timeout: $((duration + 900))
. /ci/xr/xr.sh
xr_main
EOF
}

# What the run left: the operations as a replay script, the findings, the kernel's lines.
digest() { # results console
	local res=$1 con=$2
	sed -n 's/^@xr op [0-9]* [0-9]* \([^ ]*\) :: \(.*\)$/\2  # \1/p' "$res" >"$out/replay.sh"
	grep '^{.*"rule"' "$res" >"$out/findings.json" || :
	{ sed -n 's/^@xr kmsg //p' "$res"; grep -E 'WARNING:|BUG:|kernel BUG at|Oops|general protection fault|Kernel panic|KASAN:|UBSAN:' "$con" 2>/dev/null || :; } |
		awk '!seen[$0]++' >"$out/kmsg.txt"
	{
		sed -n 's/.*"rule":"\([^"]*\)".*"signature":"\([0-9a-f]*\)".*/\2 \1/p' "$out/findings.json"
		sed -n 's/.*"signature":"\([0-9a-f]*\)".*"rule":"\([^"]*\)".*/\1 \2/p' "$out/findings.json"
		# The kernel's: the place of a WARNING, the first line of a BUG or an oops.
		# 7.2: "WARNING: FILE:LINE at FUNC+0x.../0x... [MOD], CPU#N: COMM/PID"; older:
		# "WARNING: CPU: N PID: N at FILE:LINE FUNC+0x...".
		sed -n -e 's/^.*WARNING: \([^ ]*:[0-9]*\) at \([^+ ]*\).*/kernel:WARNING:\1:\2/p' \
			-e 's/^.*WARNING: CPU: .* at \([^ ]*\) \([^+ ]*\).*/kernel:WARNING:\1:\2/p' \
			-e 's/^.*\(BUG: [^,]*\).*/kernel:\1/p' -e 's/^.*\(kernel BUG at [^!]*\).*/kernel:\1/p' \
			-e 's/^.*\(general protection fault\).*/kernel:\1/p' -e 's/^.*\(Busy inodes\).*/kernel:\1/p' "$out/kmsg.txt" |
			sed 's/ \{1,\}/_/g'
	} | sort -u >"$out/signatures.txt"
}

summarize() { # seconds
	local res=$out/results ops kinds
	ops=$(grep -c '^@xr op ' "$res" || :)
	kinds=$(sed -n 's/^@xr op [0-9]* [0-9]* \([^ ]*\) :: .*/\1/p' "$res" | sort | uniq -c | sort -rn | awk '{ printf "%s %s, ", $2, $1 }')
	{
		echo "seed: $seed  workers: $workers  duration: ${duration}s  replay: ${replay:-no}"
		echo "wall: $1 s"
		echo "finished: $(grep -q '^@xr done ' "$res" && sed -n 's/^@xr done //p' "$res" | head -n1 || echo no)"
		echo "operations: $ops"
		# Distinct sequences: each worker's operations in threes (KIND KIND KIND).
		echo "distinct operation kinds: $(sed -n 's/^@xr op [0-9]* [0-9]* \([^ ]*\) :: .*/\1/p' "$res" | sort -u | wc -l)"
		echo "distinct 3-sequences per worker: $(awk '$1 == "@xr" && $2 == "op" { w = $3; s = p2[w] " " p1[w] " " $5; p2[w] = p1[w]; p1[w] = $5; if (p2[w] != "") seq[s] = 1 } END { print length(seq) }' "$res")"
		echo "findings: $(wc -l <"$out/findings.json") ($(sed -n 's/.*"rule":"\([^"]*\)".*/\1/p' "$out/findings.json" | sort | uniq -c | awk '{ printf "%s %s ", $2, $1 }'))"
		echo "kernel lines: $(wc -l <"$out/kmsg.txt")"
		echo "coverage lost: $(sed -n 's/.*"coverage_lost":\[\([^]]*\)\].*/\1/p' "$res" | tail -n1)"
		echo "signatures: $(wc -l <"$out/signatures.txt")"
		echo "by kind: ${kinds%, }"
	} >"$out/summary.txt"
}

main() {
	local kdir t0 ci
	kdir=$("$top/tests/vm/fetch-kernel.sh") || die "cannot get Debian's packaged kernel"
	mkdir -p "$out"
	out=$(readlink -f "$out")
	ci=$out/ci
	make_ci "$ci" "$kdir/modules"
	[ -z "$replay" ] || cp "$ci/xr/replay.sh" "$out/input.sh"
	t0=$(date +%s)
	log "seed $seed, $workers workers, ${duration}s${replay:+, replaying $replay} -> $out"
	OUTPUT=$out "$top/tests/vm/run.sh" --timeout 60 --scenarios "$ci" xr-run >"$out/tap" 2>&1 || :
	cp "$out/vm/boot-0.results" "$out/results" 2>/dev/null || : >"$out/results"
	cp "$out/vm/boot-0.console" "$out/console" 2>/dev/null || : >"$out/console"
	digest "$out/results" "$out/console"
	summarize "$(($(date +%s) - t0))"
	cat "$out/summary.txt" >&2
	grep -q '^@xr done ' "$out/results" || log "the run did not finish (see $out/console, $out/tap)"
}

main
