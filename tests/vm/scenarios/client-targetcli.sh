# configfs through targetcli (targetcli-fb), the administration shell of the kernel's SCSI
# target (LIO), as its users run it: a ramdisk and a fileio backstore, a loopback
# (tcm_loop) target with a LUN on each, `saveconfig` and `ls`, then `clearconfig
# confirm=True`; three rounds under pdtrace check. The root is read-only: the run gives
# targetcli a home, /etc/target and /run on tmpfs of its own (taken down at its end) and
# turns auto-save off. The run loads the modules (init's loads are undone first) and
# unloads them at its end, as users do, so that check sees them come and go (not beside
# the other clients in client-faults, which share them). No finding, complete data, the
# self-check clean, and configfs (which stays mounted) discarded every entry the tool and
# the modules made.
# suite: clients
# root: sid
# timeout: 900
# modules: target_core_mod target_core_file tcm_loop iscsi_target_mod
. /lib.sh
need_sid targetcli
ROUNDS=3
! client_prep_only || ROUNDS=1
cfs=$SID/sys/kernel/config
grep -q " $cfs " /proc/mounts || mount -t configfs configfs "$cfs" || { fail "mount configfs"; finish; }
[ -d "$cfs/target/core" ] || { fail "no $cfs/target/core: target_core_mod is not loaded"; cat /tmp/insmod.log; finish; }
wwn=naa.5001405a0b1c2d3e
mods="target_core_mod target_core_file tcm_loop iscsi_target_mod"
! client_prep_only || mods=
# The fabric modules' directories: rtslib makes the one of each fabric it touches (mkdir
# of configfs target/NAME, once per boot: loopback for the target, iscsi for the discovery
# settings saveconfig and clearconfig read and reset) and never removes them. Made before
# the rounds, as on a system where targetcli ran before, so that each round does the
# same; removed before the modules go.
fabrics="for f in loopback iscsi; do [ -d $cfs/target/\$f ] || mkdir $cfs/target/\$f || exit 1; done"
load= unload=
if [ -n "$mods" ]; then
	# A run before this one in the same boot (client-faults) left them.
	for f in loopback iscsi; do [ ! -d "$cfs/target/$f" ] || rmdir "$cfs/target/$f"; done
	mods_out $mods || { fail "rmmod $mods"; finish; }
	load="mods_in $mods || { echo '@client modules failed'; exit 1; }
$fabrics"
	unload="rmdir $cfs/target/loopback $cfs/target/iscsi && mods_out $mods || echo '@client rmmod failed'"
else
	sh -c "$fabrics" || { fail "mkdir of the fabrics' directories"; cat /tmp/insmod.log; finish; }
fi

# targetcli_check JSON: after the run, what targetcli said it did; its line of the table.
targetcli_check() {
	local out=/tmp/client-targetcli.out created
	expect_no_grep '^@client targetcli failed\|^@client umount failed\|^@client dbus-daemon failed\|^@client modules failed\|^@client rmmod failed' $out \
		"targetcli: every command succeeded"
	created=$(grep -c '^Created ' $out)
	expect_eq "$created" $((ROUNDS * 5)) "targetcli: 2 backstores, a target and 2 LUNs created in each round"
	expect_eq "$(grep -c '^All configuration cleared' $out)" "$ROUNDS" "targetcli: configuration cleared in each round"
	expect_eq "$(grep -c '^@client objects storage_objects 2 targets 1 luns 2$' $out)" "$ROUNDS" \
		"targetcli saved what it made, each round"
	expect_eq "$(grep '^after clear: ' $out)" "" "targetcli: clearconfig left no backstore or target"
	client_summary targetcli configfs \
		"$ROUNDS x (2 backstores, 1 loopback target, 2 LUNs; saveconfig; clearconfig): $created created" \
		"$1" "$(dev_of "$cfs")"
}

# targetcli asks the system bus which user backstores (tcmu-runner) there are, and fails
# without a bus: the run starts one (dbus-daemon with its stock session configuration,
# for root alone, listening where the system bus does).
client_home_dir targetcli
cat >/tmp/client-targetcli.sh <<EOS
. /lib.sh
client_home targetcli || exit 1
$load
mount -t tmpfs client-etc-target $SID/etc/target && echo "@client dev etc \$(dev_of $SID/etc/target)" || exit 1
mount -t tmpfs client-run $SID/run && echo "@client dev run \$(dev_of $SID/run)" || exit 1
sid mkdir /run/dbus &&
	bus=\$(sid dbus-daemon --session --address=unix:path=/run/dbus/system_bus_socket --fork --print-pid) &&
	[ -n "\$bus" ] || echo "@client dbus-daemon failed"
t() { sid targetcli "\$@" || echo "@client targetcli failed: \$*"; }
t set global auto_save_on_exit=false
for r in \$(seq 1 $ROUNDS); do
	t /backstores/ramdisk create name=rd0 size=16M
	t /backstores/fileio create name=fio0 file_or_dev=\$CLIENT_HOME/fio0.img size=16M
	t /loopback create $wwn
	t /loopback/$wwn/luns create /backstores/ramdisk/rd0
	t /loopback/$wwn/luns create /backstores/fileio/fio0
	t saveconfig savefile=\$CLIENT_HOME/saved.json
	sid python3 -c 'import json; d = json.load(open("saved.json"))
print("@client objects storage_objects %d targets %d luns %d" % (len(d["storage_objects"]), len(d["targets"]),
	sum(len(tpg["luns"]) for t in d["targets"] for tpg in t["tpgs"])))'
	t ls
	t clearconfig confirm=True
	echo "@client cleared \$r"
done
{ find $cfs/target/core -mindepth 1 -maxdepth 1 -type d ! -name alua; find $cfs/target/loopback -mindepth 1 -maxdepth 1 -name 'naa.*'; } |
	sed 's/^/after clear: /'
kill \$bus && while kill -0 \$bus 2>/dev/null; do usleep 100000; done
umount $SID/run && umount $SID/etc/target && client_home_down || echo "@client umount failed"
$unload
EOS
! client_prep_only || return 0
client_run client-targetcli /tmp/client-targetcli.sh
client_clean "targetcli on configfs" /tmp/client-targetcli.json
targetcli_check /tmp/client-targetcli.json
finish
