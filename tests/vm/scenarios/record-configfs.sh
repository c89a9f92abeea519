# A user's configfs groups under record: each mkdir is the user's (elided: the BPF side
# sends nothing for it), its default groups the kernel's (elided too, with their creation
# stack kept on the BPF side), each rmdir a recursive removal of which that group is the
# root. Nothing in those removals is streamed, so neither is their start (REMOVAL) nor
# their end (REMOVAL_END): the stream holds the superblock's first group, sent whole, the
# elided counts and the self-check's walk, no PERSIST sent late (materialized), and the
# report's books are exact and clean. pdt-recstat counts what the stream holds.
# timeout: 180
# modules: nvmet
. /lib.sh
grep -qs ' /sys/kernel/config ' /proc/self/mountinfo || mount -t configfs none /sys/kernel/config
s=/sys/kernel/config/nvmet/subsystems
N=20
: >/tmp/cg.pdtrec
$PDTRACE record -o /tmp/cg.pdtrec -- sh -c "for i in \$(seq $N); do mkdir $s/rc\$i && rmdir $s/rc\$i || exit 1; done"
expect_eq "$?" 0 "record of $N configfs mkdir + rmdir"
$PDTRACE report -f json /tmp/cg.pdtrec >/tmp/cg.json
expect_eq "$?" 0 "report: no findings, complete"
expect_grep '"complete":true,"lost_events":0,"map_full":0,"malformed_events":0' /tmp/cg.json \
	"report: complete, nothing malformed"
made=$(sed -n 's/.*"fs_type":"configfs"[^}]*"made":\([0-9]*\),"discarded":\([0-9]*\),.*/\1 \2/p' /tmp/cg.json)
set -- $made
[ -n "$1" ] && [ "$1" -ge $((2 * N)) ] && [ "$1" = "$2" ] && pass "configfs books: made $1, discarded $2" ||
	fail "configfs books: made/discarded '$made'"
pdt-recstat /tmp/cg.pdtrec >/tmp/cg.stat
expect_eq "$?" 0 "pdt-recstat walks the recording"
cat /tmp/cg.stat
n() { awk -v t="$1" '$2 == t { print $3 }' /tmp/cg.stat; }
expect_eq "$(n removal)" "" "no REMOVAL: no removal destroyed anything streamed"
expect_eq "$(n removal-end)" "" "no REMOVAL_END: no removal's start was sent"
# The first group is its superblock's first event, sent whole (not elided), and so is
# its discard; every other group and every default group is counted, not streamed.
p=$(n persist) d=$(n discard)
[ "${p:-0}" -le 1 ] && [ "${d:-0}" -le 1 ] && pass "PERSIST $p, DISCARD $d: the first group's at most" ||
	fail "PERSIST '$p', DISCARD '$d' for $N groups and their default groups"
e=$(n elided)
[ -n "$e" ] && [ "$e" -ge 1 ] && pass "the counts came as ELIDED events ($e)" || fail "ELIDED: '$e'"
expect_grep '^materialized 0$' /tmp/cg.stat "no PERSIST sent late"
finish
