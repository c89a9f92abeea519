# Overflow: a ring buffer of one page (--ringbuf-pages 1) overflows under a burst.
# check, record (and report), watch and trace say so: the counts in the JSON and text reports, "complete":false, exit 3, and nothing
# crashes. check on the same workloads with the default sizes: complete data, exit 0. The
# options reach the kernel: the sizes of pdtrace's maps are read from its fdinfo while it
# runs (their memlock figures, the memory costs in docs/tracing.md, are printed).
# timeout: 600
. /lib.sh
mkdir -p /mnt/o
before=$(kernel_complaints | wc -l)

# The burst: 3000 directories made by one mkdir, far faster than a reader takes 3000
# events through one page (7 full events). Streamed, each (PDTRACE_TESTING=no-elide, as trace --events
# does): by default a user's mkdirs send nothing, and the last section checks that. Nothing is removed or unmounted while traced:
# a persist event lost is then data missing, never a finding (a removal lost looks like a
# leak: that case has a section of its own below).
burst='mkdir $(seq 1 3000)'
export PDTRACE_TESTING=no-elide
# Every run on a fresh tmpfs, mounted and unmounted untraced.
fresh() { umount /mnt/o 2>/dev/null; mount -t tmpfs ov /mnt/o; }
# The BPF maps of process $1 (the pdtrace running us): "TYPE MAX_ENTRIES MEMLOCK" each.
cat >/tmp/maps.sh <<'EOS'
for f in /proc/$1/fdinfo/*; do
	awk '/^map_type:/ { t = $2 } /^max_entries:/ { m = $2 } /^memlock:/ { l = $2 }
		END { if (t != "") print t, m, l }' "$f"
done
EOS
snap='sh /tmp/maps.sh $PPID >/tmp/maps.txt; cd /mnt/o'
# Outputs exist before tracing starts: making them would be events of their own.
for f in maps.txt rb.json rbd.json r1.pdtrec lk.json; do : >/tmp/$f; done
# num FILE KEY: the first "KEY":N of a JSON report.
num() { sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" "$1" | head -n 1; }
has_map() { # TYPE MAX_ENTRIES WHAT
	if grep -q "^$1 $2 " /tmp/maps.txt; then pass "$3"; else fail "$3: no map of type $1 with $2 entries:"; cat /tmp/maps.txt; fi
}
positive() { # VALUE WHAT
	if [ "${1:-0}" -gt 0 ]; then pass "$2 = $1 > 0"; else fail "$2: got '$1', want > 0"; fi
}

# ---- the ring buffer -------------------------------------------------------------
fresh
$PDTRACE check --ringbuf-pages 1 -f json -o /tmp/rb.json -- sh -c "$snap && $burst"
expect_eq "$?" 3 "check --ringbuf-pages 1, burst: exit 3 (incomplete, no findings)"
has_map 27 4096 "--ringbuf-pages 1: the ring buffer is 4096 bytes"
lost=$(num /tmp/rb.json lost_events) made=$(made /tmp/rb.json /mnt/o)
positive "$lost" "lost_events"
expect_eq "$((${made:-0} + ${lost:-0}))" 3000 "each create seen or counted lost (made ${made:-0} + lost ${lost:-0})"
expect_grep '"complete":false,"lost_events":[1-9][0-9]*,"map_full":0' /tmp/rb.json '"complete":false, with the count'
expect_grep '"findings":\[\]' /tmp/rb.json "no findings made of the losses"
fresh
$PDTRACE check --ringbuf-pages=1 -- sh -c "cd /mnt/o && $burst" >/tmp/rb.txt 2>&1
expect_eq "$?" 3 "check --ringbuf-pages 1, burst, text report: exit 3"
expect_grep '^INCOMPLETE: [1-9][0-9]* events lost, 0 map insertions refused, 0 malformed events: findings may be missing$' \
	/tmp/rb.txt "the text report's INCOMPLETE line counts the events lost"
fresh
$PDTRACE check -f json -o /tmp/rbd.json -- sh -c "$snap && $burst"
expect_eq "$?" 0 "the same burst with the default sizes: exit 0"
expect_grep '"complete":true,"lost_events":0,"map_full":0' /tmp/rbd.json "the default sizes: complete data"
expect_eq "$(made /tmp/rbd.json /mnt/o)" 3000 "the default sizes: every create seen"
has_map 27 8388608 "default ring buffer: 8 MiB"
sed 's/^/memlock (map type, max_entries, bytes): /' /tmp/maps.txt

# ---- record, and report of its file ------------------------------------------------
fresh
$PDTRACE record --ringbuf-pages 1 -o /tmp/r1.pdtrec -- sh -c "cd /mnt/o && $burst" 2>/dev/null
expect_eq "$?" 3 "record --ringbuf-pages 1, burst: exit 3"
$PDTRACE report -f json /tmp/r1.pdtrec >/tmp/r1.json
expect_eq "$?" 3 "report of that recording: exit 3"
expect_grep '"complete":false,"lost_events":[1-9][0-9]*,"map_full":0' /tmp/r1.json "report: the events lost"
$PDTRACE report /tmp/r1.pdtrec >/tmp/r1.txt
expect_grep '^INCOMPLETE: [1-9][0-9]* events lost, 0 map insertions refused' /tmp/r1.txt "report, text: the events lost"

# ---- losses that look like findings ---------------------------------------------
# Entries whose removal was lost look pinned after umount. Such findings rest on an
# event that did not come: with data incomplete they are reported as such and do not
# make the exit status 1. The traced command stops the reader (pdtrace, its parent)
# while it makes the burst and removes it, last made first, so that the loss is
# certain: the page keeps the first few PERSISTs and the first few DISCARDs (of
# entries whose PERSIST it lost) and loses every other event. The reader then drains
# the page before the umount, whose PDT_EV_SB_DOWN must come for the rules to judge.
lossy='kill -STOP $PPID; cd /mnt/o && '"$burst"' && rmdir $(seq 3000 -1 1); kill -CONT $PPID; sleep 2; cd / && umount /mnt/o'
fresh
$PDTRACE check --ringbuf-pages 1 -f json -o /tmp/lk.json -- sh -c "$lossy"
expect_eq "$?" 3 "check --ringbuf-pages 1, reader stopped through a burst and its removal, then umount: exit 3, not 1"
absent=$(num /tmp/lk.json findings_by_absence)
positive "$absent" "findings_by_absence"
expect_eq "$(grep -o '"rule":"[a-z-]*"' /tmp/lk.json | grep -cv '"rule":"\(pinned-after-umount\|orphaned\|sb-balance\)"')" 0 \
	"every finding rests on an event that did not come"
expect_eq "$(grep -o '"rule":"[a-z-]*"' /tmp/lk.json | wc -l)" "$absent" "findings_by_absence counts them all"
fresh
$PDTRACE check --ringbuf-pages 1 -- sh -c "$lossy" >/tmp/lk.txt 2>&1
expect_eq "$?" 3 "the same, text report: exit 3"
expect_grep '^INCOMPLETE: [1-9][0-9]* findings rest on an event that did not come' /tmp/lk.txt \
	"the text report says which findings may be artifacts"

# ---- watch and trace -------------------------------------------------------------
# watch_run OPTIONS -- WORKLOAD: watch --json around WORKLOAD in /mnt/o, then SIGINT.
watch_run() {
	local opts=$1
	fresh
	$PDTRACE watch $opts --json -i 0.5 >/tmp/w.json 2>/tmp/w.err &
	wpid=$!
	for i in $(seq 1 200); do [ -s /tmp/w.json ] && break; sleep 0.1; done
	(cd /mnt/o && eval "$2")
	sleep 1.5
	kill -INT $wpid
	wait $wpid
}
watch_run "--ringbuf-pages 1" "$burst"
expect_eq "$?" 3 "watch --ringbuf-pages 1, burst: exit 3"
expect_grep '"lost_events":[1-9][0-9]*,"map_full":0,' /tmp/w.json "watch --json: the events lost"

fresh
$PDTRACE trace --ringbuf-pages 1 -f json -d 4 >/tmp/t.json 2>/tmp/t.err &
tpid=$!
for i in $(seq 1 200); do grep -q 'tracing persistent dentries' /tmp/t.err && break; sleep 0.1; done
(cd /mnt/o && eval "$burst")
wait $tpid
expect_eq "$?" 3 "trace --ringbuf-pages 1, burst: exit 3"
expect_grep '"complete":false,"lost_events":[1-9]' /tmp/t.json "trace's summary: the events lost"

# By default the burst and its umount go through one page whole: the BPF side keeps a
# user's entries and sends counts (and the self-check's walk pages itself).
fresh
env -u PDTRACE_TESTING $PDTRACE check --ringbuf-pages 1 -f json -o /tmp/el.json -- \
	sh -c "cd /mnt/o && $burst && cd / && umount /mnt/o"
expect_eq "$?" 0 "elided: --ringbuf-pages 1, burst and umount: exit 0"
expect_grep '"complete":true,"lost_events":0,"map_full":0,' /tmp/el.json "elided: nothing lost"
expect_grep '"made":3000,"discarded":0,"unpinned_at_umount":3000,"adopted":0,"persistent_now":0,' \
	/tmp/el.json "elided: exact books"
fresh
env -u PDTRACE_TESTING $PDTRACE check --ringbuf-pages 1 -f json -o /tmp/el2.json -- \
	sh -c "cd /mnt/o && $burst"
expect_eq "$?" 0 "elided: --ringbuf-pages 1, burst left mounted: exit 0"
expect_grep '"persistent_now":3000,.*"self_check":"consistent","check_entries":3000,' \
	/tmp/el2.json "elided: the self-check walks the 3000 entries through one page"

umount /mnt/o
expect_eq "$(kernel_complaints | wc -l)" "$before" "kernel warnings, BUGs, leaks in the log"
kernel_complaints | tail -n +"$((before + 1))"
finish
