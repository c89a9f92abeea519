# pdtrace check -f kcidb on the real kernel: KCIDB I/O data (schema v5.3) whose objects
# are well formed as far as the guest can tell (strict JSON, every path, status, id and origin as the
# schema allows, no null, one line), with the kernel release uname -r gives, a clean
# tmpfs superblock passing, pdtfaultfs's superblock and its orphaned finding failing, at
# paths without a device number: the same paths again after a remount gave the
# superblocks new ones. tests/host/kcidb_check.py validates it against the schema on the
# host (run.sh --results DIR brings back /results/pdtrace-kcidb.json). The text report:
# the kernel release, and configfs_rmdir()'s coverage line only when configfs came.
# It unloads configfs first, which the modules loaded for the other scenarios keep in
# when the whole suite shares one initramfs: run it alone, tests/vm/run.sh check-kcidb.
# suite: kcidb
# timeout: 180
# boot: own
# modules: nvmet
# kmods: pdt_faultfs
. /lib.sh
rel=$(uname -r)
m=/mnt/kc
t=/mnt/kt
mkdir -p $t
# configfs and nvmet's other modules out: configfs_rmdir() cannot be hooked at start.
cfg=$(sed -n 's/\.ko$//p' /lib/modules/load-order | grep -v '^pdt_faultfs$')
mods_out $cfg
grep -qw configfs /proc/filesystems && fail "configfs is still registered"
grep -q ' configfs_rmdir' /proc/kallsyms && fail "configfs_rmdir() is still in the kernel"

wl="mount -t tmpfs kt $t && mkdir $t/a && echo x >$t/a/f && umount $t && echo orphan od >$m/ctl"
# kcidb FILE: check -f kcidb of the workload, and what a shell can check of it.
kcidb() {
	$PDTRACE check -f kcidb -o "$1" -- sh -c "$wl"
	expect_eq "$?" 1 "check -f kcidb exits 1 on the orphan"
	cat "$1"
	expect_eq "$(wc -l <"$1")" 1 "one line of JSON"
	pdt-jsonck "$1" && pass "valid JSON (pdt-jsonck)" || fail "not valid JSON"
	expect_grep '^{"version":{"major":5,"minor":3},"checkouts":\[{"id":"pdtrace:[0-9a-f]*","origin":"pdtrace"' "$1" "KCIDB v5.3, a checkout of origin pdtrace"
	expect_grep ',"builds":\[{"id":"pdtrace:[0-9a-f]*","checkout_id":"pdtrace:[0-9a-f]*","origin":"pdtrace"' "$1" "a build of that checkout"
	expect_no_grep ':null' "$1" "no null (the schema allows none)"
	grep -o '"origin":"pdtrace","path":"[^"]*"' "$1" | cut -d'"' -f8 >/tmp/kc.paths
	grep -o '"status":"[^"]*"' "$1" | cut -d'"' -f4 >/tmp/kc.status
	grep -o '"\(id\|build_id\|checkout_id\)":"[^"]*"' "$1" | cut -d'"' -f4 >/tmp/kc.ids
	n=$(grep -o '"build_id":' "$1" | wc -l)
	[ "$n" -ge 4 ] && pass "$n tests" || fail "$n tests, want 4 or more"
	expect_eq "$(wc -l </tmp/kc.paths)" "$n" "a path per test"
	expect_eq "$(grep -cvE '^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$' /tmp/kc.paths)" 0 "every path as the schema allows"
	expect_eq "$(grep -cvxE 'FAIL|ERROR|MISS|PASS|DONE|SKIP' /tmp/kc.status)" 0 "every status one of the schema's"
	expect_eq "$(grep -cvE '^[a-z0-9_]+:' /tmp/kc.ids)" 0 "every id starts with an origin and a colon"
	expect_eq "$(grep -o '"origin":"[^"]*"' "$1" | sort -u)" '"origin":"pdtrace"' "origin pdtrace throughout"
	expect_eq "$(grep -o "\"kernel_release\":\"$rel\"" "$1" | wc -l)" $((n + 2)) "the kernel release in the checkout, the build and every test's environment"
	expect_grep '"architecture":"x86_64"\|"architecture":"aarch64"' "$1" "the build's architecture"
	expect_grep '"path":"pdtrace.complete_data","status":"PASS"' "$1" "complete data passes"
	expect_grep '"path":"pdtrace.tmpfs.superblock.mnt_kt","status":"PASS".*"comment":"tmpfs /mnt/kt"' "$1" "the clean tmpfs passes, named by its mountpoint"
	expect_grep '"path":"pdtrace.pdtfaultfs.superblock.mnt_kc","status":"FAIL".*"comment":"pdtfaultfs /mnt/kc"' "$1" "pdtfaultfs's superblock fails"
	expect_grep '"path":"pdtrace.pdtfaultfs.leak.orphaned","status":"FAIL","environment":.*"misc":{"superblock":"pdtfaultfs /mnt/kc","path":"/od/child","fate":"new","signature":"[0-9a-f]\{16\}"' "$1" "the orphaned finding fails, with its path and signature"
}

faultfs_mount $m || finish
dev1=$(dev_of $m)
kcidb /tmp/kc1.json
cp /tmp/kc.paths /tmp/kc1.paths
cp /tmp/kc1.json /results/pdtrace-kcidb.json 2>/dev/null
# Another superblock, another device number (a tmpfs takes the one freed first): the
# same tests.
faultfs_umount $m
mkdir -p /mnt/kp && mount -t tmpfs kp /mnt/kp
faultfs_mount $m || finish
dev2=$(dev_of $m)
[ "$dev1" != "$dev2" ] && pass "remounted with another device number: $dev1, then $dev2" ||
	fail "remounted with the same device number $dev2: the test proves nothing"
kcidb /tmp/kc2.json
expect_eq "$(cat /tmp/kc.paths)" "$(cat /tmp/kc1.paths)" "the same test paths after the remount"
expect_no_grep "\"comment\":\"pdtfaultfs [^\"]*$dev2" /tmp/kc2.json "no device number in the superblock's name"
faultfs_umount $m
umount /mnt/kp
faultfs_mount $m || finish

# Text: the kernel release; no configfs coverage line for a run configfs never saw (the
# JSON report still lists the hook), and the line when configfs came during the run.
$PDTRACE check -o /tmp/kc.txt -- sh -c "mount -t tmpfs kt $t && mkdir $t/a && umount $t"
expect_eq "$?" 0 "check of a clean tmpfs exits 0"
cat /tmp/kc.txt
expect_grep "^kernel: $rel\$" /tmp/kc.txt "the text report names the kernel release"
expect_no_grep '^coverage: configfs_rmdir()' /tmp/kc.txt "no configfs coverage line: configfs never came"
$PDTRACE check -f json -o /tmp/kc.json -- true
expect_grep '"coverage_lost":\[[^]]*configfs_rmdir() not traceable here' /tmp/kc.json "the JSON report lists the hook"
kos=$(for x in $cfg; do mods_ko "$x"; done | tr '\n' ' ')
$PDTRACE check -o /tmp/kc-cfg.txt -- sh -c "for k in $kos; do insmod \$k || exit 1; done
	mount -t configfs none /sys/kernel/config && mkdir /sys/kernel/config/nvmet/hosts/kc &&
	rmdir /sys/kernel/config/nvmet/hosts/kc && umount /sys/kernel/config"
expect_eq "$?" 0 "check of a configfs workload that loads configfs exits 0"
cat /tmp/kc-cfg.txt
expect_grep '^configfs ' /tmp/kc-cfg.txt "the configfs superblock is in the table"
expect_grep '^coverage: configfs_rmdir() not traceable here: lost illegal-removal of configfs directories$' /tmp/kc-cfg.txt "configfs came unhooked: its coverage line"
faultfs_umount $m
finish
