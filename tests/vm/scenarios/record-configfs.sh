# A user's configfs groups under record: each mkdir is the user's (elided: the BPF side
# sends nothing for it), each rmdir a recursive removal of which that group is the root,
# its default groups the kernel's. The stream holds one REMOVAL and, for the elided
# root, one REMOVAL_END per rmdir, and no PERSIST sent late for a root (materialized);
# the report's books are exact and clean. pdt-recstat counts what the stream holds.
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
expect_eq "$(n removal)" "$N" "one REMOVAL per rmdir"
# The first group may be its superblock's first event, sent whole (not elided).
r=$(n removal-end)
[ -n "$r" ] && [ "$r" -ge $((N - 1)) ] && [ "$r" -le "$N" ] && pass "a REMOVAL_END for each elided root ($r)" ||
	fail "REMOVAL_END: '$r' for $N rmdirs"
expect_grep '^materialized 0$' /tmp/cg.stat "no root's PERSIST sent late"
finish
