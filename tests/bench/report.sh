#!/usr/bin/env bash
# Turn the guest's result lines (see tests/bench/guest.sh) into the table on the
# terminal and build/bench.json: medians of ops/s per benchmark and variant, and
# their ratios to the untraced run.
# Usage: report.sh RESULTS JSON RUNTIME_SECONDS KERNELVER
set -euo pipefail
res=$1 json=$2 runtime=$3 kver=$4

awk -v json="$json" -v runtime="$runtime" -v kver="$kver" '
{ sub(/\r$/, "") }
function median(s,   n, a, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	if (n == 0) return ""
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function jlist(s,   n, a, i, o) { n = split(s, a, " "); o = ""; for (i = 1; i <= n; i++) o = o (i > 1 ? "," : "") a[i]; return "[" o "]" }
function add(arr, k, v) { arr[k] = (k in arr) ? arr[k] " " v : v }
function seen(list, x) { return index(" " list " ", " " x " ") > 0 }
$1 == "@@I" && $2 == "params" { for (i = 3; i <= NF; i++) { split($i, kv, "="); k = kv[1]; param[k] = kv[2] }
	# variants=a b c: the words after it, up to the next key=value
	for (i = 3; i <= NF; i++) if ($i ~ /^variants=/) { param["variants"] = substr($i, 10); for (j = i + 1; j <= NF && $j !~ /=/; j++) param["variants"] = param["variants"] " " $j } }
$1 == "@@R" && $6 > 0 {
	add(ops, $2 SUBSEP $3, sprintf("%.1f", $5 / $6))
	if (!seen(benches, $2)) benches = benches " " $2
	if (!seen(variants, $3)) variants = variants " " $3
}
$1 == "@@R" && $5 > 0 { nops[$2, $3, $4] = $5
	if (NF >= 8) { add(bu, $2 SUBSEP $3, sprintf("%.3f", $7 / $5)); add(bs, $2 SUBSEP $3, sprintf("%.3f", $8 / $5)) } }
$1 == "@@I" && $2 == "clk_tck" { clk = $3 }
$1 == "@@C" { tc_u[$2, $3, $4] = $5; tc_s[$2, $3, $4] = $6
	if (NF >= 10) { tc_ns[$2, $3, $4] = $7; tc_flt[$2, $3, $4] = $8; tc_bns[$2, $3, $4] = $9; tc_bcnt[$2, $3, $4] = $10; if ($10 > 0) bpfstats = 1 } }
$1 == "@@PROG" { pk = $2 SUBSEP $4; if (!(pk in pns)) porder[++np] = pk; pns[pk] += $5; pcnt[pk] += $6 }
$1 == "@@A" { add(attach, $2, $4) }
$1 == "@@VI" { vi_tot[$2] += $4; vi[$2] = vi[$2] (vi[$2] == "" ? "" : ",") "{\"program\":\"" $3 "\",\"insns\":" $4 "}" }
$1 == "@@I" && $2 == "settle" { add(settle, $4, $5) }
$1 == "@@M" { add(rss, $2, $4); add(hwm, $2, $5) }
$1 == "@@MAP" { maps[$2] = maps[$2] (maps[$2] == "" ? "" : ",") sprintf("{\"type\":%d,\"key_size\":%d,\"value_size\":%d,\"max_entries\":%d,\"memlock\":%d}", $3, $4, $5, $6, $7)
	mtot[$2] += $7 }
$1 == "@@U" && $6 > 0 { add(ubytes, $2, sprintf("%.0f", ($5 - $4) * 1024 / $6)) }
$1 == "@@L" { lost[$2] += $4; lostseen[$2] = 1 }
$1 == "@@E" { ne++; e_name[ne] = $2; e_ops[ne] = $3; e_secs[ne] = $4; e_ev[ne] = $5; e_lost[ne] = $6 }
$1 == "@@W" { print "bench: warning: " substr($0, 5) > "/dev/stderr" }
END {
	# Variants in the order the guest ran them, the untraced one first.
	nv = split("base " param["variants"], vo, " ")
	nv2 = 0
	for (v = 1; v <= nv; v++) if (v == 1 || vo[v] != "base") vorder[++nv2] = vo[v]
	nv = nv2
	for (v = 1; v <= nv; v++) label[vorder[v]] = vorder[v]
	label["base"] = "untraced"; label["pdt"] = "pdtrace"; label["dput"] = "--dput"; label["bt"] = "bpftrace"; label["floor"] = "empty programs"; label["stream"] = "bare events"; label["stacks"] = "creation stacks"
	nb = split(benches, border, " ")
	printf "\n%-14s", "ops/s (median)"
	for (v = 1; v <= nv; v++) if (seen(variants, vorder[v])) printf " %20s", label[vorder[v]]
	printf "\n"
	J = "{\"kernel\":\"" kver "\",\"runtime_s\":" runtime ",\"rounds\":" (param["rounds"] + 0) ",\"secs\":" (param["secs"] + 0) ",\"sustained_secs\":" (param["ssecs"] + 0) ",\"fill\":" (param["fill"] + 0)
	J = J ",\"variants\":{\"base\":\"untraced\",\"pdt\":\"pdtrace trace\",\"dput\":\"pdtrace trace --dput\",\"bt\":\"bpftrace tests/bench/pdtrace.bt\",\"other\":\"pdtrace.NAME trace (run.sh --bin)\"}"
	J = J ",\"benchmarks\":{"
	for (b = 1; b <= nb; b++) {
		bn = border[b]
		base = median(ops[bn, "base"])
		printf "%-14s", bn
		J = J (b > 1 ? "," : "") "\"" bn "\":{"
		first = 1
		for (v = 1; v <= nv; v++) {
			vn = vorder[v]
			if (!seen(variants, vn)) continue
			m = median(ops[bn, vn])
			if (m == "") { printf " %20s", "-"; continue }
			r = (base != "" && base > 0) ? m / base : ""
			if (vn == "base" || r == "") printf " %20.0f", m
			else printf " %11.0f (%+5.1f%%)", m, (r - 1) * 100
			J = J (first ? "" : ",") "\"" vn "\":{\"ops_per_s\":" jlist(ops[bn, vn]) ",\"median\":" m
			if (r != "") J = J ",\"ratio_to_untraced\":" sprintf("%.4f", r)
			J = J "}"
			first = 0
		}
		printf "\n"
		J = J "}"
	}
	J = J "}"
	# CPU time per operation, in guest microseconds (1 us = 1000 instructions under
	# icount): the processes of the benchmark (their system time includes the BPF
	# programs) and the tracer process, user + system, medians of the rounds.
	if (clk == "") clk = 100
	nvs = split(variants, vlist, " ")
	for (b = 1; b <= nb; b++) for (v = 1; v <= nvs; v++) for (r = 1; r <= param["rounds"]; r++) {
		bn = border[b]; vn = vlist[v]
		if (!((bn, vn, r) in tc_u) || !((bn, vn, r) in nops)) continue
		add(tu, bn SUBSEP vn, sprintf("%.3f", tc_u[bn, vn, r] * 1e6 / clk / nops[bn, vn, r]))
		add(ts, bn SUBSEP vn, sprintf("%.3f", tc_s[bn, vn, r] * 1e6 / clk / nops[bn, vn, r]))
		if (!((bn, vn, r) in tc_ns)) continue
		add(tns, bn SUBSEP vn, sprintf("%.3f", tc_ns[bn, vn, r] / 1000 / nops[bn, vn, r]))
		add(tflt, bn SUBSEP vn, sprintf("%.4f", tc_flt[bn, vn, r] / nops[bn, vn, r]))
		add(tbns, bn SUBSEP vn, sprintf("%.3f", tc_bns[bn, vn, r] / 1000 / nops[bn, vn, r]))
		add(tbcnt, bn SUBSEP vn, sprintf("%.3f", tc_bcnt[bn, vn, r] / nops[bn, vn, r]))
	}
	printf "\nCPU time per operation, guest us (medians): benchmark user+sys|tracer user+sys\n%-14s", ""
	for (v = 1; v <= nv; v++) if (seen(variants, vorder[v])) printf " %24s", label[vorder[v]]
	printf "\n"
	J = J ",\"cpu_us_per_op\":{"
	for (b = 1; b <= nb; b++) {
		bn = border[b]
		printf "%-14s", bn
		J = J (b > 1 ? "," : "") "\"" bn "\":{"
		first = 1
		for (v = 1; v <= nv; v++) {
			vn = vorder[v]
			if (!seen(variants, vn)) continue
			u = median(bu[bn, vn]); sy = median(bs[bn, vn]); x = median(tu[bn, vn]); y = median(ts[bn, vn])
			cell = (u == "" ? "-" : sprintf("%.2f+%.2f", u, sy))
			if (x != "") cell = cell sprintf("|%.2f+%.2f", x, y)
			printf " %24s", cell
			if (u == "" && x == "") continue
			J = J (first ? "" : ",") "\"" vn "\":{"
			if (u != "") J = J "\"bench_user\":" jlist(bu[bn, vn]) ",\"bench_sys\":" jlist(bs[bn, vn]) ",\"bench_user_median\":" u ",\"bench_sys_median\":" sy
			if (x != "") J = J (u != "" ? "," : "") "\"tracer_user\":" jlist(tu[bn, vn]) ",\"tracer_sys\":" jlist(ts[bn, vn]) ",\"tracer_user_median\":" x ",\"tracer_sys_median\":" y
			J = J "}"
			first = 0
		}
		printf "\n"
		J = J "}"
	}
	J = J "}"
	# The tracer per operation, precisely: on a CPU (schedstat ns), minor faults;
	# with --bpf-stats, its BPF programs (run_time_ns) and their runs.
	if (length(tns) > 0) {
		printf "\nTracer per operation (medians): us on a CPU, minor faults%s\n%-14s", bpfstats ? " | its BPF programs: us, runs (bpf_stats on)" : "", ""
		for (v = 2; v <= nv; v++) if (seen(variants, vorder[v])) printf " %24s", label[vorder[v]]
		printf "\n"
	}
	J = J ",\"tracer_per_op\":{"
	fb = 1
	for (b = 1; b <= nb && length(tns) > 0; b++) {
		bn = border[b]
		printf "%-14s", bn
		first = 1
		for (v = 2; v <= nv; v++) {
			vn = vorder[v]
			if (!seen(variants, vn)) continue
			x = median(tns[bn, vn])
			if (x == "") { printf " %24s", "-"; continue }
			cell = sprintf("%.2f %.3f", x, median(tflt[bn, vn]))
			if (bpfstats) cell = cell sprintf(" | %.2f %.1f", median(tbns[bn, vn]), median(tbcnt[bn, vn]))
			printf " %24s", cell
			if (first) J = J (fb ? "" : ",") "\"" bn "\":{"
			J = J (first ? "" : ",") "\"" vn "\":{\"cpu_us\":" jlist(tns[bn, vn]) ",\"cpu_us_median\":" x ",\"minflt\":" jlist(tflt[bn, vn]) ",\"minflt_median\":" median(tflt[bn, vn])
			if (bpfstats) J = J ",\"bpf_us\":" jlist(tbns[bn, vn]) ",\"bpf_us_median\":" median(tbns[bn, vn]) ",\"bpf_runs\":" jlist(tbcnt[bn, vn]) ",\"bpf_runs_median\":" median(tbcnt[bn, vn])
			J = J "}"
			first = 0; fb = 0
		}
		if (!first) J = J "}"
		printf "\n"
	}
	J = J "},\"bpf_stats\":" (bpfstats ? "true" : "false")
	# run.sh --bpf-stats: every BPF program of the tracers, all rounds together.
	if (np > 0) printf "\nBPF programs, all rounds (bpf_stats on): %-28s %10s %12s\n", "", "ns/run", "runs"
	J = J ",\"bpf_programs\":["
	for (i = 1; i <= np; i++) {
		split(porder[i], pp, SUBSEP)
		printf "  %-12s %-52s %10.0f %12d\n", label[pp[1]], pp[2], (pcnt[porder[i]] > 0 ? pns[porder[i]] / pcnt[porder[i]] : 0), pcnt[porder[i]]
		J = J (i > 1 ? "," : "") "{\"variant\":\"" pp[1] "\",\"program\":\"" pp[2] "\",\"run_time_ns\":" pns[porder[i]] ",\"runs\":" pcnt[porder[i]] "}"
	}
	J = J "]"
	printf "\n%-28s", ""
	for (v = 2; v <= nv; v++) if (seen(variants, vorder[v])) printf " %14s", label[vorder[v]]
	printf "\n"
	line("start to attached (ms)", attach, "attach_ms")
	# What the verifier checked at start, every program together (round 1).
	printf "%-28s", "verified instructions"
	J = J ",\"verified_insns\":{"
	first = 1
	for (v = 2; v <= nv; v++) {
		vn = vorder[v]; if (!seen(variants, vn)) continue
		printf " %14s", (vn in vi_tot) ? vi_tot[vn] : "-"
		if (vn in vi_tot) { J = J (first ? "" : ",") "\"" vn "\":{\"total\":" vi_tot[vn] ",\"programs\":[" vi[vn] "]}"; first = 0 }
	}
	printf "\n"
	J = J "}"
	line("stop to idle CPUs (ms)", settle, "settle_ms")
	line("tracer RSS at end (KiB)", rss, "rss_kb")
	line("tracer peak RSS (KiB)", hwm, "peak_rss_kb")
	line("user bytes/tracked dentry", ubytes, "user_bytes_per_dentry")
	# Every BPF map of the tracer, as the kernel charges it (fdinfo memlock).
	printf "%-28s", "BPF maps memlock (KiB)"
	J = J ",\"bpf_memlock_bytes\":{"
	first = 1
	for (v = 2; v <= nv; v++) {
		vn = vorder[v]; if (!seen(variants, vn)) continue
		if (mtot[vn]) {
			printf " %14.0f", mtot[vn] / 1024
			J = J (first ? "" : ",") "\"" vn "\":" mtot[vn]
			first = 0
		} else printf " %14s", "-"
	}
	printf "\n"
	J = J "},\"maps\":{"
	first = 1
	for (vn in maps) { J = J (first ? "" : ",") "\"" vn "\":[" maps[vn] "]"; first = 0 }
	J = J "},\"lost_events\":{"
	first = 1
	for (vn in lostseen) { J = J (first ? "" : ",") "\"" vn "\":" lost[vn]; first = 0 }
	J = J "},\"sustained\":["
	printf "%-28s", "lost events (all rounds)"
	for (v = 2; v <= nv; v++) { vn = vorder[v]; if (!seen(variants, vn)) continue; printf " %14s", (vn in lostseen) ? lost[vn] : "-" }
	printf "\n\n"
	for (i = 1; i <= ne; i++) {
		eps = e_secs[i] > 0 ? e_ev[i] / e_secs[i] : 0
		printf "pdtrace check, %-9s %8.0f ops/s, %8.0f events/s, lost %s\n", e_name[i] ":", (e_secs[i] > 0 ? e_ops[i] / e_secs[i] : 0), eps, e_lost[i]
		J = J (i > 1 ? "," : "") "{\"workload\":\"" e_name[i] "\",\"ops\":" e_ops[i] ",\"secs\":" e_secs[i] ",\"events\":" e_ev[i] ",\"events_per_s\":" sprintf("%.1f", eps) ",\"lost_events\":" (e_lost[i] == "?" ? "null" : e_lost[i]) "}"
	}
	J = J "]}"
	print J > json
	printf "\nmake bench: %d s in all; figures in %s\n", runtime, json
}
function line(title, arr, key,   v, vn, m, first) {
	printf "%-28s", title
	J = J ",\"" key "\":{"
	first = 1
	for (v = 2; v <= nv; v++) {
		vn = vorder[v]; if (!seen(variants, vn)) continue
		m = median(arr[vn])
		printf " %14s", m == "" ? "-" : m
		if (m != "") { J = J (first ? "" : ",") "\"" vn "\":{\"runs\":" jlist(arr[vn]) ",\"median\":" m "}"; first = 0 }
	}
	printf "\n"
	J = J "}"
}
' "$res"
