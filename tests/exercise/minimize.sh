#!/usr/bin/env bash
# Cut an exerciser run's log down to the operations a finding needs: delta debugging
# (ddmin) over the lines of its replay.sh, each candidate replayed in the VM
# (tests/exercise/run.sh --replay: the lines one after the other, from a fresh boot),
# kept while the same finding signature comes back.
#
# Usage: tests/exercise/minimize.sh [--max-runs N] [--out DIR] REPLAY SIGNATURE
#   REPLAY       a run's replay.sh (build/exercise/seed-N/replay.sh) or any such file
#   SIGNATURE    a line of the run's signatures.txt, or the start of one: pdtrace's
#                16-hex signature, or kernel:... for a WARNING/BUG
#   --max-runs N at most N replays (default 24); the smallest log that still showed the
#                signature is kept either way
#   --out DIR    default build/exercise/min-SIGNATURE
#   --modules 'A B'  more modules in the guest's tree (run.sh --modules)
#   --keep ERE   first try only the setup the log begins with and the lines that match
#                ERE (the finding's interface, e.g. '/dlm/'): one replay that can save
#                most of the cutting; ddmin goes on from there, or from all lines
# Leaves DIR/minimal.sh (the smallest reproducing log so far), DIR/log (each try, its
# size and verdict) and DIR/try-K/ (each replay's run directory).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
max=24 out='' extra='' keep=''

die() { echo "minimize: $*" >&2; exit 2; }
log() { echo "minimize: $*" | tee -a "$out/log" >&2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--max-runs) max=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--modules) extra=${2:?}; shift 2 ;;
	--keep) keep=${2:?}; shift 2 ;;
	-h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || die "usage: minimize.sh [--max-runs N] [--out DIR] [--modules 'A B'] REPLAY SIGNATURE"
src=$1 sig=$2
[ -f "$src" ] || die "no file '$src'"
[ -n "$out" ] || out=$top/build/exercise/min-$(echo "$sig" | tr -c 'A-Za-z0-9_.-' _ | cut -c1-40)
mkdir -p "$out"
out=$(readlink -f "$out")
: >"$out/log"
runs=0

# The lines to cut: every operation (comments and blank lines go).
grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' "$src" >"$out/all.sh" || die "no operations in $src"

# Whether the operations of FILE bring the signature back (one replay).
reproduces() { # file
	local k=$runs
	runs=$((runs + 1))
	"$top/tests/exercise/run.sh" --replay "$1" --out "$out/try-$k" ${extra:+--modules "$extra"} >/dev/null 2>&1 || :
	if grep -q -F -- "$sig" "$out/try-$k/signatures.txt" 2>/dev/null; then
		log "try $k: $(wc -l <"$1") lines: reproduces"
		return 0
	fi
	log "try $k: $(wc -l <"$1") lines: does not"
	return 1
}

# ddmin over the lines of CUT, with BEFORE's lines ahead of each candidate and AFTER's
# behind: n chunks; a half alone (n = 2) or a chunk's complement (n > 2) that still
# reproduces becomes CUT. The setup a run begins with (its leading "setup" and "module.load" lines) is held
# fixed while the operations are cut, so that a chunk tried alone still has it; then the
# setup is cut the same way, the operations held fixed.
ddmin() { # cut before after
	local cut=$1 before=$2 after=$3 n=2 len size i a b mode done_one
	while [ $runs -lt "$max" ]; do
		len=$(wc -l <"$cut")
		[ "$len" -ge 2 ] || break
		[ $n -le "$len" ] || n=$len
		size=$(((len + n - 1) / n))
		done_one=0
		for mode in only without; do
			i=0
			while [ $((i * size)) -lt "$len" ] && [ $runs -lt "$max" ]; do
				a=$((i * size + 1)) b=$(((i + 1) * size))
				i=$((i + 1))
				# With two chunks, a complement is the other chunk, tried already; with
				# more, a chunk alone rarely holds all a finding needs: complements only.
				[ "$mode" = only ] || [ $n -gt 2 ] || continue
				[ "$mode" = without ] || [ $n -eq 2 ] || continue
				if [ "$mode" = only ]; then
					awk -v a="$a" -v b="$b" 'NR >= a && NR <= b' "$cut" >"$out/part.sh"
				else
					awk -v a="$a" -v b="$b" 'NR < a || NR > b' "$cut" >"$out/part.sh"
				fi
				[ -s "$out/part.sh" ] || continue
				cat "$before" "$out/part.sh" "$after" >"$out/cand.sh"
				if reproduces "$out/cand.sh"; then
					cp "$out/part.sh" "$cut"
					cp "$out/cand.sh" "$out/minimal.sh"
					done_one=1
					[ "$mode" = only ] && n=2 || n=$((n > 2 ? n - 1 : 2))
					break 2
				fi
			done
		done
		if [ $done_one -eq 0 ]; then
			[ $n -lt "$len" ] || break
			n=$((n * 2))
		fi
	done
}

cp "$out/all.sh" "$out/cur.sh"
# With --keep, the kept lines first: the whole log of a long run is minutes of replay.
kept=0
if [ -n "$keep" ]; then
	# The setup the log begins with, and the lines that match.
	awk -v re="$keep" '!body && / # (setup|module\.load)$/ { print; next } { body = 1 } $0 ~ re' \
		"$out/cur.sh" >"$out/cand.sh"
	if [ -s "$out/cand.sh" ] && reproduces "$out/cand.sh"; then
		cp "$out/cand.sh" "$out/cur.sh"
		kept=1
	fi
fi
if [ $kept -eq 0 ] && ! reproduces "$out/cur.sh"; then
	log "the whole log, replayed one line after the other, does not bring $sig back: the finding needs the workers' interleaving (or timing); nothing to cut"
	exit 1
fi
cp "$out/cur.sh" "$out/minimal.sh"

awk '!body && / # (setup|module\.load)$/ { print; next } { body = 1 }' "$out/cur.sh" >"$out/setup.sh"
awk '!body && / # (setup|module\.load)$/ { next } { body = 1; print }' "$out/cur.sh" >"$out/ops.sh"
: >"$out/none.sh"
ddmin "$out/ops.sh" "$out/setup.sh" "$out/none.sh"
ddmin "$out/setup.sh" "$out/none.sh" "$out/ops.sh"
log "minimal: $(wc -l <"$out/minimal.sh") of $(wc -l <"$out/all.sh") lines after $runs replays: $out/minimal.sh"
