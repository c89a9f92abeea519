# record + report equals check on the fault-injection workloads of check-faultfs (a clean
# workload is record-tmpfs's): for each,
# record wraps check, so both trace the very same events, and report's JSON (findings with
# their symbolized stacks, superblock books, mountpoints, coverage) must equal check's
# once the fields that legitimately differ (recording, command) are removed, and report
# must exit as check did. The recordings, findings included, are printed for
# tests/fuzz/make-recordings.sh (gzip, base64).
# timeout: 300
# kmods: pdt_faultfs
# The kernel's WARN in d_make_discardable() at each discard-unpersisted fault (tests/vm/run.sh).
# expect-kernel: WARNING: fs/dcache\.c:[0-9]+ at d_make_discardable\+
. /lib.sh
m=/mnt/frf
faultfs_mount $m || finish

# same NAME SHELL-COMMAND [OPTIONS]: check of COMMAND inside record, both with OPTIONS;
# check must exit 1 (a finding).
same() {
	: >"/tmp/$1.json" # made before either tracer attaches: neither sees it
	: >"/tmp/$1.pdtrec"
	$PDTRACE record ${3:-} -o "/tmp/$1.pdtrec" -- \
		$PDTRACE check ${3:-} -f json -o "/tmp/$1.json" -- sh -c "$2" 2>/dev/null
	rs=$?
	$PDTRACE report -f json -o "/tmp/$1-r.json" "/tmp/$1.pdtrec"
	same_report "/tmp/$1.json" "/tmp/$1-r.json" "$?" "$1"
	expect_eq "$rs" "$(rec_status "/tmp/$1-r.json")" "$1: record exit status"
	expect_eq "$(cmd_status "/tmp/$1-r.json")" 1 "$1: check's exit status, as recorded"
	emit "/tmp/$1.pdtrec" "rec-faultfs-$1.pdtrec"
}

same discard "echo discard-unpersisted nx >$m/ctl"
same twice "echo persist-twice tw >$m/ctl"
same dput "echo extra-dput xd >$m/ctl" --dput
same eat "echo eat xe >$m/ctl"
same orphan "echo orphan od >$m/ctl"
same removal "mkdir $m/kdir/u && touch $m/kdir/u/f && echo remove kdir >$m/ctl"
umount $m && faultfs_mount $m
same dead "echo create-in-dead kdir >$m/ctl"
# Not a mount inside the workload: a superblock's mountpoint is read when its first event
# is delivered, and the two tracers deliver the mount's own events at different moments,
# before or after the mount is attached (check alone has that race too).
umount $m
finish
