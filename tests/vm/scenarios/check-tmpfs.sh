# pdtrace check on a clean tmpfs workload: zero findings, exact books, exit 0; and the
# command-line contract of check (bad COMMAND, bad output path) on the real kernel.
# timeout: 120
. /lib.sh
mkdir -p /mnt/t
# 5 entries made (a, a/b, a/f, a/l, a/h hard link), f renamed to /g, l and b removed,
# a/h unlinked: 3 discarded; a and g are left for the umount to unpin.
wl='mount -t tmpfs ck /mnt/t && mkdir -p /mnt/t/a/b && echo x >/mnt/t/a/f &&
	ln -s f /mnt/t/a/l && ln /mnt/t/a/f /mnt/t/a/h && mv /mnt/t/a/f /mnt/t/g &&
	rm /mnt/t/a/l /mnt/t/a/h && rmdir /mnt/t/a/b && umount /mnt/t'
$PDTRACE check -f json -o /tmp/ck.json -- sh -c "$wl"
expect_eq "$?" 0 "check exit status on a clean workload"
cat /tmp/ck.json; echo
sb=$(sed 's/.*"superblocks":\[\([^]]*\)\].*/\1/' /tmp/ck.json)
expect_grep '"fs_type":"tmpfs","s_id":"tmpfs"' /tmp/ck.json "tmpfs superblock reported"
for kv in '"mountpoint":"/mnt/t"' '"made":5' '"discarded":3' '"unpinned_at_umount":2' \
	'"persistent_now":0' '"unmounted":true' '"findings":0'; do
	case "$sb" in *"$kv"*) pass "superblock $kv" ;; *) fail "superblock lacks $kv" ;; esac
done
expect_grep '"findings":\[\],' /tmp/ck.json "no findings"
expect_grep '"summary":{"leak":0,"imbalance":0,"illegal-removal":0}' /tmp/ck.json "a summary of none"
expect_grep '"complete":true,"lost_events":0' /tmp/ck.json "complete data"
expect_grep '"command":{"argv":\["sh","-c",' /tmp/ck.json "command recorded"

# The command's failure is reported, not confused with findings.
$PDTRACE check -- sh -c 'exit 3' >/tmp/ck3.txt 2>&1
expect_eq "$?" 0 "check exit status when the command fails but nothing is found"
expect_grep '^command: sh exited with status 3$' /tmp/ck3.txt "command status in the text report"

# A COMMAND that does not exist: one line, exit 2.
$PDTRACE check -- /no/such/cmd >/tmp/ck4.out 2>/tmp/ck4.err
expect_eq "$?" 2 "check exit status for a missing command"
expect_eq "$(wc -l </tmp/ck4.err)" 1 "one error line for a missing command"
expect_grep "cannot run '/no/such/cmd': No such file or directory" /tmp/ck4.err "missing command named"

# An output path that cannot be written: one line, exit 2, before anything runs.
$PDTRACE check -o /no/such/dir/r.json -- touch /tmp/ran >/dev/null 2>/tmp/ck5.err
expect_eq "$?" 2 "check exit status for an unwritable output"
[ ! -e /tmp/ran ] && pass "command not run when the output cannot be written" || fail "command ran"
expect_grep "cannot write '/no/such/dir/r.json'" /tmp/ck5.err "unwritable output named"
finish
