# Shared by the filesystem workloads (each tests/vm/workloads/<fs>.sh sources this).
# In the guest they live in /workloads; the helpers pdt-fsop and pdt-bpfpin are in /bin.
#
# A workload <fs>.sh defines:
#   wl_<fs>_setup    untraced preparation (mount points, module state, ...). Status 77 with a
#                    "SKIP: why" line: the filesystem cannot be exercised in this guest.
#   wl_<fs>_run      the part to trace. Self-contained once setup has run:
#                      pdtrace stat -- sh -c '. /workloads/<fs>.sh && wl_<fs>_run'
#                    It checks every step against what the kernel source says (a refused
#                    operation must fail with the exact errno), prints "@wl ..." observation
#                    lines, and exits 0 only if everything went as expected.
#   wl_<fs>_expect   reads the run's output on stdin and prints one line per superblock
#                    the run touches:
#                      FSTYPE DEV MADE DISCARDED UNPINNED_AT_UMOUNT
#                    DEV is major:minor as `pdtrace stat` prints it; MADE and DISCARDED the
#                    d_make_persistent()/d_make_discardable() calls expected during the run;
#                    UNPINNED_AT_UMOUNT the persistent entries the umount walk
#                    (select_collect_umount) unpins when the run kills that superblock: 0 for
#                    a superblock that outlives the run (shared, or pinned by the kernel).
#   wl_<fs>_cleanup  untraced, optional.
# The run never creates files outside the filesystems under test (no state files: a file
# created on /tmp would be one more persistent dentry of another superblock); observations
# reach expect through the run's output:
#   @wl dev KEY MAJ:MIN       the superblock KEY the run used
#   @wl present KEY N         entries left in KEY just before its umount (checked by the run)
# Every superblock with calls must be expected: wl_check_stat fails on any other row.

WL_ERRORS=0

wl_fail() { echo "wl: FAIL: $*"; WL_ERRORS=$((WL_ERRORS + 1)); }

# wl_do CMD...: a step that must succeed.
wl_do() {
	"$@" || wl_fail "'$*' failed (status $?)"
}

# wl_refused ERRNO CMD...: a step that must fail with ERRNO (pdt-fsop and pdt-bpfpin print
# the errno's name, e.g. "pdt-fsop: rmdir /x: ENOTEMPTY").
wl_refused() {
	local want=$1 out
	shift
	if out=$("$@" 2>&1); then
		wl_fail "'$*' succeeded, want $want"
	elif [ "${out##*: }" != "$want" ]; then
		wl_fail "'$*' failed with '$out', want $want"
	else
		echo "wl: refused as expected: $* ($want)"
	fi
}

# wl_last_umount DIR: the run's last umount, left to the caller when WL_KEEP_MOUNTED is set
# (run_workload_mounted: the self-check then walks what the run left).
wl_last_umount() {
	if [ -n "${WL_KEEP_MOUNTED:-}" ]; then echo "@wl kept $1"; else wl_do umount "$1"; fi
}

# wl_dev DIR: major:minor of the filesystem mounted at DIR.
wl_dev() { awk -v m="$1" '$5 == m { d = $3 } END { print d }' /proc/self/mountinfo; }

# wl_note_dev KEY DIR: report the superblock mounted at DIR as KEY.
wl_note_dev() {
	local d
	d=$(wl_dev "$2")
	[ -n "$d" ] || wl_fail "nothing mounted at $2"
	echo "@wl dev $1 $d"
}

# wl_same_sb DIR1 DIR2: the two mounts must share one superblock.
wl_same_sb() {
	[ "$(wl_dev "$1")" = "$(wl_dev "$2")" ] || wl_fail "$1 and $2 are different superblocks"
}

# wl_exists PATH...: each must exist (a kernel-created entry, say).
wl_exists() {
	local p
	for p in "$@"; do [ -e "$p" ] || [ -L "$p" ] || wl_fail "$p does not exist"; done
}

# wl_absent PATH...: none may exist.
wl_absent() {
	local p
	for p in "$@"; do ! [ -e "$p" ] && ! [ -L "$p" ] || wl_fail "$p still exists"; done
}

# wl_present KEY DIR N: DIR (the root of KEY) holds exactly N entries, recursively.
wl_present() {
	local n
	n=$(find "$2" -mindepth 1 | wc -l)
	echo "@wl present $1 $n"
	[ "$n" -eq "$3" ] || wl_fail "$2 holds $n entries before umount, want $3"
}

# wl_wait SECONDS CMD...: poll (every 0.1 s) until CMD succeeds.
wl_wait() {
	local t=$(($1 * 10))
	shift
	while ! "$@" >/dev/null 2>&1; do
		t=$((t - 1))
		[ "$t" -gt 0 ] || { wl_fail "timed out waiting for: $*"; return 1; }
		usleep 100000
	done
}

# wl_need_dirs DIR...: mount points made by setup (making them during the run would add
# persistent entries to the root filesystem).
wl_need_dirs() {
	local d
	for d in "$@"; do [ -d "$d" ] || { wl_fail "$d is missing: run the setup first"; return 1; }; done
}

wl_end() {
	if [ "$WL_ERRORS" -eq 0 ]; then echo "wl: run ok"; else echo "wl: run FAILED ($WL_ERRORS)"; fi
	[ "$WL_ERRORS" -eq 0 ]
}

# wl_obs WHAT KEY < RUN_OUTPUT: the value of observation "@wl WHAT KEY VALUE".
wl_obs() { awk -v w="$1" -v k="$2" '$1 == "@wl" && $2 == w && $3 == k { v = $4 } END { print v }'; }

# wl_check_stat STAT_OUTPUT EXPECT_FILE: compare `pdtrace stat` rows with the expectations
# (FSTYPE DEV MADE DISCARDED UNPINNED). Prints "ok: ..." / "FAIL: ..." lines; the status is
# the number of failures. Rows of superblocks nobody expected fail too.
wl_check_stat() {
	awk '
	FNR == NR {
		if (NF == 0 || $0 ~ /^#/) next
		n++
		if (NF == 4) { fs[n] = $1; dev[n] = ""; next } # the run reported no device
		if (NF != 5) { fs[n] = $0; dev[n] = ""; next }
		fs[n] = $1; dev[n] = $2; made[n] = $3; disc[n] = $4
		# A device number freed by a umount can be reused by the next superblock: stat
		# keys by device, so one run must not expect two superblocks on one number.
		if ($2 in want) { print "FAIL: two superblocks expected on " $2 ": stat cannot tell them apart"; dup++ }
		want[$2] = n
		next
	}
	$1 == "FSTYPE" && $2 == "DEV" && $4 == "PERSISTED" { table = 1; next }
	table && NF == 5 { rfs[$2] = $1; rmade[$2] = $4; rdisc[$2] = $5; rows[$2] = 1 }
	END {
		bad = dup
		if (!table) { print "FAIL: no pdtrace stat table in the output"; exit 1 }
		for (i = 1; i <= n; i++) {
			d = dev[i]
			if (d == "") { print "FAIL: " fs[i] ": no device (did the run report it?)"; bad++; continue }
			got_fs = (d in rows) ? rfs[d] : fs[i]
			got_m = (d in rows) ? rmade[d] : 0
			got_d = (d in rows) ? rdisc[d] : 0
			what = fs[i] " " d
			if (got_fs != fs[i]) { print "FAIL: " what ": superblock type is " got_fs; bad++ }
			if (got_m == made[i]) print "ok: " what " persisted = " made[i]
			else { print "FAIL: " what ": persisted " got_m ", want " made[i]; bad++ }
			if (got_d == disc[i]) print "ok: " what " discarded = " disc[i]
			else { print "FAIL: " what ": discarded " got_d ", want " disc[i]; bad++ }
		}
		for (d in rows)
			if (!(d in want)) {
				print "FAIL: unexpected calls on " rfs[d] " " d ": " rmade[d] " persisted, " rdisc[d] " discarded"
				bad++
			}
		exit bad
	}' "$2" "$1"
}

# wl_check_report JSON EXPECTED: pdtrace check's superblock books (made, discarded,
# unpinned at umount, all from its events) against the expectation, superblocks keyed
# by device like wl_check_stat (a superblock seen twice at one device is summed).
wl_check_report() {
	sed -n 's/.*"superblocks":\[\([^]]*\)\].*/\1/p' "$1" | sed 's/},{/}\n{/g' |
		sed 's/.*"fs_type":"\([^"]*\)".*"dev":"\([^"]*\)".*"made":\([0-9]*\),"discarded":\([0-9]*\),"unpinned_at_umount":\([0-9]*\).*/\1 \2 \3 \4 \5/' >"$1.sbs"
	[ -s "$1.sbs" ] || { echo "FAIL: no superblocks in check's report $1"; return 1; }
	awk '
	FNR == NR { if (NF == 5) { fs[$2] = $1; m[$2] += $3; d[$2] += $4; u[$2] += $5 } else if (NF) { print "FAIL: unparsable superblock: " $0; bad++ } next }
	NF == 0 || $0 ~ /^#/ { next }
	NF != 5 { print "FAIL: expectation without a device: " $0; bad++; next }
	{
		what = $1 " " $2; seen[$2] = 1
		if (!($2 in fs)) { if ($3 + $4 + $5) { print "FAIL: check reports nothing on " what; bad++ } ; next }
		if (m[$2] == $3) print "ok: check: " what " made = " $3; else { print "FAIL: check: " what ": made " m[$2] ", want " $3; bad++ }
		if (d[$2] == $4) print "ok: check: " what " discarded = " $4; else { print "FAIL: check: " what ": discarded " d[$2] ", want " $4; bad++ }
		if (u[$2] == $5) print "ok: check: " what " unpinned at umount = " $5; else { print "FAIL: check: " what ": unpinned at umount " u[$2] ", want " $5; bad++ }
	}
	END {
		for (x in fs) if (!(x in seen) && m[x] + d[x] + u[x]) { print "FAIL: check: unexpected superblock " fs[x] " " x ": " m[x] "/" d[x] "/" u[x]; bad++ }
		exit bad
	}' "$1.sbs" "$2"
}
