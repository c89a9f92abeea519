# bpffs (kernel/bpf/inode.c, type "bpf") on a fresh superblock: directories, map and
# program pins (pdt-bpfpin, libbpf), hard links, symlinks, renames, unpins, refusals.
#
# From the source:
# - bpf_mkdir(), bpf_symlink() and the pin path (bpf_obj_pin -> vfs_mkobj ->
#   bpf_mkmap/bpf_mkprog -> bpf_mkobj_ops) all end in bpf_dentry_finalize() ->
#   d_make_persistent(). link, unlink (= unpin), rmdir, rename are simple_*.
# - There is no ->create or ->mknod: creating a regular file is refused with EACCES
#   (lookup_open), a fifo with EPERM (vfs_mknod).
# - bpf_fill_super() calls populate_bpffs(), which pins the bpf_preload iterators
#   ("maps.debug", "progs.debug") into every new bpffs when bpf_preload is available.
#   Debian's kernel has CONFIG_BPF_PRELOAD off (and request_module() finds no modprobe in
#   this guest), so a fresh bpffs starts empty: no kernel-made persistent entries.
# - get_tree_nodev(): every mount is a new superblock; bpf_kill_super() ->
#   kill_anon_super(): the umount walk unpins what is left (and the last pin of the map
#   drops it).

WL_BPFFS_DIR=/mnt/wl-bpffs
WL_BPFFS_MADE=6
WL_BPFFS_DISCARDED=2
WL_BPFFS_LEFT=4

. /workloads/common.sh

wl_bpffs_setup() { mkdir -p "$WL_BPFFS_DIR"; }

wl_bpffs_run() {
	local m=$WL_BPFFS_DIR
	wl_need_dirs "$m" || return 1
	wl_do mount -t bpf pdt-wl-bpffs "$m"
	wl_note_dev bpf "$m"
	wl_present bpf-fresh "$m" 0               # no preloaded iterators

	wl_do mkdir "$m/d"                        # made 1
	wl_do pdt-bpfpin map "$m/d/m1" "$m/d/m2"  # 3: one map, two pins
	wl_do pdt-bpfpin prog "$m/p"              # 4
	wl_refused EEXIST pdt-bpfpin prog "$m/p"
	wl_do ln "$m/d/m1" "$m/hl"                # 5
	wl_do ln -s d/m1 "$m/sl"                  # 6
	wl_do pdt-fsop rename "$m/d/m2" "$m/m3"   # no call
	wl_refused EACCES pdt-fsop create "$m/file"
	wl_refused EPERM pdt-fsop mkfifo "$m/fifo"
	wl_refused ENOTEMPTY pdt-fsop rmdir "$m/d"
	wl_do pdt-bpfpin unpin "$m/d/m1"          # discarded 1
	wl_do rmdir "$m/d"                        # 2

	# left: p hl sl m3
	wl_present bpf "$m" "$WL_BPFFS_LEFT"
	wl_do umount "$m"
	wl_end
}

wl_bpffs_expect() {
	echo "bpf $(wl_obs dev bpf) $WL_BPFFS_MADE $WL_BPFFS_DISCARDED $WL_BPFFS_LEFT"
}
