# debugfs: a rename the kernel makes itself, debugfs_change_name(), driven by renaming an
# HSR network device (net/hsr) with busybox ip; then the renamed entries are removed by
# deleting the device, and by unloading the module (which also removes their parent).
#
# Callers of debugfs_change_name() in 7.2.13 and why HSR: bonding (bond_debug_reregister())
# is compiled only when CONFIG_NET_NS is off (bond_debugfs.c), and Debian has it on; the
# mac80211 netdev rename needs CONFIG_MAC80211_DEBUGFS (off); cfg80211's wiphy rename and
# shrinker_debugfs_rename() need nl80211 or CONFIG_SHRINKER_DEBUG (off); stmmac, sky2, skge,
# xgbe and OPP need hardware the guest does not have. HSR needs two Ethernet slaves (dummy
# devices) and an RTM_NEWLINK with IFLA_HSR_SLAVE1/2, which busybox ip cannot send:
# pdt-fsop link-add does.
#
# From the source:
# - The "hsr" directory: hsr_init() -> hsr_netlink_init() -> hsr_debugfs_create_root() ->
#   debugfs_create_dir() (module load); hsr_exit() -> hsr_netlink_exit() ->
#   rtnl_link_unregister() (deletes every HSR device, below) then
#   hsr_debugfs_remove_root() -> debugfs_remove() (one discard: it is empty by then).
# - A device: hsr_newlink() -> hsr_dev_finalize() -> hsr_debugfs_init(): the directory
#   hsr/NAME and hsr/NAME/node_table (debugfs_create_dir(), debugfs_create_file(): 2 made).
#   Deleting it (ip link del, or __rtnl_kill_links() at module unload) -> hsr_dellink() ->
#   hsr_debugfs_term() -> debugfs_remove_recursive() (2 discarded).
# - Renaming it: dev_change_name() -> NETDEV_CHANGENAME -> hsr_netdev_notify() ->
#   hsr_debugfs_rename() -> debugfs_change_name(): d_move() of hsr/OLD to hsr/NEW in the
#   same directory, RENAME_NOREPLACE: no call.
# - The slaves are dummy devices made by setup: netdevs have no debugfs or devtmpfs entry.
# - debugfs is one superblock the kernel pins (see debugfs.sh): umount unpins nothing.
# Totals: device A 2 made, 2 discarded; device B 2 made, rmmod 2 + 1 discarded, insmod 1
# made: 5 made, 5 discarded.

WL_DEBUGFS_RENAME_DIR=/mnt/wl-debugfs-rename
WL_DEBUGFS_RENAME_MADE=5
WL_DEBUGFS_RENAME_DISCARDED=5

. /workloads/common.sh

wl_debugfs_rename_setup() {
	mkdir -p "$WL_DEBUGFS_RENAME_DIR"
	[ -f /lib/modules/hsr.ko ] && [ -d /sys/module/hsr ] ||
		{ echo "setup: hsr is not loaded (# modules: hsr dummy)"; return 1; }
	local d
	for d in pdtd0 pdtd1 pdtd2 pdtd3; do
		[ -d "/sys/class/net/$d" ] || pdt-fsop link-add "$d" dummy || return 1
	done
}

wl_debugfs_rename_run() {
	local m=$WL_DEBUGFS_RENAME_DIR
	wl_need_dirs "$m" || return 1
	wl_do mount -t debugfs pdt-wl-debugfs "$m"
	wl_note_dev debugfs "$m"
	wl_exists "$m/hsr"

	# Device A: made, renamed twice, deleted.
	wl_do pdt-fsop link-add pdthsr0 hsr pdtd0 pdtd1    # made 2
	wl_exists "$m/hsr/pdthsr0/node_table"
	wl_do ip link set dev pdthsr0 name pdthsr1         # no call
	wl_exists "$m/hsr/pdthsr1/node_table"
	wl_absent "$m/hsr/pdthsr0"
	wl_do ip link set dev pdthsr1 name pdthsrA         # no call
	wl_exists "$m/hsr/pdthsrA/node_table"
	wl_absent "$m/hsr/pdthsr1"
	wl_do cat "$m/hsr/pdthsrA/node_table" >/dev/null
	wl_do ip link del pdthsrA                          # discarded 2
	wl_absent "$m/hsr/pdthsrA"

	# Device B: made, renamed, then removed with its parent by unloading the module.
	wl_do pdt-fsop link-add pdthsr0 hsr pdtd2 pdtd3    # made 4
	wl_do ip link set dev pdthsr0 name pdthsrB         # no call
	wl_exists "$m/hsr/pdthsrB/node_table"
	wl_absent "$m/hsr/pdthsr0"
	wl_do rmmod hsr                                    # discarded 5
	wl_absent "$m/hsr" /sys/class/net/pdthsrB
	wl_do insmod /lib/modules/hsr.ko                   # made 5
	wl_exists "$m/hsr"

	wl_do umount "$m"
	wl_end
}

wl_debugfs_rename_expect() {
	echo "debugfs $(wl_obs dev debugfs) $WL_DEBUGFS_RENAME_MADE $WL_DEBUGFS_RENAME_DISCARDED 0"
}
