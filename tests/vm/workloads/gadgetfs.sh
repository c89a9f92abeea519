# gadgetfs (drivers/usb/gadget/legacy/inode.c) on dummy_hcd's UDC: mount it, see the ep0
# file it makes, write a device configuration to ep0 (pdt-fsop gadgetfs-hold) so the
# driver binds to the UDC and makes a file per endpoint, close ep0, umount.
#
# From the source:
# - gadgetfs_get_tree() -> get_tree_single(): one superblock at a time, made by the first
#   mount; gadgetfs_fill_super() makes the ep0 file, named after the first UDC without a
#   driver (usb_get_gadget_udc_name(): "dummy_udc"), with gadgetfs_create_file() ->
#   d_make_persistent() (1, kernel-made at mount). A second mount is the same superblock.
# - The first write to ep0 (dev_config) registers the gadget driver; gadgetfs_bind() ->
#   activate_ep_files() makes one file per endpoint of the UDC (gadget_for_each_ep):
#   dummy_hcd's ep_info[] has 25 endpoints, ep0 is not in the list: 24 files. (A first
#   reading counted 31 EP_INFO lines, 30 files; the real kernel made 24: six
#   isochronous endpoints, ep3/4/8/9/13/14, sit in /* */ comments there.)
# - Closing ep0: dev_release() -> usb_gadget_unregister_driver() -> gadgetfs_unbind() ->
#   destroy_ep_files() -> simple_remove_by_name(): 24 discards. The ep0 file stays until
#   umount (gadgetfs_kill_sb -> kill_anon_super): the umount walk unpins it.
# Binding makes the UDC connect (pull-up). gadgetfs hands SET_CONFIGURATION to user space
# (usermode_setup), so an enumeration by dummy_hcd's host side would stall until the
# host's 5 s control timeout and race with the close (a devtmpfs node made or not). The
# setup unbinds the hub driver from the dummy host's root hub: nothing enumerates.

WL_GADGETFS_DIR=/mnt/wl-gadgetfs
WL_GADGETFS_DIR2=/mnt/wl-gadgetfs2
WL_GADGETFS_EPS=24
WL_GADGETFS_MADE=25
WL_GADGETFS_DISCARDED=24
WL_GADGETFS_LEFT=1

. /workloads/common.sh

# The root hub interface of dummy_hcd's host side, e.g. 1-0:1.0.
wl_gadgetfs_roothub() {
	local u
	for u in /sys/bus/usb/devices/usb*; do
		case $(readlink -f "$u") in */dummy_hcd.0/usb*) echo "${u##*/usb}-0:1.0"; return ;; esac
	done
}

wl_gadgetfs_setup() {
	local hub
	mkdir -p "$WL_GADGETFS_DIR" "$WL_GADGETFS_DIR2"
	hub=$(wl_gadgetfs_roothub)
	[ -n "$hub" ] && [ -d /sys/module/gadgetfs ] ||
		{ echo "setup: no dummy_hcd or gadgetfs (# modules: dummy_hcd gadgetfs)"; return 1; }
	grep -q ' - gadgetfs ' /proc/self/mountinfo && { echo "setup: gadgetfs is mounted"; return 1; }
	[ ! -e "/sys/bus/usb/drivers/hub/$hub" ] || echo "$hub" >/sys/bus/usb/drivers/hub/unbind
}

# While pdt-fsop gadgetfs-hold keeps ep0 open, configured.
wl_gadgetfs_bound() {
	local m=$WL_GADGETFS_DIR
	wl_exists "$m/ep1in-bulk" "$m/ep2out-bulk" "$m/ep-mout"
	wl_present gadgetfs-bound "$m" $((WL_GADGETFS_EPS + 1))
	wl_end
}

wl_gadgetfs_run() {
	local m=$WL_GADGETFS_DIR
	wl_need_dirs "$m" "$WL_GADGETFS_DIR2" || return 1
	wl_do mount -t gadgetfs pdt-wl-gadgetfs "$m"   # made 1: dummy_udc
	wl_note_dev gadgetfs "$m"
	wl_do mount -t gadgetfs pdt-wl-gadgetfs "$WL_GADGETFS_DIR2"
	wl_same_sb "$m" "$WL_GADGETFS_DIR2"
	wl_do umount "$WL_GADGETFS_DIR2"
	wl_present gadgetfs-fresh "$m" 1
	wl_exists "$m/dummy_udc"
	wl_refused EPERM pdt-fsop mkdir "$m/sub"

	wl_do pdt-fsop gadgetfs-hold "$m/dummy_udc" ". /workloads/gadgetfs.sh && wl_gadgetfs_bound" # 25
	wl_absent "$m/ep1in-bulk"                      # discarded 24

	wl_present gadgetfs "$m" "$WL_GADGETFS_LEFT"
	wl_do umount "$m"
	wl_end
}

wl_gadgetfs_expect() {
	echo "gadgetfs $(wl_obs dev gadgetfs) $WL_GADGETFS_MADE $WL_GADGETFS_DISCARDED $WL_GADGETFS_LEFT"
}

wl_gadgetfs_cleanup() {
	local hub
	hub=$(wl_gadgetfs_roothub)
	[ -e "/sys/bus/usb/drivers/hub/$hub" ] || echo "$hub" >/sys/bus/usb/drivers/hub/bind
}
