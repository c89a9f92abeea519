# functionfs (drivers/usb/gadget/function/f_fs.c) through a configfs USB gadget
# (libcomposite, usb_f_fs) on dummy_hcd's UDC: a gadget with strings, a configuration and
# an ffs function; functionfs mounted; descriptors written to ep0 (pdt-fsop ffs-hold);
# the gadget bound to dummy_udc.0 and enumerated by dummy_hcd's host side; unbound; ep0
# closed; everything torn down.
#
# From the source:
# - configfs (see nvmet.sh for the mechanics): gadgets_make() makes the gadget and its
#   default groups functions, configs, strings, os_desc, webusb = 6; strings/0x409
#   (gadget_language_make) 1; configs/c.1 (config_desc_make) + its "strings" = 2; the
#   function ffs.pdt (function_make -> ffs_alloc_inst, no default groups) 1; its link
#   into c.1 1. All 11 discarded by the rmdirs/unlink.
# - usb_f_fs registers the "functionfs" filesystem only when its first instance is made
#   (_ffs_alloc_dev -> functionfs_init) and unregisters it with the last.
# - ffs_fs_get_tree() -> ffs_acquire_dev(): needs an instance of that name (else ENOENT)
#   not mounted yet (else EBUSY), both before any superblock exists; then
#   get_tree_nodev(): a fresh superblock; ffs_sb_fill() makes "ep0" with
#   ffs_sb_create_file() -> d_make_persistent() (1, kernel-made at mount).
# - Writing descriptors then strings to ep0: ffs_epfiles_create() makes ep1, ep2 (one per
#   endpoint) with ffs_sb_create_file(). Closing the last ep0/epN file: ffs_data_closed()
#   -> ffs_data_reset() -> ffs_data_clear() -> ffs_epfiles_destroy() ->
#   simple_remove_by_name() -> simple_recursive_removal(): 2 discards. ep0 stays until
#   umount (ffs_fs_kill_sb -> kill_anon_super): the umount walk unpins it.
# - Binding: the host side enumerates the device; usb_new_device() -> device_add() ->
#   devtmpfs makes /dev/bus/usb/BBB/DDD (shmem_mknod: one persist on devtmpfs, by
#   kdevtmpfs); the disconnect after unbinding removes it (one discard). The run waits for
#   both (bConfigurationValue, then the device gone), so they happen inside it.

WL_FFS_CFS=/mnt/wl-ffs-configfs
WL_FFS_DIR=/mnt/wl-functionfs
WL_FFS_UDC=dummy_udc.0
WL_FFS_CONFIGFS_MADE=11
WL_FFS_MADE=3
WL_FFS_DISCARDED=2
WL_FFS_LEFT=1

. /workloads/common.sh

# The host-side bus of dummy_hcd: /sys/bus/usb/devices/usbN.
wl_ffs_bus() {
	local u
	for u in /sys/bus/usb/devices/usb*; do
		case $(readlink -f "$u") in */dummy_hcd.0/usb*) echo "${u##*/usb}"; return ;; esac
	done
}

wl_functionfs_setup() {
	mkdir -p "$WL_FFS_CFS" "$WL_FFS_DIR"
	[ -e "/sys/class/udc/$WL_FFS_UDC" ] && [ -d /sys/module/usb_f_fs ] && [ -n "$(wl_ffs_bus)" ] ||
		{ echo "setup: no $WL_FFS_UDC, usb_f_fs or dummy host (# modules: dummy_hcd libcomposite usb_f_fs)"; return 1; }
}

wl_ffs_nodes() { ls "/dev/bus/usb/$(printf %03d "$(wl_ffs_bus)")" | wc -l; }
wl_ffs_configured() { [ "$(cat "/sys/bus/usb/devices/$(wl_ffs_bus)-1/bConfigurationValue")" = 1 ]; }
wl_ffs_gone() { [ ! -e "/sys/bus/usb/devices/$(wl_ffs_bus)-1" ]; }

# While pdt-fsop ffs-hold keeps ep0 open with descriptors written.
wl_functionfs_active() {
	local g=$WL_FFS_CFS/usb_gadget/pdt f=$WL_FFS_DIR nodes
	wl_exists "$f/ep1" "$f/ep2"
	wl_present functionfs-active "$f" 3
	nodes=$(wl_ffs_nodes)
	wl_do sh -c "echo $WL_FFS_UDC >$g/UDC"
	wl_wait 30 wl_ffs_configured                  # devtmpfs: made 1
	[ "$(wl_ffs_nodes)" -eq $((nodes + 1)) ] || wl_fail "no new device node under /dev/bus/usb"
	wl_do sh -c "echo >$g/UDC"
	wl_wait 30 wl_ffs_gone                        # devtmpfs: discarded 1
	[ "$(wl_ffs_nodes)" -eq "$nodes" ] || wl_fail "the device node is still there"
	wl_end
}

wl_functionfs_run() {
	local c=$WL_FFS_CFS g=$WL_FFS_CFS/usb_gadget/pdt f=$WL_FFS_DIR
	wl_need_dirs "$c" "$f" || return 1
	wl_do mount -t configfs pdt-wl-configfs "$c"
	wl_note_dev configfs "$c"
	wl_note_dev devtmpfs /dev

	wl_do mkdir "$g"                                   # configfs made 6
	wl_do sh -c "echo 0x1d6b >$g/idVendor; echo 0x0104 >$g/idProduct"
	wl_do mkdir "$g/strings/0x409"                     # 7
	wl_do sh -c "echo pdtrace >$g/strings/0x409/product"
	wl_do mkdir "$g/configs/c.1"                       # 9
	wl_refused ENODEV pdt-fsop mount functionfs pdt "$f" # no instance: no such fs type yet
	wl_do mkdir "$g/functions/ffs.pdt"                 # 10
	wl_refused ENOENT pdt-fsop mount functionfs nosuch "$f"
	wl_do ln -s "$g/functions/ffs.pdt" "$g/configs/c.1/" # 11

	wl_do mount -t functionfs pdt "$f"                 # functionfs made 1: ep0
	wl_note_dev functionfs "$f"
	wl_present functionfs-fresh "$f" 1
	wl_refused EBUSY pdt-fsop mount functionfs pdt "$WL_FFS_CFS" # one mount per instance
	wl_do pdt-fsop ffs-hold "$f/ep0" ". /workloads/functionfs.sh && wl_functionfs_active" # made 3
	wl_absent "$f/ep1" "$f/ep2"                        # discarded 2 when ep0 closed
	wl_refused ENOTEMPTY pdt-fsop rmdir "$g"

	wl_present functionfs "$f" "$WL_FFS_LEFT"          # ep0
	wl_do umount "$f"
	wl_do rm "$g/configs/c.1/ffs.pdt"
	wl_do rmdir "$g/configs/c.1" "$g/functions/ffs.pdt" "$g/strings/0x409" "$g"
	wl_do umount "$c"
	wl_end
}

wl_functionfs_expect() {
	local out
	out=$(cat)
	echo "configfs $(echo "$out" | wl_obs dev configfs) $WL_FFS_CONFIGFS_MADE $WL_FFS_CONFIGFS_MADE 0"
	echo "functionfs $(echo "$out" | wl_obs dev functionfs) $WL_FFS_MADE $WL_FFS_DISCARDED $WL_FFS_LEFT"
	echo "devtmpfs $(echo "$out" | wl_obs dev devtmpfs) 1 1 0"
}
