# debugfs (fs/debugfs/inode.c): entries the kernel makes and removes for a driver at run
# time: a zram device hot-added and hot-removed (zram-control), then the zram module
# unloaded and loaded again. Also a fresh mount and umount of debugfs.
#
# From the source:
# - __debugfs_create_file() and debugfs_create_dir() end in d_make_persistent();
#   debugfs_remove() (debugfs_remove_recursive) is simple_recursive_removal(): one
#   d_make_discardable() per entry, the directory last.
# - One zram device makes 6 debugfs entries: zram_debugfs_register() "zram/zramN" and
#   "zram/zramN/block_state" (CONFIG_ZRAM_MEMORY_TRACKING=y); blk_register_queue()
#   "block/zramN" (zram is bio-based: no blk-mq files; CONFIG_BLK_ERROR_INJECTION is off);
#   bdi_register() -> bdi_debug_register() "bdi/MAJ:MIN", ".../stats", ".../wb_stats".
#   zram_remove() -> zram_debugfs_unregister(), del_gendisk() -> blk_unregister_queue(),
#   bdi_unregister() remove them again. Module load adds the "zram" directory
#   (zram_debugfs_create()), unload removes it (zram_debugfs_destroy()).
# - The block device node: device_add() -> devtmpfs_create_node() -> kdevtmpfs ->
#   vfs_mknod() -> shmem_mknod() -> d_make_persistent() on the devtmpfs superblock, and
#   vfs_unlink() on removal. Both wait for kdevtmpfs, so they are done when the write to
#   hot_add / hot_remove / the module syscall returns.
# - debugfs_get_tree() -> get_tree_single(): every mount is the one superblock the kernel
#   pins itself (simple_pin_fs), so umount unpins nothing.
# Totals: hot_add 6 + hot_remove 6, rmmod 6 + 1 ("zram"), insmod 1 + 6: debugfs 13/13;
# devtmpfs /dev/zram1 made and removed, /dev/zram0 removed and made: 2/2.

WL_DEBUGFS_DIR=/mnt/wl-debugfs
WL_DEBUGFS_DIR2=/mnt/wl-debugfs2
WL_DEBUGFS_MADE=13
WL_DEBUGFS_DISCARDED=13
WL_DEBUGFS_DEVTMPFS_MADE=2
WL_DEBUGFS_DEVTMPFS_DISCARDED=2

. /workloads/common.sh

wl_debugfs_setup() {
	mkdir -p "$WL_DEBUGFS_DIR" "$WL_DEBUGFS_DIR2"
	[ -f /lib/modules/zram.ko ] && [ -d /sys/class/zram-control ] ||
		{ echo "setup: zram is not loaded (# modules: zram)"; return 1; }
	[ "$(ls /sys/block | grep -c '^zram')" -eq 1 ] || { echo "setup: want exactly zram0"; return 1; }
}

wl_debugfs_run() {
	local m=$WL_DEBUGFS_DIR id dev
	wl_need_dirs "$m" "$WL_DEBUGFS_DIR2" || return 1
	# The guest mounts no debugfs, yet the first mount shows what the kernel made since
	# boot: the superblock already existed. A second mount is the same one.
	wl_do mount -t debugfs pdt-wl-debugfs "$m"
	wl_note_dev debugfs "$m"
	wl_note_dev devtmpfs /dev
	wl_exists "$m/zram/zram0/block_state" "$m/block/zram0"
	wl_do mount -t debugfs pdt-wl-debugfs "$WL_DEBUGFS_DIR2"
	wl_same_sb "$m" "$WL_DEBUGFS_DIR2"
	wl_do umount "$WL_DEBUGFS_DIR2"

	id=$(cat /sys/class/zram-control/hot_add)   # made 6, devtmpfs 1
	[ "$id" = 1 ] || wl_fail "hot_add gave zram$id, want zram1"
	dev=$(cat /sys/block/zram1/dev)
	wl_exists "$m/zram/zram1/block_state" "$m/block/zram1" "$m/bdi/$dev/stats" \
		"$m/bdi/$dev/wb_stats" /dev/zram1
	wl_do sh -c "echo 1 >/sys/class/zram-control/hot_remove" # discarded 6, devtmpfs 1
	wl_absent "$m/zram/zram1" "$m/block/zram1" "$m/bdi/$dev" /dev/zram1

	wl_do rmmod zram                            # discarded 13, devtmpfs 2
	wl_absent "$m/zram" "$m/block/zram0" /dev/zram0
	wl_do insmod /lib/modules/zram.ko           # made 13, devtmpfs 2
	wl_exists "$m/zram/zram0/block_state" "$m/block/zram0" /dev/zram0

	wl_refused EPERM pdt-fsop mkdir "$m/zram/x"
	wl_do umount "$m"
	wl_end
}

wl_debugfs_expect() {
	local out
	out=$(cat)
	echo "debugfs $(echo "$out" | wl_obs dev debugfs) $WL_DEBUGFS_MADE $WL_DEBUGFS_DISCARDED 0"
	echo "devtmpfs $(echo "$out" | wl_obs dev devtmpfs) $WL_DEBUGFS_DEVTMPFS_MADE $WL_DEBUGFS_DEVTMPFS_DISCARDED 0"
}
