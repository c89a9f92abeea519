#!/usr/bin/env bash
# `make hunt`: load, exercise and unload, under one `pdtrace trace --events -f json --dput` per
# boot, every module of Debian's packaged kernel that touches a tree-in-dcache
# filesystem (tests/hunt/select.sh), in the VM harness (tests/vm/run.sh, software
# emulation), as many per boot as the boot lasts. A module that takes the guest down (a
# panic, a hang the guest's watchdogs turn into one, a stall the host sees) is recorded
# as crashed and the next boot resumes after it. Then the table (tests/hunt/report.sh).
#
# Usage: tests/hunt/run.sh [--only N] [--modules 'NAME...'] [--per-boot N] [--stall S]
#                          [--boot-secs S]
#   --set SET          selected (default): the modules select.sh selects; left-out: the
#                      others (to see that they make no entries when they load); all
#   --only N           the first N modules of the set (a quick run)
#   --modules 'A B'    these modules (with their place in the selection's order)
#   --per-boot N       at most N modules per boot (default 200): a fresh kernel, and what
#                      a module leaves behind stays in its boot
#   --stall S          no output from the guest for S seconds: it hangs (default 240)
#   --crash-test NAME  the guest crashes itself (sysrq c) in NAME's turn, once: to see
#                      that a crash is recorded and the next boot resumes after it
#   --boot-secs S      the guest starts no module after S seconds of uptime (default
#                      1500); the host stops a boot that lasts 300 s more
# Everything is in build/hunt (OUTPUT/hunt): select/, ci/ (the guest's /ci), boots/
# (each boot's results and console), table.md, summary.txt.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUTPUT:-$top/build}/hunt
only=0 pick='' set=selected stall=240 crash_test='' boot_secs=1500 per_boot=200

die() { echo "hunt: $*" >&2; exit 2; }
log() { echo "hunt: $*" >&2; }

while [ $# -gt 0 ]; do
	case "$1" in
	--only) only=${2:?}; shift 2 ;;
	--set) set=${2:?}; shift 2 ;;
	--modules) pick=${2:?}; shift 2 ;;
	--stall) stall=${2:?}; shift 2 ;;
	--boot-secs) boot_secs=${2:?}; shift 2 ;;
	--per-boot) per_boot=${2:?}; shift 2 ;;
	--crash-test) crash_test=${2:?}; shift 2 ;;
	-h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
done

# The modules to hunt, in the selection's order (dependencies first): "NAME PATH".
the_list() {
	local sel=$out/select/$set.tsv
	case "$set" in
	selected) sel=$out/select/modules.tsv ;;
	left-out) ;;
	all) sort -k6,6n -k1,1 -s "$out/select/modules.tsv" "$out/select/left-out.tsv" >"$sel" ;;
	*) die "no set '$set' (selected, left-out, all)" ;;
	esac
	if [ -n "$pick" ]; then
		awk -v p=" $pick " 'index(p, " " $1 " ") { print $1, $2 }' "$sel"
	elif [ "$only" -gt 0 ]; then
		head -n "$only" "$sel" | awk '{ print $1, $2 }'
	else
		awk '{ print $1, $2 }' "$sel"
	fi
}

# Modules the exercises load besides the hunted ones (tests/hunt/guest/exercise.sh:
# hx_helpers_*): they must be in the guest's tree too.
HELPERS="sd_mod nvme-fabrics dummy_hcd libcomposite usb_f_acm usb_f_ecm"

# The guest's /ci: the scenario, its library, and the modules tree (the package's
# compressed files: the kernel decompresses them) holding the hunted modules, the
# helpers and all their dependencies, with the package's modules.dep.
make_ci() { # list
	local ci=$out/ci mods=$1
	rm -rf "$ci"
	mkdir -p "$ci/hunt" "$ci/kmod"
	cp "$top/tests/hunt/guest/campaign.sh" "$ci/"
	cp "$top/tests/hunt/guest/lib.sh" "$top/tests/hunt/guest/exercise.sh" "$ci/hunt/"
	cp "$modules"/modules.dep "$modules"/modules.alias "$modules"/modules.symbols "$ci/kmod/" 2>/dev/null || true
	{ cat "$mods"; echo "$HELPERS" | tr ' ' '\n' | awk -v all="$out/select/all" '
		BEGIN { while ((getline l < all) > 0) { split(l, a, " "); p[a[1]] = a[2] } }
		{ print $1, p[$1] }'; } | awk '{ print $2 }' |
		awk -v dep="$modules/modules.dep" '
			BEGIN { while ((getline l < dep) > 0) { split(l, a, ":"); d[a[1]] = a[2] } }
			{ print $1; n = split(d[$1], x, " "); for (i = 1; i <= n; i++) print x[i] }' |
		sort -u | (cd "$modules" && cpio -pdm --quiet "$ci/kmod")
}

# This boot's list for the guest: "IDX NAME DEP..." (dependencies in load order: the
# reverse of modules.dep's), and the uptime after which it starts no module.
guest_list() { # list from-idx boot-number
	echo "$boot_secs" >"$out/ci/hunt/deadline"
	# The crash test crashes the first boot only.
	[ "$3" = 0 ] && echo "$crash_test" >"$out/ci/hunt/crash" || : >"$out/ci/hunt/crash"
	awk -v from="$2" -v to="$(($2 + per_boot))" -v dep="$modules/modules.dep" '
		BEGIN { while ((getline l < dep) > 0) { split(l, a, ":"); d[a[1]] = a[2] } }
		NR >= from && NR < to {
			n = split(d[$2], x, " "); s = ""
			for (i = n; i >= 1; i--) { m = x[i]; sub(/.*\//, "", m); sub(/\.ko.*/, "", m); s = s " " m }
			print NR, $1 s
		}' "$1" >"$out/ci/hunt/list"
}

# One boot from module index FROM; prints the index to resume at (0 when done).
boot_once() { # list from boot-number
	local list=$1 from=$2 k=$3 res=$out/vm/boot-0.results pid t0 last size lsize=-1 idle=0
	guest_list "$list" "$from" "$k"
	t0=$(date +%s)
	OUTPUT=$out "$top/tests/vm/run.sh" --timeout "$boot_secs" --scenarios "$out/ci" campaign \
		>"$out/boots/boot-$k.tap" 2>&1 &
	pid=$!
	# The host's watchdog: the guest's output must grow; a boot that has lasted its
	# time is ended too (the guest is then mid-module: that module is tried again).
	while kill -0 "$pid" 2>/dev/null; do
		sleep 5
		size=$(stat -c %s "$res" 2>/dev/null || echo 0)
		if [ "$size" != "$lsize" ]; then lsize=$size idle=0; else idle=$((idle + 5)); fi
		if [ $idle -ge "$stall" ] || [ $(($(date +%s) - t0)) -ge $((boot_secs + 300)) ]; then
			[ $idle -ge "$stall" ] && log "boot $k: no output for ${stall}s, stopping it" ||
				log "boot $k: $((boot_secs + 300))s are up, stopping it"
			echo "$([ $idle -ge "$stall" ] && echo stall || echo time)" >"$out/boots/boot-$k.stopped"
			stop_qemu "$pid"
			break
		fi
	done
	wait "$pid" || true
	cp "$res" "$out/boots/boot-$k.results" 2>/dev/null || : >"$out/boots/boot-$k.results"
	cp "$out/vm/boot-0.console" "$out/boots/boot-$k.console" 2>/dev/null || true
	log "boot $k: $(grep -c '^@hunt end ' "$out/boots/boot-$k.results") modules in $(($(date +%s) - t0))s"
	next_index "$out/boots/boot-$k.results" "$from" "$(wc -l <"$list")" "$k"
}

# qemu runs under timeout(1), a child of run.sh: stopping timeout stops qemu.
stop_qemu() { # run.sh's pid
	local p
	for p in $(ps -o pid= --ppid "$1"); do
		[ "$(ps -o comm= -p "$p")" = timeout ] && kill -TERM "$p" 2>/dev/null
	done
	return 0
}

# Where the next boot starts: after the last module that ended; a module that began and
# did not end crashed the guest (or was cut by the boot's time: then it runs again).
next_index() { # results from count boot
	local res=$1 from=$2 count=$3 k=$4 last began
	last=$(awk '$1 == "@hunt" && $2 == "end" { i = $3 } END { print i + 0 }' "$res")
	began=$(awk '$1 == "@hunt" && $2 == "begin" { i = $3; n = $4 } END { if (i) print i, n }' "$res")
	[ "$last" -ge "$from" ] || last=$((from - 1))
	if [ -n "$began" ] && [ "${began%% *}" -gt "$last" ]; then
		if [ "$(cat "$out/boots/boot-$k.stopped" 2>/dev/null)" = time ]; then
			echo "$((last + 1))"
			return
		fi
		# How: the host stopped a guest that had gone quiet, or the guest went down.
		if [ "$(cat "$out/boots/boot-$k.stopped" 2>/dev/null)" = stall ]; then
			echo "$began $k hung" >>"$out/crashed"
			log "module ${began#* } (index ${began%% *}) hung the guest in boot $k (no output for ${stall}s)"
		else
			echo "$began $k crashed" >>"$out/crashed"
			log "module ${began#* } (index ${began%% *}) took the guest down in boot $k"
		fi
		last=${began%% *}
	fi
	if [ "$last" -ge "$count" ]; then echo 0; else echo "$((last + 1))"; fi
}

main() {
	local kdir list=$out/list from=1 k=0 t0 fails=0 prev
	[ -x "$top/build/pdtrace" ] || die "build/pdtrace is missing: run make first"
	kdir=$("$top/tests/vm/fetch-kernel.sh") || die "cannot get Debian's packaged kernel"
	modules=$kdir/modules
	mkdir -p "$out"
	rm -rf "$out/boots" "$out/crashed"
	mkdir -p "$out/boots"
	t0=$(date +%s)
	"$top/tests/hunt/select.sh" "$modules" "$out/select" >&2
	the_list >"$list"
	[ -s "$list" ] || die "no modules to hunt"
	log "$(wc -l <"$list") modules to hunt on $(cat "$kdir/VERSION")"
	make_ci "$list"
	while [ "$from" -ne 0 ]; do
		prev=$from
		from=$(boot_once "$list" "$from" "$k")
		k=$((k + 1))
		# A boot that ran no module at all, twice in a row: the harness is broken.
		if ! grep -q '^@hunt begin ' "$out/boots/boot-$((k - 1)).results"; then
			fails=$((fails + 1))
			[ $fails -lt 2 ] || die "two boots ran no module (see $out/boots/boot-$((k - 1)).tap)"
			from=$prev
		else
			fails=0
		fi
	done
	echo "$(($(date +%s) - t0))" >"$out/seconds"
	"$top/tests/hunt/report.sh" "$out"
}

main
