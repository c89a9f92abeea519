# pdtrace record + report. record wraps check on check-tmpfs's clean workload, so both
# trace the very same events: report's JSON must equal check's once the fields that
# legitimately differ (recording, command) are removed, with the same exit status. Then
# recordings of other kinds (--no-dput, entries adopted from before, system-wide until
# SIGINT, --duration, a killed record), each reported here, and the command-line contract.
# The recordings are printed (gzip, base64) for tests/fuzz/make-recordings.sh, which
# keeps them in tests/fuzz/corpus: the fuzzer's seeds and the unit tests' input.
# timeout: 300
. /lib.sh
mkdir -p /mnt/t /mnt/ad
wl='mount -t tmpfs rc /mnt/t && mkdir -p /mnt/t/a/b && echo x >/mnt/t/a/f &&
	ln -s f /mnt/t/a/l && ln /mnt/t/a/f /mnt/t/a/h && mv /mnt/t/a/f /mnt/t/g &&
	rm /mnt/t/a/l /mnt/t/a/h && rmdir /mnt/t/a/b && umount /mnt/t'

# Outputs made before either tracer attaches: creating them would be an event one sees.
: >/tmp/eq.json
: >/tmp/eq.pdtrec
$PDTRACE record -o /tmp/eq.pdtrec -- $PDTRACE check -f json -o /tmp/eq.json -- sh -c "$wl"
rs=$?
$PDTRACE report -f json -o /tmp/eq-r.json /tmp/eq.pdtrec
same_report /tmp/eq.json /tmp/eq-r.json "$?" workload
expect_eq "$rs" "$(rec_status /tmp/eq-r.json)" "record of check: exit status"
expect_grep '"mountpoint":"/mnt/t","mounts":1,"made":5,"discarded":3,"unpinned_at_umount":2' \
	/tmp/eq-r.json "report: mountpoint and superblock counts"
expect_grep '"command":{"argv":\["/bin/pdtrace","check",.*\],"exit_status":[03]}' /tmp/eq-r.json \
	"report: the recorded command and its status"
expect_grep '"recording":{"file":"/tmp/eq.pdtrec","recorded_by":"0.1.0",.*"truncated":null}' \
	/tmp/eq-r.json "report: where the data came from"
$PDTRACE report /tmp/eq.pdtrec >/tmp/eq-r.txt 2>&1
expect_grep '^summary: 0 leak, 0 imbalance, 0 illegal-removal$' /tmp/eq-r.txt "text report"
$PDTRACE report -f junit /tmp/eq.pdtrec >/tmp/eq-r.xml 2>&1
expect_grep '<testsuite name="pdtrace" tests="2" failures="0"' /tmp/eq-r.xml "junit report"
emit /tmp/eq.pdtrec rec-check-tmpfs.pdtrec

# The workload recorded directly, and without dput().
$PDTRACE record -o /tmp/c.pdtrec -- sh -c "$wl" 2>/dev/null
expect_eq "$?" 0 "record of the workload"
$PDTRACE report -f json /tmp/c.pdtrec >/tmp/c.json
expect_eq "$?" 0 "report of the workload"
expect_grep '"made":5,"discarded":3,"unpinned_at_umount":2' /tmp/c.json "the workload's counts"
emit /tmp/c.pdtrec rec-tmpfs-clean.pdtrec
$PDTRACE record --no-dput -o /tmp/nd.pdtrec -- sh -c "$wl" 2>/dev/null
expect_eq "$?" 0 "record --no-dput"
$PDTRACE report /tmp/nd.pdtrec >/dev/null
expect_eq "$?" 0 "report of a --no-dput recording"
emit /tmp/nd.pdtrec rec-tmpfs-no-dput.pdtrec

# Entries persistent before record started (adopted), a rename, a failing command.
mount -t tmpfs ad /mnt/ad && mkdir /mnt/ad/x && touch /mnt/ad/x/f /mnt/ad/x/k
$PDTRACE record -o /tmp/ad.pdtrec -- sh -c 'rm /mnt/ad/x/f && mv /mnt/ad/x /mnt/ad/y &&
	mkdir /mnt/ad/y/d && mv /mnt/ad/y/d /mnt/ad/d2 && umount /mnt/ad; exit 3' 2>/dev/null
expect_eq "$?" 0 "record of a failing command"
$PDTRACE report -f json /tmp/ad.pdtrec >/tmp/ad.json
expect_eq "$?" 0 "report: the command's failure is not a finding"
expect_grep '"made":1,"discarded":1,"unpinned_at_umount":3,"adopted":3' /tmp/ad.json \
	"made: d; adopted: f discarded, y and y/k unpinned"
expect_grep '"exit_status":3}' /tmp/ad.json "the command's status"
emit /tmp/ad.pdtrec rec-tmpfs-adopted.pdtrec

# Without COMMAND: until SIGINT.
$PDTRACE record -o /tmp/bg.pdtrec 2>/tmp/bg.err &
pid=$!
for i in $(seq 1 100); do grep -q 'recording to' /tmp/bg.err && break; sleep 0.1; done
sh -c "$wl"
kill -INT $pid
wait $pid
expect_eq "$?" 0 "record until SIGINT: exit status"
$PDTRACE report -f json /tmp/bg.pdtrec >/tmp/bg.json
expect_eq "$?" 0 "report of a SIGINT-ended recording"
expect_grep '"command":null' /tmp/bg.json "no command recorded"
expect_grep '"mountpoint":"/mnt/t","mounts":1,"made":5,"discarded":3,"unpinned_at_umount":2' \
	/tmp/bg.json "workload seen system-wide"
emit /tmp/bg.pdtrec rec-systemwide-sigint.pdtrec

# --duration.
$PDTRACE record -d 1 -o /tmp/d.pdtrec 2>/dev/null
expect_eq "$?" 0 "record --duration: exit status"
$PDTRACE report /tmp/d.pdtrec >/dev/null
expect_eq "$?" 0 "report of a --duration recording"
emit /tmp/d.pdtrec rec-duration.pdtrec

# Killed: the file is readable up to its last complete block, and never passes as clean.
# (The pause lets record write the workload's events before it dies.)
$PDTRACE record -o /tmp/k.pdtrec -- sh -c "$wl"' && sleep 1 && kill -KILL $PPID'
$PDTRACE report /tmp/k.pdtrec >/tmp/k.txt 2>/tmp/k.err
expect_eq "$?" 3 "report of a killed recording: incomplete"
expect_eq "$(wc -l </tmp/k.err)" 1 "one stderr line for a truncated recording"
expect_grep 'truncated at byte [0-9]*: no END block' /tmp/k.err "says where it stops"
expect_grep '^INCOMPLETE: the recording is truncated' /tmp/k.txt "the report says it too"
expect_grep '^tmpfs .* /mnt/t  *5  *3  *2  *0  *0 unmounted$' /tmp/k.txt "what was recorded is reported"
emit /tmp/k.pdtrec rec-killed-truncated.pdtrec

# The contract: one line, exit 2, and no file left behind when nothing could be recorded.
$PDTRACE record -o /tmp/nc.pdtrec -- /no/such/cmd >/dev/null 2>/tmp/nc.err
expect_eq "$?" 2 "record of a missing command"
expect_eq "$(wc -l </tmp/nc.err)" 1 "one error line"
expect_grep "record: cannot run '/no/such/cmd'" /tmp/nc.err "missing command named"
[ ! -e /tmp/nc.pdtrec ] && pass "no file left behind" || fail "/tmp/nc.pdtrec left behind"
$PDTRACE record -o /no/such/dir/r.pdtrec -- touch /tmp/ran >/dev/null 2>/tmp/nw.err
expect_eq "$?" 2 "record to an unwritable path"
[ ! -e /tmp/ran ] && pass "command not run when the output cannot be written" || fail "command ran"
finish
