# leak: outlives-module on a real unload. pdt_faultfs makes /pdt_faultfs/ and its state
# file in debugfs at load and removes them at unload: clean. With leave_debugfs=1 it
# also makes /pdt_faultfs_leftover and leaves it behind: exactly one finding, at that
# path, naming the module, with the creation stack; the kernel itself says nothing.
# record + report of the same run equals check.
# timeout: 180
# boot: own
# kmods: pdt_faultfs
. /lib.sh
ko=/lib/modules/pdt_faultfs.ko
grep -qs ' /sys/kernel/debug ' /proc/self/mountinfo || mount -t debugfs none /sys/kernel/debug
# init loaded it: begin unloaded, so that the load is seen.
rmmod pdt_faultfs
expect_eq "$?" 0 "rmmod of the module init loaded"
dbg=$(dev_of /sys/kernel/debug)

$PDTRACE check -f json -o /tmp/om0.json -- sh -c \
	"insmod $ko && cat /sys/kernel/debug/pdt_faultfs/state && rmmod pdt_faultfs"
expect_eq "$?" 0 "clean load and unload: check exits 0"
expect_grep '"findings":\[\]' /tmp/om0.json "clean: no finding"
expect_grep "\"fs_type\":\"debugfs\",\"s_id\":\"debugfs\",\"dev\":\"$dbg\",[^}]*\"made\":2,\"discarded\":2," \
	/tmp/om0.json "clean: debugfs made 2, discarded 2"

dmesg_mark outlives
: >/tmp/om.json
: >/tmp/om.pdtrec
$PDTRACE record -o /tmp/om.pdtrec -- $PDTRACE check -f json -o /tmp/om.json -- sh -c \
	"insmod $ko leave_debugfs=1 && rmmod pdt_faultfs"
rs=$?
cat /tmp/om.json; echo
expect_eq "$rs" 0 "leftover: record exits 0 (its data is complete)"
expect_eq "$(grep -o '"kind":"' /tmp/om.json | wc -l)" 1 "leftover: exactly one finding"
expect_grep "\"kind\":\"leak\",\"rule\":\"outlives-module\",\"fs_type\":\"debugfs\",\"s_id\":\"debugfs\",\"dev\":\"$dbg\",\"path\":\"/pdt_faultfs_leftover\",\"origin\":\"kernel\"" \
	/tmp/om.json "leftover: leak/outlives-module at /pdt_faultfs_leftover"
expect_grep '"module":"pdt_faultfs"' /tmp/om.json "leftover: the module is named"
expect_grep '"comm":"rmmod"' /tmp/om.json "leftover: found at rmmod"
expect_grep '"created_stack":\["[^]]*debugfs_create_file' /tmp/om.json \
	"leftover: the creation stack goes through debugfs_create_file()"
expect_grep '"created_by":{"pid":[0-9]*,"comm":"insmod"}' /tmp/om.json "leftover: made by insmod"
expect_grep '"created_stack":\["[^]]*"(init_text)+0x[0-9a-f]* \[pdt_faultfs\]","do_one_initcall' /tmp/om.json \
	"leftover: made from the module's init text, its frame named after the module"
[ -e /sys/kernel/debug/pdt_faultfs_leftover ] && pass "the kernel keeps the leftover file" ||
	fail "the leftover file is gone"
[ -e /sys/kernel/debug/pdt_faultfs ] && fail "/pdt_faultfs is still there" ||
	pass "/pdt_faultfs went with the module"
dmesg_since outlives >/tmp/om.log
show_kernel_lines /tmp/om.log
expect_no_grep 'WARNING\|BUG\|pdt_faultfs_leftover' /tmp/om.log "the kernel says nothing"
$PDTRACE report -f json -o /tmp/om-r.json /tmp/om.pdtrec
same_report /tmp/om.json /tmp/om-r.json "$?" leftover
expect_eq "$(cmd_status /tmp/om-r.json)" 1 "leftover: check exited 1 (its status, recorded)"
$PDTRACE report /tmp/om.pdtrec >/tmp/om-r.txt 2>&1
expect_grep '^leak: outlives-module: debugfs .* /pdt_faultfs_leftover$' /tmp/om-r.txt "text report: the finding"
expect_grep 'made by module pdt_faultfs and still persistent after pdt_faultfs was unloaded' \
	/tmp/om-r.txt "text report: its message"
finish
