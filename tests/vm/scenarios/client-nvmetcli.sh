# configfs through nvmetcli, the NVMe target's administration tool, as its users run it:
# `nvmetcli restore` of a saved JSON configuration (hosts, subsystems with namespaces on
# a null_blk device and allowed hosts, loop-transport ports with their subsystems and an
# ANA group, a tcp port on the guest's loopback address), `nvmetcli save` and `ls`, then
# `nvmetcli clear`; three rounds under
# pdtrace check. The run loads the modules (init's loads are undone first) and unloads
# them at its end, as users do, so that check sees them come and go (not beside the other
# clients in client-faults, which share them). No finding, complete data, the self-check
# clean, and configfs (which stays mounted) discarded every entry the tool and the
# modules made.
# suite: clients
# root: sid
# timeout: 900
# modules: nvmet nvme-loop nvmet-tcp null_blk
. /lib.sh
need_sid nvmetcli
ROUNDS=3
! client_prep_only || ROUNDS=1
cfs=$SID/sys/kernel/config
grep -q " $cfs " /proc/mounts || mount -t configfs configfs "$cfs" || { fail "mount configfs"; finish; }
[ -d "$cfs/nvmet" ] || { fail "no $cfs/nvmet: nvmet is not loaded"; cat /tmp/insmod.log; finish; }
[ -b "$SID/dev/nullb0" ] || { fail "no /dev/nullb0: null_blk is not loaded"; cat /tmp/insmod.log; finish; }
mods="nvmet nvme-loop nvmet-tcp null_blk"
! client_prep_only || mods=
load= unload=
if [ -n "$mods" ]; then
	mods_out $mods || { fail "rmmod $mods"; finish; }
	load="mods_in $mods || { echo '@client modules failed'; exit 1; }"
	unload="mods_out $mods || echo '@client rmmod failed'"
fi
# The tcp port listens on the guest's loopback address.
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up || { fail "loopback up"; finish; }

n=nqn.2026-01.org.pdtrace
cat >/tmp/nvmet.json <<EOJ
{
  "hosts": [ { "nqn": "$n:host1" }, { "nqn": "$n:host2" } ],
  "subsystems": [
    {
      "nqn": "$n:sub1",
      "attr": { "allow_any_host": "0", "serial": "pdt0001" },
      "allowed_hosts": [ "$n:host1", "$n:host2" ],
      "namespaces": [
        { "nsid": 1, "device": { "path": "/dev/nullb0" }, "enable": 1 },
        { "nsid": 2, "device": { "path": "/dev/nullb0" }, "enable": 1 }
      ]
    },
    {
      "nqn": "$n:sub2",
      "attr": { "allow_any_host": "1" },
      "allowed_hosts": [],
      "namespaces": [
        { "nsid": 7, "device": { "path": "/dev/nullb0" }, "enable": 1 },
        { "nsid": 8, "device": { "path": "/dev/nullb0" }, "enable": 0 }
      ]
    }
  ],
  "ports": [
    { "portid": 1, "addr": { "trtype": "loop" }, "subsystems": [ "$n:sub1" ] },
    {
      "portid": 2, "addr": { "trtype": "loop" }, "subsystems": [ "$n:sub1", "$n:sub2" ],
      "ana_groups": [ { "grpid": 2, "ana": { "state": "non-optimized" } } ]
    },
    {
      "portid": 3, "subsystems": [ "$n:sub2" ],
      "addr": { "trtype": "tcp", "adrfam": "ipv4", "traddr": "127.0.0.1", "trsvcid": "4420" }
    }
  ]
}
EOJ

# nvmetcli_check JSON: after the run, what nvmetcli said it did; its line of the table.
nvmetcli_check() {
	expect_no_grep '^@client umount failed' /tmp/client-nvmetcli.out "nvmetcli: its home went down"
	expect_no_grep '^@client modules failed\|^@client rmmod failed' /tmp/client-nvmetcli.out \
		"nvmetcli: its modules loaded and unloaded"
	for w in restored saved cleared; do
		expect_eq "$(grep -c "^@client $w " /tmp/client-nvmetcli.out)" "$ROUNDS" "nvmetcli: $w in each of the $ROUNDS rounds"
	done
	# Ports keep their ANA group 1 (the kernel's), the rest is gone.
	expect_eq "$(grep '^after clear: ' /tmp/client-nvmetcli.out | sed 's/.*nvmet\///' | sort | tr '\n' ' ')" "" \
		"nvmetcli clear leaves no host, subsystem or port"
	objs="hosts 2 subsystems 2 namespaces 4 allowed_hosts 2 ports 3 port_links 4 ana_groups 4"
	expect_eq "$(grep -c "^@client objects $objs$" /tmp/client-nvmetcli.out)" "$ROUNDS" "nvmetcli saved what it restored, each round"
	client_summary nvmetcli configfs \
		"$ROUNDS x restore, save, clear of $(echo "$objs" | awk '{ for (i = 1; i < NF; i += 2) printf "%s%s %s", (i > 1 ? ", " : ""), $(i + 1), $i }')" \
		"$1" "$(dev_of "$cfs")"
}

client_home_dir nvmetcli
cat >/tmp/client-nvmetcli.sh <<EOS
. /lib.sh
client_home nvmetcli || exit 1
$load
cp /tmp/nvmet.json $SID/mnt/home-nvmetcli/config.json
for r in \$(seq 1 $ROUNDS); do
	sid nvmetcli restore config.json && echo "@client restored \$r"
	sid nvmetcli save saved.json && echo "@client saved \$r"
	# What nvmetcli saved: its own view of what it made.
	sid python3 -c 'import json; d = json.load(open("saved.json"))
print("@client objects hosts %d subsystems %d namespaces %d allowed_hosts %d ports %d port_links %d ana_groups %d" % (
	len(d["hosts"]), len(d["subsystems"]), sum(len(s["namespaces"]) for s in d["subsystems"]),
	sum(len(s["allowed_hosts"]) for s in d["subsystems"]), len(d["ports"]),
	sum(len(p["subsystems"]) for p in d["ports"]), sum(len(p["ana_groups"]) for p in d["ports"])))'
	sid nvmetcli ls
	sid nvmetcli clear && echo "@client cleared \$r"
done
find $cfs/nvmet -mindepth 2 -maxdepth 2 | sed 's/^/after clear: /'
client_home_down || echo "@client umount failed"
$unload
EOS
! client_prep_only || return 0
client_run client-nvmetcli /tmp/client-nvmetcli.sh
client_clean "nvmetcli on configfs" /tmp/client-nvmetcli.json
nvmetcli_check /tmp/client-nvmetcli.json
finish
