# ramfs (fs/ramfs/inode.c) on a fresh superblock: every kind of entry it supports, renames,
# refused operations, and entries left for the umount walk.
#
# From the source:
# - ramfs_mknod() (mkdir, create, mknod) and ramfs_symlink() end in d_make_persistent() on
#   the dentry the VFS passed; link is simple_link() (persists the new name).
# - unlink/rmdir are simple_unlink()/simple_rmdir() -> d_make_discardable().
# - rename is simple_rename(): over an existing entry it simple_unlink()s the target (one
#   discard); RENAME_EXCHANGE swaps (no call); it has no RENAME_WHITEOUT (EINVAL).
# - O_TMPFILE (ramfs_tmpfile) uses d_tmpfile(): not persistent until linked in.
# - ramfs_kill_sb() -> kill_anon_super(): the umount walk unpins what is left.

WL_RAMFS_DIR=/mnt/wl-ramfs
WL_RAMFS_MADE=9
WL_RAMFS_DISCARDED=4
WL_RAMFS_LEFT=5

. /workloads/common.sh

wl_ramfs_setup() { mkdir -p "$WL_RAMFS_DIR"; }

wl_ramfs_run() {
	local m=$WL_RAMFS_DIR
	wl_need_dirs "$m" || return 1
	wl_do mount -t ramfs pdt-wl-ramfs "$m"
	wl_note_dev ramfs "$m"

	wl_do mkdir "$m/d" "$m/d/sub"           # made 2
	wl_do sh -c "echo x >$m/f"              # 3
	wl_do sh -c "echo y >$m/d/g"            # 4
	wl_do ln -s f "$m/sl"                   # 5
	wl_do ln "$m/f" "$m/hl"                 # 6
	wl_do mknod "$m/null" c 1 3             # 7
	wl_do mkfifo "$m/fifo"                  # 8
	wl_do pdt-fsop rename "$m/f" "$m/f2"    # no call
	wl_do pdt-fsop rename "$m/d/g" "$m/hl"  # over an existing entry: discarded 1
	wl_do pdt-fsop rename "$m/sl" "$m/fifo" exchange # no call
	wl_refused EINVAL pdt-fsop rename "$m/f2" "$m/f3" whiteout
	wl_do pdt-fsop tmpfile "$m"             # no call
	wl_do pdt-fsop tmpfile-link "$m" "$m/tl" # made 9
	wl_refused ENOTEMPTY pdt-fsop rmdir "$m/d"
	wl_do rm -r "$m/d"                      # discarded 3 (sub, d)
	wl_do rm "$m/f2"                        # 4

	# left: sl fifo hl null tl
	wl_present ramfs "$m" "$WL_RAMFS_LEFT"
	wl_do umount "$m"
	wl_end
}

wl_ramfs_expect() {
	echo "ramfs $(wl_obs dev ramfs) $WL_RAMFS_MADE $WL_RAMFS_DISCARDED $WL_RAMFS_LEFT"
}
