# pdtrace check against pdtfaultfs: each injected bug gives exactly its finding (kind,
# rule, path, origin), check exits 1, and where the kernel has a WARN for it the
# kernel's log agrees. A clean run of the same filesystem gives none.
# timeout: 240
# kmods: pdt_faultfs
# The kernel's WARN in d_make_discardable() at each discard-unpersisted fault (tests/vm/run.sh).
# expect-kernel: WARNING: fs/dcache\.c:[0-9]+ at d_make_discardable\+
. /lib.sh
m=/mnt/fck
faultfs_mount $m || finish
dev=$(dev_of $m)

# fault NAME SHELL-COMMAND: run it under check; the JSON report is /tmp/NAME.json
fault() { # NAME COMMAND [CHECK OPTIONS]
	dmesg_mark "$1"
	$PDTRACE check ${3:-} -f json -o "/tmp/$1.json" -- sh -c "$2"
	echo $? >"/tmp/$1.rc"
	dmesg_since "$1" >"/tmp/$1.log"
}
# finding NAME KIND RULE PATH ORIGIN: the report has exactly one finding, this one.
finding() {
	local j=/tmp/$1.json
	expect_eq "$(cat "/tmp/$1.rc")" 1 "$1: check exits 1"
	expect_eq "$(grep -o '"kind":"' "$j" | wc -l)" 1 "$1: exactly one finding"
	expect_grep "\"kind\":\"$2\",\"rule\":\"$3\",\"fs_type\":\"pdtfaultfs\",\"s_id\":\"pdtfaultfs\",\"dev\":\"$dev\",\"path\":\"$4\",\"origin\":\"$5\"" "$j" "$1: $2/$3 at $4 ($5)"
	[ "$5" = unknown ] ||
		expect_grep '"created_stack":\["d_make_persistent+' "$j" "$1: creation stack symbolized" 
}

# A clean workload first: user entries of every kind, the kernel subtree untouched.
fault clean "mkdir $m/d && echo x >$m/d/f && ln -s f $m/d/l && ln $m/d/f $m/d/h && mv $m/d/h $m/g && rm -r $m/d $m/g"
expect_eq "$(cat /tmp/clean.rc)" 0 "clean: check exits 0"
expect_grep '"findings":\[\]' /tmp/clean.json "clean: no findings"
expect_grep '"made":4,"discarded":4' /tmp/clean.json "clean: 4 made (d, d/f, d/l, d/h), 4 discarded"

# User entries the BPF side kept to itself (elided), their directory renamed, then removed
# by the kernel: each finding has its path after the rename and its creator.
fault moved "mkdir -p $m/ma/b && echo x >$m/ma/b/f && mv $m/ma $m/mc && echo remove mc >$m/ctl"
expect_eq "$(cat /tmp/moved.rc)" 1 "moved: check exits 1"
expect_eq "$(grep -o '"rule":"user-entry-removed"' /tmp/moved.json | wc -l)" 2 "moved: b and f destroyed, nothing else"
expect_grep '"path":"/mc/b/f","origin":"user"' /tmp/moved.json "moved: f at its path after the rename"
expect_grep '"path":"/mc/b","origin":"user"' /tmp/moved.json "moved: b at its path after the rename"
expect_grep '"created_by":{"pid":[0-9]*,"comm":"mkdir"}' /tmp/moved.json "moved: b made by mkdir"
expect_grep '"made":3,"discarded":3,' /tmp/moved.json "moved: 3 made (ma, b, f), 3 discarded"

fault discard "echo discard-unpersisted nx >$m/ctl"
finding discard imbalance discard-unpersisted /nx unknown
expect_grep '"refcount":1' /tmp/discard.json "discard: refcount 1 on entry"
expect_grep 'WARNING: fs/dcache.c:[0-9]* at d_make_discardable' /tmp/discard.log "discard: the kernel WARNs too"
expect_grep '"stack":\["d_make_discardable+0x[0-9a-f]*","pdt_discard_unpersisted+' /tmp/discard.json "discard: stack starts in d_make_discardable, our frames hidden"

fault twice "echo persist-twice tw >$m/ctl"
finding twice imbalance persist-twice /tw kernel
expect_no_grep 'WARNING' /tmp/twice.log "twice: the kernel has no WARN for it"

# dput() is hooked on request only: the fault gives the reference back at once, so that
# nothing but the hook on dput() itself sees it.
fault dput "echo extra-dput xd >$m/ctl" --dput
finding dput imbalance dput-persistence-ref /xd kernel
expect_grep '"refcount":1' /tmp/dput.json "dput: refcount 1 on entry"

fault orphan "echo orphan od >$m/ctl"
finding orphan leak orphaned /od/child kernel
expect_grep 'after its parent /od was discarded' /tmp/orphan.json "orphan: names the parent"

# A user-created entry below the kernel's kdir, then the kernel removes kdir.
fault removal "mkdir $m/kdir/u && touch $m/kdir/u/f && echo remove kdir >$m/ctl"
expect_eq "$(cat /tmp/removal.rc)" 1 "removal: check exits 1"
expect_eq "$(grep -o '"rule":"user-entry-removed"' /tmp/removal.json | wc -l)" 2 "removal: two user entries destroyed"
expect_grep '"kind":"illegal-removal","rule":"user-entry-removed","fs_type":"pdtfaultfs","s_id":"pdtfaultfs","dev":"'"$dev"'","path":"/kdir/u/f","origin":"user"' /tmp/removal.json "removal: /kdir/u/f"
expect_grep '"path":"/kdir/u","origin":"user"' /tmp/removal.json "removal: /kdir/u"
expect_grep 'recursive removal of /kdir' /tmp/removal.json "removal: names the removal root"
expect_no_grep '"path":"/kdir/kfile"' /tmp/removal.json "removal: kernel entries are fine"
# The stack is the removal's, from where it started (one unwind per removal).
expect_grep '"path":"/kdir/u/f","origin":"user",[^}]*"stack":\["simple_recursive_removal+0x[0-9a-f]*","pdt_remove+' \
	/tmp/removal.json "removal: the finding shows where the removal started"
# User-made entries keep who made them, not the kernel stack (unless --user-stacks).
expect_grep '"path":"/kdir/u/f","origin":"user",[^}]*"created_stack":\[\],"created_by":{"pid":[0-9]*,"comm":"touch"}' \
	/tmp/removal.json "removal: /kdir/u/f made by touch, no creation stack kept"
# The same with the marks made by kprobe.multi, as where the BPF LSM is off: every kind of
# user entry (mkdir, create, mknod, symlink, link) keeps its origin.
umount $m && faultfs_mount $m && dev=$(dev_of $m)
PDTRACE_TESTING=no-lsm $PDTRACE -v check -f json -o /tmp/nolsm.json -- sh -c "mkdir $m/kdir/u && touch $m/kdir/u/f &&
	mknod $m/kdir/u/p p && ln -s f $m/kdir/u/s && ln $m/kdir/u/f $m/kdir/u/h && echo remove kdir >$m/ctl" \
	2>/tmp/nolsm.err
expect_eq "$?" 1 "marks by kprobe.multi: check exits 1"
expect_grep 'origin marks by kprobe.multi$' /tmp/nolsm.err "marks by kprobe.multi: as asked"
expect_eq "$(grep -o '"rule":"user-entry-removed"' /tmp/nolsm.json | wc -l)" 5 \
	"marks by kprobe.multi: the five user entries destroyed"
for e in u u/f u/p u/s u/h; do
	expect_grep "\"path\":\"/kdir/$e\",\"origin\":\"user\"" /tmp/nolsm.json "marks by kprobe.multi: /kdir/$e made by the user"
done
umount $m && faultfs_mount $m && dev=$(dev_of $m)
$PDTRACE check --user-stacks -f json -o /tmp/ustk.json -- sh -c "mkdir $m/kdir/u && touch $m/kdir/u/f && echo remove kdir >$m/ctl"
expect_eq "$?" 1 "--user-stacks: check exits 1"
expect_grep '"path":"/kdir/u","origin":"user",[^}]*"created_stack":\["d_make_persistent+[^}]*"vfs_mkdir+' /tmp/ustk.json \
	"--user-stacks: the creation stack of /kdir/u, from d_make_persistent through vfs_mkdir"

# A path 100 levels deep (over 500 bytes: the BPF side sends 24 levels and 255 bytes):
# every finding's path whole, in JSON and in text.
umount $m && faultfs_mount $m && dev=$(dev_of $m)
deep=/kdir$(i=1; while [ $i -le 100 ]; do printf '/n%d' $i; i=$((i + 1)); done)
fault deep "mkdir -p $m$deep && echo remove kdir >$m/ctl"
expect_eq "$(cat /tmp/deep.rc)" 1 "deep: check exits 1"
expect_eq "$(grep -o '"rule":"user-entry-removed"' /tmp/deep.json | wc -l)" 100 "deep: 100 user entries destroyed"
expect_eq "$(grep -o "\"path\":\"$deep\"" /tmp/deep.json | wc -l)" 1 "deep: the deepest path whole (${#deep} bytes)"
umount $m && faultfs_mount $m && dev=$(dev_of $m)
$PDTRACE check -o /tmp/deep.txt -- sh -c "mkdir -p $m$deep && echo remove kdir >$m/ctl" >/dev/null 2>&1
expect_eq "$(grep -c "^illegal-removal: user-entry-removed: pdtfaultfs $dev $deep\$" /tmp/deep.txt)" 1 "deep: whole in the text report"

# A legitimate removal of a kernel-only subtree (on a fresh mount) finds nothing.
umount $m && faultfs_mount $m && dev=$(dev_of $m)
fault kremove "echo remove kdir >$m/ctl"
expect_eq "$(cat /tmp/kremove.rc)" 0 "kernel-only removal: check exits 0"

umount $m && faultfs_mount $m && dev=$(dev_of $m)
fault dead "echo create-in-dead kdir >$m/ctl"
finding dead illegal-removal create-in-dead-dir /kdir/late kernel

# --fail-on narrows what fails the gate; the findings are still reported.
$PDTRACE check --fail-on leak -f json -o /tmp/failon.json -- sh -c "echo discard-unpersisted ny >$m/ctl"
expect_eq "$?" 0 "--fail-on leak: an imbalance does not fail the gate"
expect_grep '"rule":"discard-unpersisted"' /tmp/failon.json "--fail-on leak: still reported"

# JUnit: one test case per superblock, one failure per finding.
$PDTRACE check --dput -f junit -o /tmp/j.xml -- sh -c "echo extra-dput xe >$m/ctl"
expect_eq "$?" 1 "junit: check exits 1"
# Named by fs type and mountpoint, the same on every boot (a device number is not).
expect_grep '<testcase classname="pdtrace.pdtfaultfs" name="pdtfaultfs '"$m"'">' /tmp/j.xml "junit: superblock test case"
expect_grep '<failure type="imbalance" message="dput-persistence-ref: /xe">' /tmp/j.xml "junit: failure"
# KTAP (the host's tests run the kernel's parser on it): the finding's diagnostic
# lines, then the superblock's failed test point.
$PDTRACE check --dput -f ktap -o /tmp/k.ktap -- sh -c "echo extra-dput xk >$m/ctl"
expect_eq "$?" 1 "ktap: check exits 1"
expect_grep '^KTAP version 1$' /tmp/k.ktap "ktap: header"
expect_grep '^ok 1 complete data$' /tmp/k.ktap "ktap: complete data"
expect_grep '^# imbalance: dput-persistence-ref: pdtfaultfs '"$dev"' /xk$' /tmp/k.ktap "ktap: the finding's diagnostic"
expect_grep '^not ok [0-9]* pdtfaultfs '"$m"'$' /tmp/k.ktap "ktap: the superblock's test point fails"
umount $m
finish
