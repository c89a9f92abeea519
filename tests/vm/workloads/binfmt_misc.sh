# binfmt_misc (fs/binfmt_misc.c) on a fresh superblock: register formats, remove one with
# "-1" on its entry, all with "-1" on status, leave one for the umount walk.
#
# From the source:
# - bm_fill_super() -> simple_fill_super() creates "status" and "register" with
#   d_make_persistent(): the kernel makes 2 entries at mount, before any user action.
# - bm_register_write() -> add_entry(): d_make_persistent() on a dentry it looks up
#   itself (simple_start_creating), not one the VFS passed.
# - "-1" to an entry (bm_entry_write) or to status (bm_status_write, every entry) ->
#   remove_binfmt_handler() -> locked_recursive_removal() -> d_make_discardable(); "0"/"1"
#   only disable/enable.
# - bm_get_tree() -> get_tree_keyed() on the user namespace: a second mount in the same
#   user namespace is the same superblock; bm_kill_sb() -> kill_anon_super(): the umount
#   walk unpins status, register and whatever formats are still registered.
# The guest mounts no binfmt_misc of its own, so the first mount makes the superblock.

WL_BINFMT_DIR=/mnt/wl-binfmt
WL_BINFMT_DIR2=/mnt/wl-binfmt2
WL_BINFMT_MADE=6
WL_BINFMT_DISCARDED=3
WL_BINFMT_LEFT=3

. /workloads/common.sh

wl_binfmt_misc_setup() {
	mkdir -p "$WL_BINFMT_DIR" "$WL_BINFMT_DIR2"
	grep -qw binfmt_misc /proc/filesystems || { echo "setup: no binfmt_misc filesystem"; return 1; }
	! grep -q ' - binfmt_misc ' /proc/self/mountinfo ||
		{ echo "setup: binfmt_misc is already mounted: no fresh superblock"; return 1; }
}

wl_binfmt_misc_run() {
	local m=$WL_BINFMT_DIR f
	wl_need_dirs "$m" "$WL_BINFMT_DIR2" || return 1
	wl_do mount -t binfmt_misc pdt-wl-binfmt "$m"   # made 2: status, register
	wl_note_dev binfmt_misc "$m"
	wl_do mount -t binfmt_misc pdt-wl-binfmt "$WL_BINFMT_DIR2"
	wl_same_sb "$m" "$WL_BINFMT_DIR2"
	wl_do umount "$WL_BINFMT_DIR2"
	wl_exists "$m/status" "$m/register"

	for f in A B C; do
		wl_do sh -c "echo ':pdt$f:E::pdt$f::/bin/true:' >$m/register" # made 3, 4, 5
	done
	wl_exists "$m/pdtA" "$m/pdtB" "$m/pdtC"
	wl_do sh -c "echo -1 >$m/pdtA"                  # discarded 1
	wl_do sh -c "echo 0 >$m/pdtB"                   # disabled: no call
	wl_do sh -c "echo -1 >$m/status"                # pdtB, pdtC: discarded 3
	wl_absent "$m/pdtA" "$m/pdtB" "$m/pdtC"
	wl_do sh -c "echo ':pdtD:E::pdtD::/bin/true:' >$m/register" # made 6

	# left: status register pdtD
	wl_present binfmt_misc "$m" "$WL_BINFMT_LEFT"
	wl_do umount "$m"
	wl_end
}

wl_binfmt_misc_expect() {
	echo "binfmt_misc $(wl_obs dev binfmt_misc) $WL_BINFMT_MADE $WL_BINFMT_DISCARDED $WL_BINFMT_LEFT"
}
