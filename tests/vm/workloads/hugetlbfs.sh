# hugetlbfs (fs/hugetlbfs/inode.c) on a fresh superblock that reserves a huge page
# (min_size: the guest gets its huge pages at runtime, in setup).
#
# From the source:
# - hugetlbfs_mknod() (mkdir, create, mknod) ends in d_make_persistent(); link, unlink,
#   rmdir and rename are the simple_* helpers (simple_link persists, simple_unlink and
#   simple_rmdir discard).
# - hugetlbfs_symlink() makes its inode, then page_symlink() writes the target through
#   the mapping's ->write_begin, which is hugetlbfs_write_begin(): it always returns
#   -EINVAL. So a symlink is refused with EINVAL and never made persistent.
# - O_TMPFILE (hugetlbfs_tmpfile) uses d_tmpfile(): not persistent.
# - kill_anon_super(): the umount walk unpins what is left.

WL_HUGETLBFS_DIR=/mnt/wl-hugetlbfs
WL_HUGETLBFS_MADE=4
WL_HUGETLBFS_DISCARDED=2
WL_HUGETLBFS_LEFT=2

. /workloads/common.sh

wl_hugetlbfs_setup() {
	mkdir -p "$WL_HUGETLBFS_DIR"
	echo 2 >/proc/sys/vm/nr_hugepages
	[ "$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)" -ge 1 ] ||
		{ echo "setup: the guest got no free huge page"; return 1; }
}

wl_hugetlbfs_run() {
	local m=$WL_HUGETLBFS_DIR
	wl_need_dirs "$m" || return 1
	wl_do mount -t hugetlbfs -o pagesize=2M,min_size=2M pdt-wl-hugetlbfs "$m"
	wl_note_dev hugetlbfs "$m"
	[ "$(awk '/^HugePages_Rsvd:/ { print $2 }' /proc/meminfo)" -eq 1 ] ||
		wl_fail "min_size=2M did not reserve one huge page"

	wl_do mkdir "$m/d"                       # made 1
	wl_do touch "$m/d/f"                     # 2
	wl_do truncate -s 2M "$m/d/f"            # no call
	wl_refused EINVAL pdt-fsop symlink f "$m/d/sl"
	wl_absent "$m/d/sl"
	wl_do ln "$m/d/f" "$m/hl"                # 3
	wl_do mkfifo "$m/fifo"                   # 4
	wl_refused ENOTEMPTY pdt-fsop rmdir "$m/d"
	wl_do pdt-fsop rename "$m/d/f" "$m/f2"   # no call
	wl_do pdt-fsop rename "$m/f2" "$m/fifo" exchange # no call
	wl_do pdt-fsop tmpfile "$m"              # no call
	wl_do rm "$m/hl"                         # discarded 1
	wl_do rmdir "$m/d"                       # 2

	# left: f2 fifo
	wl_present hugetlbfs "$m" "$WL_HUGETLBFS_LEFT"
	wl_do umount "$m"
	wl_end
}

wl_hugetlbfs_expect() {
	echo "hugetlbfs $(wl_obs dev hugetlbfs) $WL_HUGETLBFS_MADE $WL_HUGETLBFS_DISCARDED $WL_HUGETLBFS_LEFT"
}

wl_hugetlbfs_cleanup() { echo 0 >/proc/sys/vm/nr_hugepages; }
