#!/usr/bin/env bash
# The hunt's table, from what the guest sent (tests/hunt/run.sh's boots/*.results):
# per module, the entries made and removed (discarded, or unpinned by an umount) during
# its turn (its load, exercise and unload, and what followed before the next turn), on
# which filesystems, its findings
# by rule, its time, and what became of it; then the totals.
#
# Usage: tests/hunt/report.sh HUNT_DIR     (build/hunt)
# Writes HUNT_DIR/table.md (every module tried), HUNT_DIR/table-notable.md (those with
# entries or findings, or that did not unload or crashed the guest), HUNT_DIR/findings.tsv (one line per
# finding: module, phase, kind, rule, fs type, path, signature, the JSON object),
# HUNT_DIR/notes.txt (what the guest noted per module) and HUNT_DIR/summary.txt, and
# prints the summary. Findings are triaged by tests/hunt/triage.tsv: one line per bug,
# RULE MODULE PATH-PATTERN VERDICT WHERE (tab-separated; the pattern a shell glob on the
# finding's path; VERDICT kernel or pdtrace; WHERE the section of docs/hunt.md).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?hunt directory}
triage=$top/tests/hunt/triage.tsv

# One stream of every boot in order; awk keeps the books. A marker (a persist on the
# guest's marker tmpfs) starts a phase: IDX.pre (dependencies, helpers), IDX.b (the
# module's turn), IDX.e (after it, until the next). Events on the guest's own tmpfs
# superblocks are not counted.
parse() {
	local f
	: >"$dir/findings.tsv"
	: >"$dir/notes.txt"
	: >"$dir/rows.tsv"
	for f in $(ls "$dir"/boots/boot-*.results | sort -t- -k2,2n); do
		echo "@boot $(basename "$f" .results)"
		cat "$f"
	done | awk -v findings="$dir/findings.tsv" -v notes="$dir/notes.txt" -v rows="$dir/rows.tsv" \
		-v crashed="$dir/crashed" '
		function field(s, k,   m) {
			if (!match(s, "\"" k "\":\"([^\"\\\\]|\\\\.)*\"")) return ""
			m = substr(s, RSTART + length(k) + 4, RLENGTH - length(k) - 5)
			return m
		}
		function dash(s) { return s == "" ? "-" : s }
		# run.sh: "IDX NAME BOOT HOW", HOW crashed or hung.
		BEGIN { while ((getline l < crashed) > 0) { split(l, a, " "); how[a[1]] = a[4] == "" ? "crashed" : a[4] } }
		$1 == "@boot" { boot = $2; idx = 0; phase = "pre"; delete skip; next }
		$1 == "@hunt" && $2 == "boot" { for (i = 4; i <= NF; i++) skip[$i] = 1; mark = $NF; next }
		$1 == "@hunt" && $2 == "begin" { name[$3] = $4; bootof[$3] = boot; next }
		$1 == "@hunt" && $2 == "end" {
			for (i = 5; i <= NF; i++) { split($i, kv, "="); st[$3, kv[1]] = kv[2] }
			ended[$3] = 1; next
		}
		$1 == "@hunt" && ($2 == "note" || $2 == "kmsg") {
			n = $3; l = $0; sub(/^@hunt [a-z]+ [0-9]+ /, "", l)
			print n "\t" (n in name ? name[n] : "-") "\t" $2 "\t" l > notes; next
		}
		/^\{"event":/ {
			ev = field($0, "event"); dev = field($0, "dev")
			if (dev == mark && ev == "persist") {
				p = field($0, "path"); sub(/^\//, "", p); split(p, a, ".")
				idx = a[1]; phase = a[2]; next
			}
			if (dev in skip) next
			fs = field($0, "fs_type")
			if (fs == "") fs = fsof[dev]; else fsof[dev] = fs
			k = phase == "pre" ? "pre" : idx
			if (phase == "pre") predeps[idx, ev]++
			else {
				cnt[idx, ev]++; if (phase == "e") late[idx]++
				if (ev == "persist") fsc[idx, fs, "made"]++
				if (ev == "discard" || ev == "unpin") fsc[idx, fs, "removed"]++
				if (!((idx, fs) in seenfs)) { seenfs[idx, fs] = 1; fss[idx] = fss[idx] " " fs }
			}
			next
		}
		/^\{"kind":/ {
			n = idx
			fk = field($0, "kind"); fr = field($0, "rule")
			nf[n]++; nfr[n, fr]++
			print n "\t" (n in name ? name[n] : "-") "\t" phase "\t" fk "\t" fr "\t" field($0, "fs_type") "\t" \
				field($0, "path") "\t" field($0, "signature") "\t" $0 > findings
			next
		}
		END {
			for (n in name) {
				m = cnt[n, "persist"] + 0; d = cnt[n, "discard"] + cnt[n, "unpin"]
				where = ""
				nfs = split(substr(fss[n], 2), f, " ")
				for (i = 1; i <= nfs; i++)
					if (fsc[n, f[i], "made"] + fsc[n, f[i], "removed"] > 0)
						where = where (where == "" ? "" : ", ") f[i] " " fsc[n, f[i], "made"] + 0 "/" fsc[n, f[i], "removed"] + 0
				# No empty field: read(1) would merge the tabs around it.
				print n "\t" name[n] "\t" bootof[n] "\t" (n in ended ? "ended" : (n in how ? how[n] : "cut")) "\t" dash(st[n, "load"]) "\t" \
					dash(st[n, "unload"]) "\t" m "\t" d "\t" cnt[n, "unpin"] + 0 "\t" cnt[n, "eaten"] + 0 "\t" late[n] + 0 "\t" \
					nf[n] + 0 "\t" dash(st[n, "cs"]) "\t" dash(where) > rows
			}
		}'
}

# The triage of a finding: the verdict of the first line of triage.tsv that matches its
# rule, module and path; "untriaged" when none does.
verdict() { # rule module path
	local r m g v
	while IFS=$'\t' read -r r m g v _; do
		case "$r" in ''|'#'*) continue ;; esac
		# shellcheck disable=SC2053
		[ "$r" = "$1" ] && [ "$m" = "$2" ] && [[ $3 == $g ]] && { echo "$v"; return; }
	done <"$triage"
	echo untriaged
}

status_of() { # ended load unload
	if [ "$1" = crashed ]; then echo "crashed the guest"
	elif [ "$1" = hung ]; then echo "hung the guest"
	elif [ "$1" = cut ]; then echo "cut short by the boot's end"
	elif [ "$2" != 0 ]; then echo "did not load"
	elif [ "$3" != 0 ]; then echo "did not unload"
	else echo "loaded, unloaded"
	fi
}

# The table of every module tried; with "notable", of those whose turn made or removed
# entries, had findings, did not unload or crashed the guest.
table() { # [notable]
	echo "| # | module | made | removed | where (made/removed) | findings | time (s) | outcome |"
	echo "|---|---|---|---|---|---|---|---|"
	sort -n "$dir/rows.tsv" | while IFS=$'\t' read -r n m _ end l u made disc _ _ _ nfind cs where; do
		if [ "${1:-}" = notable ] && [ $((made + disc + nfind)) -eq 0 ] && [ "$end" = ended ] &&
			{ [ "$l" != 0 ] || [ "$u" = 0 ]; }; then
			continue
		fi
		printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$m" "$made" "$disc" "$where" "$nfind" \
			"$([ "$cs" != - ] && awk -v c="$cs" 'BEGIN { printf "%.1f", c / 100 }' || echo -)" "$(status_of "$end" "$l" "$u")"
	done
}

summary() {
	local r=$dir/rows.tsv f=$dir/findings.tsv s
	s=$(cat "$dir/seconds" 2>/dev/null || echo "?")
	echo "modules to hunt: $(wc -l <"$dir/list") (select.sh selects $(wc -l <"$dir/select/modules.tsv") of the package's $(wc -l <"$dir/select/all"))"
	echo "modules tried: $(wc -l <"$r") in $(ls "$dir"/boots/boot-*.results | wc -l) boots, ${s}s"
	echo "  loaded: $(awk -F'\t' '$5 == 0' "$r" | wc -l)"
	echo "  did not load: $(awk -F'\t' '$4 == "ended" && $5 != 0' "$r" | wc -l)"
	echo "  did not unload: $(awk -F'\t' '$5 == 0 && $6 != 0' "$r" | wc -l)"
	echo "  crashed the guest: $(awk -F'\t' '$4 == "crashed"' "$r" | wc -l)"
	echo "  hung the guest: $(awk -F'\t' '$4 == "hung"' "$r" | wc -l)"
	echo "  with entries (made or removed in their turn): $(awk -F'\t' '$7 + $8 > 0' "$r" | wc -l)"
	echo "entries made: $(awk -F'\t' '{ s += $7 } END { print s + 0 }' "$r"), removed: $(awk -F'\t' '{ s += $8 } END { print s + 0 }' "$r")"
	echo "findings: $(wc -l <"$f")"
	cut -f4,5 "$f" | sort | uniq -c | awk '{ printf "  %s/%s: %d\n", $2, $3, $1 }'
	echo "distinct signatures: $(cut -f8 "$f" | sort -u | grep -c . || true)"
	local m rule path v
	while IFS=$'\t' read -r _ m _ _ rule _ path _; do
		verdict "$rule" "$m" "$path"
	done <"$f" | sort | uniq -c | awk '{ printf "triaged as %s: %d findings\n", $2, $1 }'
	echo "modules with findings: $(cut -f2 "$f" | sort -u | tr '\n' ' ' | grep . || echo none)"
}

parse
table >"$dir/table.md"
table notable >"$dir/table-notable.md"
summary | tee "$dir/summary.txt"
