# Signatures, suppressions and baselines on pdtfaultfs (docs/findings.md): the same bug on
# two mounts, under other instance numbers, gives one signature (in text and in JSON), and
# the signature a recording from another boot has; the
# suppression entry --gen-suppressions prints for it silences exactly that bug and not one
# of another shape; a baseline made from one run lets the same bug pass and fails a new one;
# a recording gives the report check gave, suppressions included; trace streams them.
# timeout: 240
# kmods: pdt_faultfs
# The kernel's WARN in d_make_discardable() at each discard-unpersisted fault (tests/vm/run.sh).
# expect-kernel: WARNING: fs/dcache\.c:[0-9]+ at d_make_discardable\+
. /lib.sh
a=/mnt/sga b=/mnt/sgb
faultfs_mount $a && faultfs_mount $b || finish
expect_eq "$([ "$(dev_of $a)" != "$(dev_of $b)" ] && echo two)" two "two superblocks"
sig_text() { sed -n 's/^  signature: \([0-9a-f]\{16\}\) .*/\1/p' "$1"; }
sig_json() { grep -o '"signature":"[0-9a-f]*"' "$1" | cut -d'"' -f4; }

# The same bug twice: an orphan on mount a as od1, on mount b as od22.
$PDTRACE check --gen-suppressions -o /tmp/s1.txt -- sh -c "echo orphan od1 >$a/ctl"
expect_eq "$?" 1 "run 1: check exits 1"
$PDTRACE check -f json -o /tmp/s2.json -- sh -c "echo orphan od22 >$b/ctl"
expect_eq "$?" 1 "run 2: check exits 1"
s1=$(sig_text /tmp/s1.txt) s2=$(sig_json /tmp/s2.json)
expect_eq "$(echo "$s1" | wc -w)" 1 "run 1: one signature"
expect_eq "$s2" "$s1" "the same bug on another mount, another name: one signature"
expect_grep "^  signature: $s1 leak/orphaned pdtfaultfs /od#/child | at pdt_orphan \[pdt_faultfs\], " /tmp/s1.txt "the key: rule, fs type, path with '#', frames without offsets"
expect_no_grep 'signature:.*+0x' /tmp/s1.txt "no offsets in the signature"
# The same bug on another boot, with another build of the module: the recording
# tests/fuzz/corpus/rec-faultfs-orphan.pdtrec (an orphan "od", made in an earlier boot)
# has signature 6ef505e98603fe00 (tests/host/cli.sh checks it there); so has this boot's.
$PDTRACE check -f json -o /tmp/s0.json -- sh -c "echo orphan od >$b/ctl"
expect_eq "$(sig_json /tmp/s0.json)" 6ef505e98603fe00 "another boot, another module build: the recorded bug's signature"

# The entry run 1 generated: it silences that bug, not a persist-twice.
sed -n '/^{$/,/^}$/p' /tmp/s1.txt >/tmp/s.supp
cat /tmp/s.supp
expect_grep '^   path:/od#/child$' /tmp/s.supp "the entry's path, digits as #"
$PDTRACE check --suppressions /tmp/s.supp -f json -o /tmp/s3.json -- sh -c "echo orphan od333 >$a/ctl"
expect_eq "$?" 0 "run 3: the suppressed bug passes the gate"
expect_grep '"path":"/od333/child",' /tmp/s3.json "run 3: the finding is reported"
expect_grep '"signature":"'"$s1"'","signature_key":"[^"]*","suppressed_by":"orphaned-'"$s1"'"' /tmp/s3.json "run 3: suppressed by the generated entry"
expect_grep '"suppressed":1,"suppressions":\[{"name":"orphaned-'"$s1"'","file":"/tmp/s.supp","line":1,"matched":1}\]' /tmp/s3.json "run 3: the entry matched 1"
$PDTRACE check --suppressions /tmp/s.supp -o /tmp/s4.txt -- sh -c "echo orphan od4 >$b/ctl; echo persist-twice tw4 >$b/ctl"
expect_eq "$?" 1 "run 4: a bug of another shape still fails"
expect_grep "^suppressed by 'orphaned-$s1': leak: orphaned: pdtfaultfs .* /od4/child (signature $s1)$" /tmp/s4.txt "run 4: the orphan suppressed"
expect_grep '^imbalance: persist-twice: pdtfaultfs .* /tw4$' /tmp/s4.txt "run 4: the persist-twice in full"

# A baseline from run 2: the same bug is known, a new one fails.
$PDTRACE check --baseline /tmp/s2.json -o /tmp/s5.txt -- sh -c "echo orphan od5 >$a/ctl"
expect_eq "$?" 0 "run 5: the baseline's bug passes"
expect_grep '^baseline: /tmp/s2.json: 1 known, 0 new, 0 gone$' /tmp/s5.txt "run 5: 1 known"
$PDTRACE check --baseline /tmp/s2.json -f junit -o /tmp/s6.xml -- sh -c "echo orphan od6 >$b/ctl; echo discard-unpersisted nx6 >$b/ctl"
expect_eq "$?" 1 "run 6: a new bug fails"
expect_grep 'failures="1"' /tmp/s6.xml "run 6: one failed test case"
expect_grep '<failure type="imbalance" message="discard-unpersisted: /nx6">' /tmp/s6.xml "run 6: the new bug is the failure"
expect_grep '<system-out>known (in the baseline): leak: orphaned: pdtfaultfs .* /od6/child' /tmp/s6.xml "run 6: the known one in system-out"

# record around check, both with the suppressions: report gives check's report.
: >/tmp/s7.json
: >/tmp/s7.pdtrec
$PDTRACE record -o /tmp/s7.pdtrec -- $PDTRACE check --suppressions /tmp/s.supp -f json -o /tmp/s7.json -- sh -c "echo orphan od7 >$a/ctl" 2>/dev/null
$PDTRACE report --suppressions /tmp/s.supp -f json -o /tmp/s7-r.json /tmp/s7.pdtrec
same_report /tmp/s7.json /tmp/s7-r.json "$?" "record with suppressions"
expect_eq "$(sig_json /tmp/s7-r.json)" "$s1" "the recording's signature is check's"
# trace streams a suppressed finding in one line, a new one in full, and fails on the new.
$PDTRACE trace --suppressions /tmp/s.supp -d 3 >/tmp/s8.txt 2>/tmp/s8.err &
tpid=$!
for i in $(seq 1 200); do grep -q 'tracing persistent dentries' /tmp/s8.err && break; sleep 0.1; done
sh -c "echo orphan od8 >$a/ctl; echo persist-twice tw8 >$a/ctl"
wait $tpid
expect_eq "$?" 1 "trace: the new bug fails"
expect_grep "^suppressed by 'orphaned-$s1': leak: orphaned: pdtfaultfs .* /od8/child (signature $s1)$" /tmp/s8.txt "trace: the suppressed one in one line"
expect_grep '^imbalance: persist-twice: pdtfaultfs .* /tw8$' /tmp/s8.txt "trace: the new one in full"
expect_grep "^suppression 'orphaned-$s1' (/tmp/s.supp:1) matched 1 finding$" /tmp/s8.txt "trace: the entry's count in the summary"
umount $a
umount $b
finish
