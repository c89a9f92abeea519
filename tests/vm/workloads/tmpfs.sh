# tmpfs (mm/shmem.c) on a fresh superblock: every kind of entry, renames of every kind,
# refused operations, recursive removal, and entries left for the umount walk.
#
# From the source:
# - shmem_mknod() ends in d_make_persistent() on the dentry the VFS passed: mkdir
#   (shmem_mkdir), create, mknod (char, block, fifo) go through it; shmem_symlink() calls
#   it itself, for short (inline) and long (page) symlinks alike; shmem_link() ->
#   simple_link() makes the new name persistent.
# - shmem_unlink()/shmem_rmdir() -> simple_unlink() -> d_make_discardable().
# - shmem_rename2(): a plain rename d_move()s the persistent dentry (no call); over an
#   existing entry it shmem_unlink()s the target first (one discard); RENAME_EXCHANGE
#   swaps (no call); RENAME_WHITEOUT makes a whiteout (char 0:0) through shmem_mknod() on a
#   dentry it d_alloc()s itself, not one the VFS passed (one persist).
# - O_TMPFILE (shmem_tmpfile) uses d_tmpfile(): not persistent; linking it in later is
#   shmem_link() (one persist).
# - The superblock's root comes from d_make_root(): not persistent. kill_anon_super() ->
#   the umount walk unpins what is left.

WL_TMPFS_DIR=/mnt/wl-tmpfs
WL_TMPFS_MADE=18
WL_TMPFS_DISCARDED=10
WL_TMPFS_LEFT=8

. /workloads/common.sh

wl_tmpfs_setup() { mkdir -p "$WL_TMPFS_DIR"; }

wl_tmpfs_run() {
	local m=$WL_TMPFS_DIR long
	wl_need_dirs "$m" || return 1
	wl_do mount -t tmpfs pdt-wl-tmpfs "$m"
	wl_note_dev tmpfs "$m"
	long=$(printf '%0300d' 0) # longer than SHORT_SYMLINK_LEN (128): a page symlink

	wl_do mkdir "$m/d" "$m/d/sub"            # made 2
	wl_do sh -c "echo x >$m/f"               # 3
	wl_do sh -c "echo y >$m/d/g"             # 4
	wl_do ln -s f "$m/sl"                    # 5, inline symlink
	wl_do ln -s "$long" "$m/long"            # 6, page symlink
	wl_do ln "$m/f" "$m/hl"                  # 7, hard link
	wl_do mknod "$m/null" c 1 3              # 8
	wl_do mknod "$m/blk" b 7 0               # 9
	wl_do mkfifo "$m/fifo"                   # 10
	wl_do pdt-fsop rename "$m/f" "$m/f2"     # plain rename: no call
	wl_do pdt-fsop rename "$m/d/g" "$m/hl"   # over an existing entry: discarded 1 (old hl)
	wl_do pdt-fsop rename "$m/sl" "$m/fifo" exchange # no call
	wl_refused EEXIST pdt-fsop rename "$m/f2" "$m/null" noreplace
	wl_do mkdir "$m/e1" "$m/e2"              # made 12
	wl_do pdt-fsop rename "$m/e1" "$m/e2"    # over an empty directory: discarded 2
	wl_do pdt-fsop rename "$m/f2" "$m/f3" whiteout # whiteout at f2: made 13
	[ -c "$m/f2" ] || wl_fail "no whiteout left at $m/f2"
	wl_do pdt-fsop tmpfile "$m"              # unlinked O_TMPFILE: no call
	wl_do pdt-fsop tmpfile-link "$m" "$m/tl" # linked O_TMPFILE: made 14
	wl_refused ENOTEMPTY pdt-fsop rmdir "$m/d"
	wl_refused EEXIST pdt-fsop mkdir "$m/d"
	wl_do rmdir "$m/d/sub" "$m/d"            # discarded 4
	wl_do rm "$m/f2" "$m/blk"                # discarded 6
	wl_do mkdir -p "$m/t/a/b"                # made 17
	wl_do touch "$m/t/a/b/x"                 # 18
	wl_do rm -r "$m/t"                       # discarded 10

	# left: long sl fifo hl null e2 f3 tl
	wl_present tmpfs "$m" "$WL_TMPFS_LEFT"
	wl_do umount "$m"
	wl_end
}

wl_tmpfs_expect() {
	echo "tmpfs $(wl_obs dev tmpfs) $WL_TMPFS_MADE $WL_TMPFS_DISCARDED $WL_TMPFS_LEFT"
}
