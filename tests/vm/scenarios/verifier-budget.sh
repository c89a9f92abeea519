# What the verifier checks when pdtrace starts, against a budget: every program's
# verified_insns (its fdinfo) summed, and the dispatcher's alone. That work is most of start
# to attached (docs/overhead.md), and a change to the BPF side can multiply it unseen: a
# bpf_loop() callback the verifier must check again at many turns, a loop unrolled at each
# of its callers. Counts, not times: the same programs on the same kernel verify the same.
# The budgets are this kernel's counts when they were set and about a quarter more; a
# change that needs more raises them here, on purpose. They hold for Debian's x86-64
# kernel of the suite (another verifier counts otherwise): elsewhere the scenario skips.
# timeout: 300
. /lib.sh
ref=7.2.13+deb14-amd64
total_budget=35000
dispatcher_budget=17500
if [ "$(uname -r)" != "$ref" ]; then
	echo "SKIP: the budgets are $ref's; this is $(uname -r)"
	exit 77
fi
$PDTRACE trace >/tmp/vb.out 2>/tmp/vb.err &
p=$!
for i in $(seq 1 600); do
	grep -q 'tracing persistent dentries' /tmp/vb.err && break
	sleep 0.1
done
# "TAG INSNS" for each program descriptor of pdtrace's (a link's fdinfo names its
# program's tag too, but has no verified_insns), and the dispatcher's tag (its kallsyms
# name is bpf_prog_TAG_dispatch_entry), both while it runs.
for f in /proc/$p/fdinfo/*; do
	awk '/^prog_tag:/ { t = $2 } /^verified_insns:/ { v = $2 } END { if (t != "" && v != "") print t, v }' "$f"
done >/tmp/vb.progs
disp=$(awk '$3 ~ /^bpf_prog_[0-9a-f]+_dispatch_entry$/ { sub(/^bpf_prog_/, "", $3); sub(/_dispatch_entry$/, "", $3); print $3; exit }' /proc/kallsyms)
kill -INT $p
wait $p
expect_eq "$?" 0 "trace exits 0"
progs=$(wc -l </tmp/vb.progs)
total=$(awk '{ s += $2 } END { print s + 0 }' /tmp/vb.progs)
dinsns=$(awk -v t="$disp" '$1 == t { print $2; exit }' /tmp/vb.progs)
echo "verified instructions: $total in $progs programs, the dispatcher (dispatch_entry) ${dinsns:-?}"
if [ "$progs" -ge 10 ]; then pass "$progs programs read"; else fail "only $progs BPF programs in pdtrace's fdinfo"; fi
if [ "$total" -gt 0 ] && [ "$total" -le $total_budget ]; then
	pass "all programs: $total verified instructions, at most $total_budget"
else
	fail "all programs: $total verified instructions, budget $total_budget"
fi
if [ -n "$dinsns" ] && [ "$dinsns" -gt 0 ] && [ "$dinsns" -le $dispatcher_budget ]; then
	pass "the dispatcher: $dinsns verified instructions, at most $dispatcher_budget"
else
	fail "the dispatcher: '${dinsns}' verified instructions (tag '$disp'), budget $dispatcher_budget"
fi
finish
