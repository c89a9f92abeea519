# Helpers for scenarios (sourced by each scenario in the guest).
set -u
PDTRACE=/bin/pdtrace
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

expect_eq() { # actual expected what
	if [ "$1" = "$2" ]; then pass "$3 = $2"; else fail "$3: got '$1', want '$2'"; fi
}

expect_grep() { # pattern file what
	if grep -q -- "$1" "$2"; then pass "$3"; else fail "$3: no line matching '$1' in:"; cat "$2"; fi
}

# The major:minor of the filesystem mounted at DIR (as /proc/self/mountinfo has it).
dev_of() { awk -v m="$1" '$5 == m { print $3; exit }' /proc/self/mountinfo; }

# Column COL (PERSISTED=4, DISCARDED=5) of `pdtrace stat` output FILE for device DEV.
stat_col() { awk -v d="$2" -v c="$3" '$2 == d { print $c }' "$1"; }

finish() { [ "$failures" -eq 0 ]; exit $?; }

# The kernel log since a mark: dmesg_mark NAME ... dmesg_since NAME.
dmesg_mark() { echo "pdtrace-test: mark $1" >/dev/kmsg; }
dmesg_since() {
	dmesg | awk -v m="pdtrace-test: mark $1" 'substr($0, length($0) - length(m) + 1) == m { n = 0; next }
		{ l[++n] = $0 }
		END { for (i = 1; i <= n; i++) print l[i] }'
}

# Show the kernel's notable lines of a log (module messages, WARN, BUG, busy inodes).
show_kernel_lines() { grep -E 'pdtfaultfs|WARNING|BUG|Busy inodes|Oops' "$1" | sed 's/^/kernel: /'; }

# The kernel's log since dmesg_mark MARK, into FILE, its notable lines shown; the module
# logged the fault ("pdtfaultfs DEV: COMMAND NAME").
fault_logged() { # mark file "DEV: COMMAND NAME"
	dmesg_since "$1" >"$2"
	show_kernel_lines "$2"
	expect_grep "pdtfaultfs $3" "$2" "the module logs the fault"
}

expect_no_grep() { # pattern file what
	if grep -q -- "$1" "$2"; then fail "$3: unexpected lines matching '$1' in:"; cat "$2"; else pass "$3"; fi
}

# pdtfaultfs (tests/kmod/pdt_faultfs.c, "# kmods: pdt_faultfs"). Each superblock holds
# a reference to the module, so its reference count equals the number of pdtfaultfs
# mounts once umount has freed every superblock it took down.
faultfs_refs() { awk '$1 == "pdt_faultfs" { print $3 }' /proc/modules; }
faultfs_mounts() { grep -c ' - pdtfaultfs ' /proc/self/mountinfo; }

faultfs_mount() { # dir
	if ! grep -qw pdtfaultfs /proc/filesystems; then
		fail "pdtfaultfs is not registered"
		cat /tmp/insmod.log 2>/dev/null
		return 1
	fi
	mkdir -p "$1" && mount -t pdtfaultfs pdtfaultfs "$1" || { fail "mount pdtfaultfs on $1"; return 1; }
}

# one_finding JSON STATUS DEV KIND RULE PATH WHAT: check exited 1 with exactly this finding,
# on a pdtfaultfs superblock.
one_finding() {
	cat "$1"; echo
	expect_eq "$2" 1 "$7: check exits 1"
	expect_eq "$(grep -o '"kind":"' "$1" | wc -l)" 1 "$7: exactly one finding"
	expect_grep "\"kind\":\"$4\",\"rule\":\"$5\",\"fs_type\":\"pdtfaultfs\",\"s_id\":\"pdtfaultfs\",\"dev\":\"$3\",\"path\":\"$6\"" \
		"$1" "$7: $4/$5 at $6"
}

# Users can still create and remove entries at DIR.
faultfs_works() { # dir
	mkdir "$1/ok.d" && echo data >"$1/ok.d/f" && ln -s f "$1/ok.d/l" && [ "$(cat "$1/ok.d/l")" = data ] &&
		rm -r "$1/ok.d" && [ ! -e "$1/ok.d" ]
	expect_eq "$?" 0 "$1 still works (mkdir, write, symlink, rm -r)"
}

# Unmount DIR: it succeeds, the kernel logs no WARN, BUG or busy inodes meanwhile, and
# the superblock is freed.
faultfs_umount() { # dir
	dmesg_mark "umount $1"
	umount "$1"
	expect_eq "$?" 0 "umount $1"
	dmesg_since "umount $1" >/tmp/umount.log
	expect_no_grep 'WARNING\|BUG\|Busy inodes' /tmp/umount.log "umount $1 logs no WARN, BUG or busy inodes"
	expect_eq "$(faultfs_refs)" "$(faultfs_mounts)" "the superblock of $1 is freed (module references)"
}

# run_workload NAME: filesystem workload /workloads/NAME.sh (tests/vm/workloads): its
# setup, its run under `pdtrace stat`, then every superblock's counts against what the
# workload expects (wl_check_stat). A setup that says the filesystem cannot be exercised
# here (status 77) skips the scenario.
# Kernel complaints in the log: a WARN (e.g. d_make_discardable() on an entry that is not
# persistent), a BUG, a leak at umount.
kernel_complaints() { dmesg | grep -E 'WARNING:|BUG:|Busy inodes|still in use'; }

# ---- modules that come and go --------------------------------------------------
# init loads a scenario's modules ("# modules:") before it starts. A run that wants their
# loads and unloads seen, as users have them (modprobe, modprobe -r), unloads them first
# (mods_out), and the run loads them (mods_in) and unloads them again (mods_out).
# mods_ko NAME: the file init loaded module NAME from ("nvme-loop" or "nvme_loop").
mods_ko() {
	local n
	for n in "$1" "$(echo "$1" | tr - _)" "$(echo "$1" | tr _ -)"; do
		grep -qx "$n.ko" /lib/modules/load-order 2>/dev/null && { echo "/lib/modules/$n.ko"; return 0; }
	done
	echo "mods_ko: no module $1 in the initramfs" >&2
	return 1
}
# mods_named NAME...: of init's load order, the modules named, as module names.
mods_named() {
	local want m
	want=" $(echo "$*" | tr - _) "
	sed 's/\.ko$//' /lib/modules/load-order | tr - _ | while read -r m; do
		case "$want" in *" $m "*) echo "$m" ;; esac
	done
}
# mods_in NAME...: insmod of each, in init's load order.
mods_in() {
	local m
	for m in $(mods_named "$@"); do insmod "$(mods_ko "$m")" || return 1; done
}
# mods_out NAME...: one rmmod of them all, the last loaded first, as modprobe -r goes.
mods_out() {
	rmmod $(mods_named "$@" | sed -n '1!G;h;$p')
}

run_workload() {
	local name=$1 out=/tmp/wl-$1.out exp=/tmp/wl-$1.expect rc before
	before=$(kernel_complaints | wc -l)
	. "/workloads/$name.sh"
	"wl_${name}_setup"
	rc=$?
	[ "$rc" -ne 77 ] || exit 77
	[ "$rc" -eq 0 ] || { fail "setup of workload $name (status $rc)"; return; }
	# Both tools at once: stat counts the calls, check (its JSON report on stdout, so
	# that no file is created on a traced filesystem) must find nothing and agree.
	$PDTRACE stat -- $PDTRACE check -f json -- sh -c ". /workloads/$name.sh && wl_${name}_run" >"$out" 2>&1
	rc=$?
	cat "$out"
	expect_eq "$rc" 0 "workload $name: pdtrace check finds nothing"
	grep '^{"version":' "$out" >"$out.json"
	expect_grep '"command":{"argv":\[.*\],"exit_status":0}' "$out.json" "workload $name: every step went as the kernel source says"
	expect_grep '"complete":true' "$out.json" "workload $name: check saw every event"
	expect_grep '"findings":\[\]' "$out.json" "workload $name: no findings"
	expect_no_grep '"self_check":"inconsistent"' "$out.json" "workload $name: the self-check finds the books right"
	"wl_${name}_expect" <"$out" >"$exp"
	echo "expected: FSTYPE DEV MADE DISCARDED UNPINNED_AT_UMOUNT"
	sed 's/^/expected: /' "$exp"
	wl_check_stat "$out" "$exp" || failures=$((failures + $?))
	wl_check_report "$out.json" "$exp" || failures=$((failures + $?))
	expect_eq "$(kernel_complaints | wc -l)" "$before" "kernel warnings, BUGs, leaks in the log"
	kernel_complaints | tail -n +"$((before + 1))"
	if command -v "wl_${name}_cleanup" >/dev/null; then "wl_${name}_cleanup"; fi
}

# run_workload_mounted NAME LEFT: the workload's run again under check, its last umount
# left out (wl_last_umount), so that check's self-check walks the tree the run left: the
# books must match the kernel on all LEFT entries. The tree is unmounted afterwards.
run_workload_mounted() {
	local name=$1 left=$2 out=/tmp/wlm-$1.json rc kept
	"wl_${name}_setup" >/dev/null 2>&1
	$PDTRACE check -f json -o "$out" -- \
		sh -c ". /workloads/$name.sh && WL_KEEP_MOUNTED=1 wl_${name}_run" >/tmp/wlm-$name.out 2>&1
	rc=$?
	kept=$(sed -n 's/^@wl kept //p' /tmp/wlm-$name.out)
	cat "$out"; echo
	expect_eq "$rc" 0 "workload $name, tree left mounted: check finds nothing"
	expect_grep '"findings":\[\]' "$out" "workload $name, tree left mounted: no findings"
	expect_grep '"complete":true' "$out" "workload $name, tree left mounted: complete"
	expect_grep "\"self_check\":\"consistent\",\"check_entries\":$left," "$out" \
		"workload $name: the self-check walked the $left entries left, consistent"
	expect_no_grep '"self_check":"inconsistent"' "$out" "workload $name: no superblock inconsistent"
	[ -z "$kept" ] || umount $kept || fail "umount $kept"
	if command -v "wl_${name}_cleanup" >/dev/null; then "wl_${name}_cleanup"; fi
}

# Recordings (record-*.sh). strip FILE: a JSON report without the fields in which
# `report` legitimately differs from `check` (where the data came from, the command, and
# dput() checks the kernel skipped: a live counter a recording does not carry).
strip() { sed -e 's/,"recording":\(null\|{[^}]*}\)//' -e 's/,"command":\(null\|{[^}]*}\)//' -e 's/,"dput_checks_skipped":[0-9]*//' "$1"; }
# The exit status of the command a JSON report names; the one its data calls for.
cmd_status() { sed -n 's/.*"command":{"argv":\[[^]]*\],"exit_status":\([0-9]*\)}.*/\1/p' "$1"; }
# record's exit status for the recording a JSON report describes: 0, or 3 when incomplete.
rec_status() { if grep -q '"complete":true' "$1"; then echo 0; else echo 3; fi; }
data_status() {
	if grep -q '"kind":"' "$1"; then echo 1; elif grep -q '"complete":true' "$1"; then echo 0; else echo 3; fi
}
# same_report CHECK_JSON REPORT_JSON REPORT_STATUS WHAT, for record wrapping check: the
# JSON reports are equal but for strip's fields, and report exits as check did. Each
# tracer counts its own losses (a run of one tracer's program skipped while preempted says
# nothing of the other's): when only those differ, each exit status follows its own data.
same_report() {
	local c r
	c=$(strip "$1") r=$(strip "$2")
	if [ "$c" = "$r" ]; then
		pass "$4: report JSON equals check JSON ($(grep -o '"kind":"' "$1" | wc -l) findings)"
		expect_eq "$3" "$(cmd_status "$2")" "$4: report exits as check did"
		return
	fi
	c=$(echo "$c" | sed 's/"complete":[a-z]*,"lost_events":[0-9]*,//')
	r=$(echo "$r" | sed 's/"complete":[a-z]*,"lost_events":[0-9]*,//')
	if [ "$c" = "$r" ]; then
		pass "$4: report JSON equals check JSON but for the losses each tracer counts:" \
			"$(grep -o '"lost_events":[0-9]*' "$1") in check's," \
			"$(grep -o '"lost_events":[0-9]*' "$2") in the recording"
		expect_eq "$3" "$(data_status "$2")" "$4: report's exit status follows its data"
	else
		fail "$4: report JSON differs from check JSON"
		echo "$c"
		echo "$r"
	fi
}
# emit FILE NAME: a recording on the results channel, gzipped and base64-encoded, for
# tests/fuzz/make-recordings.sh to keep in tests/fuzz/corpus.
emit() {
	echo "@@REC BEGIN $2"
	gzip -9c "$1" | base64
	echo "@@REC END $2"
}

# made JSON DIR: the entries made on the superblock mounted at DIR, from a check report.
made() { sed -n "s|.*\"mountpoint\":\"$2\",\"mounts\":[0-9]*,\"made\":\([0-9]*\).*|\1|p" "$1"; }

# sbs JSON: one line per superblock of a check report: "fs_type dev made discarded
# unpinned adopted persistent_now unmounted findings".
sbs() {
	sed -n 's/.*"superblocks":\[\([^]]*\)\].*/\1/p' "$1" | sed 's/},{/}\n{/g' |
		sed 's/.*"fs_type":"\([^"]*\)".*"dev":"\([^"]*\)".*"made":\([0-9]*\),"discarded":\([0-9]*\),"unpinned_at_umount":\([0-9]*\),"adopted":\([0-9]*\),"persistent_now":\(-\{0,1\}[0-9]*\),"findings":\([0-9]*\),"unmounted":\([a-z]*\).*/\1 \2 \3 \4 \5 \6 \7 \9 \8/' | grep .
}

# ---- third-party clients (client-*.sh, "# root: sid") ---------------------------
# The cached Debian sid userland is at /sid (tests/vm/run.sh shares it read-only over 9p,
# init mounts it with fresh proc, sys, dev, tmp, run and mnt inside). Clients run
# chrooted there; pdtrace (static) runs outside.
SID=/sid

# need_sid TOOL...: the scenario's tools must be in the root ("# root: sid" promises it).
need_sid() {
	local t
	for t in "$@"; do
		[ -x "$SID/usr/bin/$t" ] || [ -x "$SID/usr/sbin/$t" ] && continue
		fail "$t is not in the sid root at $SID (is it shared and mounted?)"
		cat /tmp/insmod.log 2>/dev/null
		finish
	done
}

# sid CMD...: CMD chrooted in the sid root, with a clean environment, HOME=$CLIENT_HOME
# (client_home) and working there.
sid() {
	chroot "$SID" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME="${CLIENT_HOME:-/root}" TERM=dumb LC_ALL=C.UTF-8 /bin/sh -c 'cd && exec "$@"' sh "$@"
}
# client_home NAME: in a run, a tmpfs of the client's own as its home (whatever a tool
# leaves there is on a superblock the run takes down: client_home_down). Its mount point,
# $SID/mnt/home-NAME, is made before the run (client_home_dir NAME): made during it, it
# would stay on the shared tmpfs of $SID/mnt.
client_home_dir() { mkdir -p "$SID/mnt/home-$1"; }
client_home() {
	CLIENT_HOME=/mnt/home-$1
	mount -t tmpfs "client-home-$1" "$SID$CLIENT_HOME" && echo "@client dev home-$1 $(dev_of "$SID$CLIENT_HOME")"
}
client_home_down() { umount "$SID$CLIENT_HOME"; }

# Scenarios of clients are also run all at once, under one check, with faults injected
# (client-faults.sh): sourced with CLIENT_PREP=1, a client scenario does its setup, writes
# its run script /tmp/client-NAME.sh (ROUNDS=1) and returns before running it.
client_prep_only() { [ -n "${CLIENT_PREP:-}" ]; }

# client_run NAME SCRIPT: the guest script SCRIPT (which mounts what it uses and takes it
# down again) under pdtrace check. Its output is in /tmp/NAME.out (and shown), the JSON
# report in /tmp/NAME.json; sets client_rc (check's status) and client_secs.
client_run() {
	local t0
	t0=$(date +%s)
	$PDTRACE check -f json -o "/tmp/$1.json" -- sh "$2" >"/tmp/$1.out" 2>&1
	client_rc=$?
	client_secs=$(($(date +%s) - t0))
	cat "/tmp/$1.out"
	# The report, cut short when it lists many findings.
	head -c 6000 "/tmp/$1.json"
	echo
}

# client_books WHAT JSON [FSTYPE]: complete data (no lost event, no full map), the
# self-check (on by default) walking every superblock still mounted and finding its books
# right, and every superblock's books back to zero (but FSTYPE's, where faults were
# injected): nothing persistent left; an unmounted one unpinned at umount what was not
# discarded (made + adopted = discarded + unpinned); one still mounted (configfs, tracefs,
# bpffs, ...) discarded all the client made.
client_books() {
	local what=$1 json=$2 skip=${3:-} bad
	pdt-jsonck "$json" || fail "$what: check's JSON report is not valid JSON"
	expect_grep '"complete":true,"lost_events":0,"map_full":0,' "$json" "$what: complete data, no lost events"
	expect_grep '"inconsistent_superblocks":0,' "$json" "$what: the self-check finds the books right"
	expect_no_grep '"self_check":"inconsistent"' "$json" "$what: no superblock inconsistent"
	# Mounted now: not unmounted, and a mount of it seen (debugfs exists unmounted when a
	# module the run loads makes entries in it and nothing mounts it).
	sed -n 's/.*"superblocks":\[\([^]]*\)\].*/\1/p' "$json" | sed 's/},{/}\n{/g' |
		grep -v '"mounts":0,' | grep '"unmounted":false' >"$json.mounted"
	expect_eq "$(grep -c '"unmounted":false,"eaten":[0-9]*,"self_check":"consistent"' "$json.mounted")" \
		"$(grep -c . "$json.mounted")" "$what: the self-check walked every superblock still mounted, consistent"
	sbs "$json" >"$json.sbs"
	echo "superblocks: fs_type dev made discarded unpinned adopted persistent_now unmounted findings"
	sed 's/^/  /' "$json.sbs"
	[ -s "$json.sbs" ] || fail "$what: no superblock in check's report"
	bad=$(awk -v skip="$skip" '$1 == skip { next }
		$7 != 0 { print "persistent_now " $7 ": " $0; next }
		$8 == "true" && $3 + $6 != $4 + $5 { print "unbalanced at umount: " $0 }
		$8 == "false" && $3 + $6 != $4 { print "still mounted, not all discarded: " $0 }' "$json.sbs")
	[ -z "$bad" ] && pass "$what: every superblock's books are back to zero" || fail "$what: books: $bad"
}

# client_clean WHAT JSON: a clean run: check and the command exit 0, no finding, and
# client_books.
client_clean() {
	expect_eq "$client_rc" 0 "$1: check exits 0"
	expect_eq "$(cmd_status "$2")" 0 "$1: the client run exits 0"
	expect_grep '"findings":\[\],' "$2" "$1: no findings"
	expect_grep '"summary":{"leak":0,"imbalance":0,"illegal-removal":0}' "$2" "$1: a summary of none"
	client_books "$1" "$2"
}

# client_devs OUT KEY...: the devices a run noted with "@client dev KEY MAJ:MIN".
client_devs() {
	local out=$1
	shift
	awk -v keys=" $* " '$1 == "@client" && $2 == "dev" && index(keys, " " $3 " ") { print $4 }' "$out"
}

# client_summary CLIENT FS OPS JSON DEV...: the line of the results table for one client
# on one filesystem: its own operation counts (OPS, from its own output), pdtrace's books
# and findings summed over the superblocks DEV... (client_books made JSON.sbs), the lost
# events and the run time. CLIENT_TAG is appended to CLIENT.
client_summary() {
	local client=$1 fs=$2 ops=$3 json=$4 books lost
	shift 4
	books=$(awk -v devs=" $* " 'index(devs, " " $2 " ") { m += $3; d += $4; u += $5; n += $7; f += $9 }
		END { printf "%d | %d | %d | %d | %d", m, d, u, n, f }' "$json.sbs")
	lost=$(sed -n 's/.*"lost_events":\([0-9]*\),.*/\1/p' "$json")
	echo "client: $client${CLIENT_TAG:-} | $fs | $ops | $books | ${lost:-?} | ${client_secs}s"
}

# A process's resident memory, KiB.
rss() { awk '$1 == "VmRSS:" { print $2 }' /proc/"$1"/status; }

# The long runs' tracers (sb-cycles, make soak): watch --prometheus /tmp/p.prom and
# trace -o /tmp/t.json, then, once watch has written and trace has attached, a check
# (/tmp/c.json) around SCRIPT. Their pids: wpid, tpid, cpid.
watch_trace_check() { # script
	$PDTRACE watch -i 1 --prometheus /tmp/p.prom >/dev/null 2>/tmp/w.err &
	wpid=$!
	$PDTRACE -v trace -f json -o /tmp/t.json 2>/tmp/t.err &
	tpid=$!
	for i in $(seq 1 300); do [ -s /tmp/p.prom ] && grep -q tracing /tmp/t.err && break; sleep 0.2; done
	$PDTRACE check -f json -o /tmp/c.json -- sh "$1" 2>/tmp/c.err &
	cpid=$!
}
