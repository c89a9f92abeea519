# The self-check: before it detaches, check walks every traced tree-in-dcache filesystem
# still mounted and compares it with its books. A clean run with renames of every kind
# says so ("self_check":"consistent"); the same run with the rename hook left out
# (PDTRACE_TESTING=omit-hooks, a testing aid: a kernel path pdtrace would not know) must be
# reported inconsistent, incomplete, exit 3, in every format: never silently accepted.
# timeout: 180
. /lib.sh
m=/mnt/sc
mkdir -p $m && mount -t tmpfs sc $m || { fail "mount tmpfs"; finish; }
dev=$(dev_of $m)
# Directories with children swapped across parents, a subtree renamed, a file over a file:
# 11 made, 1 discarded (the victim o2), 10 left for the walk.
wl="mkdir -p $m/p1/a/x $m/p2/b/y && touch $m/p1/a/f $m/p2/b/g &&
	pdt-fsop rename $m/p1/a $m/p2/b exchange && mv $m/p2 $m/q && touch $m/q/b/h &&
	echo 1 >$m/o1 && echo 2 >$m/o2 && mv $m/o1 $m/o2"
run() { # name env...
	local name=$1; shift
	env "$@" $PDTRACE check -f json -o /tmp/sc-$name.json -- sh -c "$wl" >/tmp/sc-$name.out 2>&1
	echo $? >/tmp/sc-$name.rc
	rm -rf $m/*
	env "$@" $PDTRACE check -- sh -c "$wl" >/tmp/sc-$name.txt 2>&1
	echo $? >>/tmp/sc-$name.rc
	cat /tmp/sc-$name.json; echo; cat /tmp/sc-$name.txt
}
run clean
expect_eq "$(tr '\n' ' ' </tmp/sc-clean.rc)" "0 0 " "check exits 0 on a clean run (JSON, text)"
expect_grep '"made":11,"discarded":1,"unpinned_at_umount":0,"adopted":0,"persistent_now":10,' /tmp/sc-clean.json "JSON: exact books"
expect_grep '"self_check":"consistent","check_entries":10,"check_differences":0,' /tmp/sc-clean.json "JSON: tree walked, consistent"
expect_grep '"complete":true' /tmp/sc-clean.json "JSON: complete"
expect_grep '"inconsistent_superblocks":0' /tmp/sc-clean.json "JSON: no inconsistent superblock"
expect_grep "^self-check: 1 mounted superblock walked, the books match the kernel (10 entries)$" /tmp/sc-clean.txt \
	"text: the walk's line, every entry the run left"
expect_no_grep 'INCONSISTENT' /tmp/sc-clean.txt "text: no inconsistency"
rm -rf $m/*

# A rename missed: the books keep each streamed entry's place (every entry streamed here;
# an elided one has no place in the books until it is sent, read from the kernel then).
run broken "PDTRACE_TESTING=no-elide omit-hooks=__d_move"
cat /tmp/sc-broken.out
expect_eq "$(tr '\n' ' ' </tmp/sc-broken.rc)" "3 3 " "check exits 3 when the books are wrong (JSON, text)"
expect_grep '"self_check":"inconsistent"' /tmp/sc-broken.json "JSON: inconsistent"
expect_grep '"complete":false' /tmp/sc-broken.json "JSON: incomplete"
expect_grep '^INCONSISTENT: self-check of tmpfs '"$dev"': [0-9]* of the 10 entries the books hold differ' \
	/tmp/sc-broken.txt "text: the INCONSISTENT line"
rm -rf $m/*
# A discard missed: the victim o2 stays in the BPF side's set of elided entries, and the
# walk finds one entry fewer than the set holds. Streamed: p1 (the superblock's first),
# a, b and p2 (directories with entries below them, sent when they moved); the 7 others
# are elided.
run lost PDTRACE_TESTING=omit-hooks=d_make_discardable
cat /tmp/sc-lost.out
expect_eq "$(tr '\n' ' ' </tmp/sc-lost.rc)" "3 3 " "check exits 3 when an elided entry went unseen (JSON, text)"
expect_grep '"self_check":"inconsistent","check_entries":10,"check_differences":1,"check_first":"/: 7 entries kept by the BPF side, 6 in the kernel"' \
	/tmp/sc-lost.json "JSON: inconsistent, the count of elided entries named"
expect_grep '^INCONSISTENT: self-check of tmpfs '"$dev"': 1 of the 10 entries the books hold differ' \
	/tmp/sc-lost.txt "text: the INCONSISTENT line (elided entries)"
$PDTRACE check -f junit -- true >/dev/null 2>&1
rm -rf $m/*
PDTRACE_TESTING=omit-hooks=d_make_discardable $PDTRACE check -f junit -o /tmp/sc.xml -- sh -c "$wl"
expect_eq "$?" 3 "check -f junit exits 3"
expect_grep 'superblocks whose books differ from the kernel' /tmp/sc.xml "JUnit: the complete-data failure says why"
rm -rf $m/*
# Switched off, nothing is walked.
$PDTRACE check --no-self-check -f json -o /tmp/sc-off.json -- sh -c "$wl"
expect_eq "$?" 0 "--no-self-check: exit 0"
expect_grep '"self_check":"not checked"' /tmp/sc-off.json "--no-self-check: not checked"
umount $m
finish
