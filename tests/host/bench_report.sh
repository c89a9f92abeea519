#!/usr/bin/env bash
# Host tests of make bench's report (tests/bench/report.sh): the guest's result lines of a
# made-up run in, the table and build/bench.json out. Medians, ratios, programs of the same
# code counted together, the wait for idle CPUs after a tracer stops, warnings. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Three rounds of create-1: untraced 100, 110, 90 ops in 1 s (median 100); pdtrace 90, 95, 80
# (median 90: -10%). pdtrace's programs: one name over two rounds, and the two LSM marks that
# are the same code under their joined name, in two fds of one round. What the verifier
# checked at start, program by program (round 1): 900 instructions in all.
cat >"$tmp/results" <<'EOF'
@@I params rounds=3 secs=1 ssecs=2 fill=10 variants=base pdt
@@I clk_tck 100
@@R create-1 base 1 100 1.0 0 0
@@R create-1 pdt 1 90 1.0 0 0
@@A pdt 1 1300
@@VI pdt dispatch_entry 600
@@VI pdt lsm_inode_rmdir/lsm_inode_unlink 150
@@VI pdt lsm_inode_rmdir/lsm_inode_unlink 150
@@PROG pdt 1 dispatch_entry 3000 10
@@PROG pdt 1 lsm_inode_rmdir/lsm_inode_unlink 500 5
@@PROG pdt 1 lsm_inode_rmdir/lsm_inode_unlink 700 5
@@I settle 1 base 200
@@I settle 1 pdt 400
@@R create-1 base 2 110 1.0 0 0
@@R create-1 pdt 2 95 1.0 0 0
@@A pdt 2 1200
@@PROG pdt 2 dispatch_entry 1000 10
@@I settle 2 pdt 200
@@W round 2 pdt: the CPUs were still busy 10 s after the tracer stopped
@@R create-1 base 3 90 1.0 0 0
@@R create-1 pdt 3 80 1.0 0 0
@@A pdt 3 1250
@@I settle 3 pdt 1600
EOF
"$top/tests/bench/report.sh" "$tmp/results" "$tmp/bench.json" 12 7.2.13 >"$tmp/out" 2>"$tmp/err"
check $? "report.sh exits 0" "$(cat "$tmp/err")"

has() { # NAME ERE FILE
	if grep -Eq -- "$2" "$3"; then ok "$1"; else not_ok "$1: no line matching '$2' in:" "$(cat "$3")"; fi
}
has "the medians and the change against untraced" '^create-1 +100 +90 \(-10\.0%\)$' "$tmp/out"
has "start to attached: the median of the rounds" '^start to attached \(ms\) +1250$' "$tmp/out"
has "verified instructions: every program's summed" '^verified instructions +900$' "$tmp/out"
has "bench.json: verified instructions, in all and program by program" \
	'"verified_insns":\{"pdt":\{"total":900,"programs":\[\{"program":"dispatch_entry","insns":600\},\{"program":"lsm_inode_rmdir/lsm_inode_unlink","insns":150\},' \
	"$tmp/bench.json"
has "stop to idle CPUs: the median of the rounds" '^stop to idle CPUs \(ms\) +400$' "$tmp/out"
has "a program's time per run over all its rounds" '^  pdtrace +dispatch_entry +200 +20$' "$tmp/out"
has "programs of the same code: one line, their runs and time summed" \
	'^  pdtrace +lsm_inode_rmdir/lsm_inode_unlink +120 +10$' "$tmp/out"
has "a guest's warning reaches stderr" \
	'^bench: warning: round 2 pdt: the CPUs were still busy 10 s after the tracer stopped$' "$tmp/err"
has "bench.json: the rounds of the wait for idle CPUs, in order" \
	'"settle_ms":\{"pdt":\{"runs":\[400,200,1600\],"median":400\}\}' "$tmp/bench.json"
has "bench.json: the ratio" '"pdt":\{"ops_per_s":\[90\.0,95\.0,80\.0\],"median":90\.0,"ratio_to_untraced":0\.9000\}' \
	"$tmp/bench.json"
if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/bench.json" 2>"$tmp/jerr"; then
	ok "bench.json is JSON"
else
	not_ok "bench.json is JSON" "$(cat "$tmp/jerr")"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
