# Modules loaded and unloaded the ways users do, under one check: exact configfs books
# and no finding. nvmet, nvmet-tcp, nvme-loop and null_blk each register a configfs
# subsystem from their init (its default groups are the kernel's, made from the init
# text, which is freed when the init returns; the next module loaded may take that
# memory), and remove it in their exit: nothing outlives its module.
# - a configuration (a subsystem and a loop port, a null_blk device), cleared, then one
#   rmmod of all four in the order modprobe -r takes them;
# - loaded in another order and unloaded one by one, the core module last;
# - the same module loaded and unloaded twice in a row.
# The modules init loaded are unloaded first, so that each load is seen, and loaded again
# at the end for the scenarios after this one.
# timeout: 300
# modules: nvmet nvme-loop nvmet-tcp null_blk
. /lib.sh
cfs=/sys/kernel/config
grep -qs " $cfs " /proc/self/mountinfo || mount -t configfs none $cfs
grep -qs ' /sys/kernel/debug ' /proc/self/mountinfo || mount -t debugfs none /sys/kernel/debug
ours="nvme_loop nvmet_tcp nvmet null_blk"
mods_out $ours
expect_eq "$?" 0 "rmmod of what init loaded"
for m in nvmet nvmet_tcp nvme_loop null_blk; do
	[ -f "$(mods_ko $m)" ] || { fail "no $m.ko in the initramfs"; finish; }
done
dev=$(dev_of $cfs)

cat >/tmp/mcg.sh <<SH
set -e
insmod $(mods_ko nvmet)
insmod $(mods_ko nvmet_tcp)
insmod $(mods_ko nvme_loop)
insmod $(mods_ko null_blk) nr_devices=0
mkdir $cfs/nvmet/subsystems/mcg $cfs/nvmet/ports/1 $cfs/nullb/mcg
echo loop >$cfs/nvmet/ports/1/addr_trtype
rmdir $cfs/nullb/mcg $cfs/nvmet/ports/1 $cfs/nvmet/subsystems/mcg
rmmod nvme_loop nvmet_tcp nvmet null_blk

insmod $(mods_ko nvmet)
insmod $(mods_ko nvme_loop)
insmod $(mods_ko null_blk) nr_devices=0
insmod $(mods_ko nvmet_tcp)
rmmod null_blk
rmmod nvmet_tcp
rmmod nvme_loop
rmmod nvmet

insmod $(mods_ko nvmet)
rmmod nvmet
insmod $(mods_ko nvmet)
rmmod nvmet
SH
dmesg_mark mcg
$PDTRACE check -f json -o /tmp/mcg.json -- sh /tmp/mcg.sh
rc=$?
cat /tmp/mcg.json; echo
expect_eq "$rc" 0 "check exits 0"
expect_grep '"command":{"argv":\[.*\],"exit_status":0}' /tmp/mcg.json "every load, step and unload succeeded"
expect_grep '"complete":true' /tmp/mcg.json "check saw every event"
expect_grep '"findings":\[\]' /tmp/mcg.json "no finding"
line=$(sbs /tmp/mcg.json | awk -v d="$dev" '$1 == "configfs" && $2 == d')
echo "configfs books: $line"
made=$(echo "$line" | awk '{ print $3 }')
[ "${made:-0}" -gt 20 ] && pass "configfs: the inits made their groups ($made)" ||
	fail "configfs: made '$made', want the groups of 8 loads"
expect_eq "$(echo "$line" | awk '{ print $4 }')" "$made" "configfs: every entry made was discarded"
expect_eq "$(echo "$line" | awk '{ print $7 }')" 0 "configfs: nothing persistent now"
# debugfs too (the block layer's and the modules' own entries): nothing the modules made stays.
expect_eq "$(sbs /tmp/mcg.json | awk '$7 != 0' | tr '\n' ';')" "" "every superblock: nothing persistent now"
dmesg_since mcg >/tmp/mcg.log
expect_no_grep 'WARNING\|BUG' /tmp/mcg.log "the kernel says nothing"
mods_in nvmet nvme-loop nvmet-tcp null_blk
finish
