# Renames of every kind on a fresh tmpfs or ramfs superblock. Not a workload by itself:
# rename_tmpfs.sh and rename_ramfs.sh source it and call wl_rn_run FSTYPE DIR.
#
# Every rename moves persistent dentries to another place in the tree (or swaps two), so
# a tracker that keeps each entry's parent must follow every way into __d_move(), not only
# d_move(): the moved subtrees are removed later together with their old and new parents,
# and a parent change the tracker missed shows as an "orphaned" leak (a directory
# discarded while entries it believes are below it are still persistent) or as entries
# still "below" a directory that is long gone.
#
# From the source (7.2.13):
# - renameat2() -> filename_renameat2() -> __start_renaming() -> vfs_rename() (fs/namei.c).
#   vfs_rename() calls the filesystem's ->rename, then d_move(old, new) or, for
#   RENAME_EXCHANGE, d_exchange(old, new) (neither tmpfs nor ramfs has
#   FS_RENAME_DOES_D_MOVE). Neither makes or discards anything: a plain rename, within a
#   directory or across directories, of a file or of a directory with its subtree, is no
#   call at all.
# - Over an existing target: shmem_rename2() -> shmem_unlink() -> simple_unlink(), and
#   simple_rename() (ramfs) -> simple_unlink(): one d_make_discardable() of the victim
#   (file, or empty directory). A non-empty directory target is refused by the
#   filesystem's simple_empty() check: ENOTEMPTY, no call.
# - RENAME_EXCHANGE: simple_offset_rename_exchange() (tmpfs) / simple_rename_exchange()
#   (ramfs) only fix link counts and timestamps: no call; d_exchange() swaps the two
#   dentries' names and parents.
# - RENAME_NOREPLACE onto an existing name: __start_renaming() looks the target up with
#   LOOKUP_EXCL: EEXIST before the filesystem is called. Onto a free name it is a plain
#   rename.
# - Source an ancestor of the target: __start_renaming() finds old == trap: EINVAL; the
#   target an ancestor of the source: new == trap: ENOTEMPTY. No call.
# - RENAME_WHITEOUT: tmpfs: shmem_rename2() -> shmem_whiteout() d_alloc()s a dentry at the
#   old name and shmem_mknod()s a char 0:0 device on it -> d_make_persistent() (one
#   made, by the kernel, for the user); over an existing target the victim is then
#   shmem_unlink()ed as above. ramfs: simple_rename() accepts only RENAME_NOREPLACE and
#   RENAME_EXCHANGE: EINVAL, nothing changes (filename_renameat2() accepts the flag and
#   7.2 has no CAP_MKNOD check on it).
# - mkdir/create/mknod: shmem_mknod() / ramfs_mknod() -> d_make_persistent(); rmdir and
#   unlink (rm -r too) simple_unlink() -> d_make_discardable(), one per entry.
# - The root is d_make_root(): not persistent. kill_anon_super() (tmpfs) /
#   ramfs_kill_sb() -> kill_anon_super(): the umount walk (select_collect_umount())
#   unpins everything left.
#
# Counts (the running totals are in the comments of wl_rn_run): tmpfs made 36, discarded
# 22, 14 left and unpinned at umount; ramfs made 33, discarded 21, 12 left (no whiteouts:
# 2 made and 1 discarded fewer, the victim of the whiteout rename over a target stays).

WL_RN_MADE_tmpfs=36
WL_RN_DISCARDED_tmpfs=22
WL_RN_LEFT_tmpfs=14
WL_RN_MADE_ramfs=33
WL_RN_DISCARDED_ramfs=21
WL_RN_LEFT_ramfs=12

. /workloads/common.sh

# wl_rn_is TEST PATH...: each PATH passes test(1) TEST (-d, -f, -c).
wl_rn_is() {
	local t=$1 p
	shift
	for p in "$@"; do [ "$t" "$p" ] || wl_fail "$p is not what it should be after the renames ($t)"; done
}

wl_rn_run() { # fstype dir
	local fs=$1 m=$2 i
	wl_need_dirs "$m" || return 1
	wl_do mount -t "$fs" "pdt-wl-rename-$fs" "$m"
	wl_note_dev "$fs" "$m"

	# Files, within a directory and across directories.
	wl_do mkdir "$m/a" "$m/b"                            # made 2
	wl_do sh -c "echo x >$m/a/f1"                        # 3
	wl_do pdt-fsop rename "$m/a/f1" "$m/a/f2"            # within a directory: no call
	wl_do pdt-fsop rename "$m/a/f2" "$m/b/f2"            # across directories: no call

	# A directory with a subtree three levels deep, renamed within its directory, then
	# moved to another one; its old parent is removed first, then the subtree.
	wl_do mkdir "$m/p1" "$m/p2"                          # 5
	wl_do mkdir -p "$m/p1/t/u/v"                         # 8
	wl_do touch "$m/p1/t/u/v/x" "$m/p1/t/u/y" "$m/p1/t/z" # 11
	wl_do pdt-fsop rename "$m/p1/t" "$m/p1/t1"           # no call
	wl_do pdt-fsop rename "$m/p1/t1" "$m/p2/t2"          # no call
	wl_refused EINVAL pdt-fsop rename "$m/p2/t2" "$m/p2/t2/u/t3"  # into itself
	wl_refused ENOTEMPTY pdt-fsop rename "$m/p2/t2/u/v" "$m/p2/t2" # over its ancestor
	wl_rn_is -f "$m/p2/t2/u/v/x" "$m/p2/t2/u/y" "$m/p2/t2/z"
	wl_do rmdir "$m/p1"                                  # discarded 1: the old parent
	wl_do rm -r "$m/p2/t2"                               # 7: x v y u z t2

	# Over an existing file, within a directory and across directories.
	wl_do sh -c "echo v >$m/b/victim"                    # made 12
	wl_do pdt-fsop rename "$m/b/f2" "$m/b/victim"        # discarded 8: the old victim
	wl_do sh -c "echo g >$m/a/g"                         # made 13
	wl_do pdt-fsop rename "$m/a/g" "$m/b/victim"         # discarded 9: f2 under its new name
	[ "$(cat "$m/b/victim")" = g ] || wl_fail "$m/b/victim does not hold a/g's data"

	# A directory with a child over an existing empty directory in another directory; a
	# non-empty target is refused.
	wl_do mkdir "$m/a/src" "$m/a/src/in" "$m/b/edir"     # made 16
	wl_do pdt-fsop rename "$m/a/src" "$m/b/edir"         # discarded 10: the empty edir
	wl_rn_is -d "$m/b/edir/in"
	wl_do mkdir "$m/a/s2"                                # made 17
	wl_refused ENOTEMPTY pdt-fsop rename "$m/a/s2" "$m/b/edir"

	# RENAME_EXCHANGE of two files in different directories.
	wl_do sh -c "echo 1 >$m/a/e1; echo 2 >$m/b/e2"       # made 19
	wl_do pdt-fsop rename "$m/a/e1" "$m/b/e2" exchange   # no call
	[ "$(cat "$m/a/e1")$(cat "$m/b/e2")" = 21 ] || wl_fail "a/e1 and b/e2 were not exchanged"

	# RENAME_EXCHANGE of two directories with children, in different parents, three
	# times (so they end swapped), then of a file with a directory; then both parents go.
	wl_do mkdir "$m/q1" "$m/q2" "$m/q1/D1" "$m/q1/D1/c2" "$m/q2/D2" # made 24
	wl_do touch "$m/q1/D1/c1" "$m/q1/D1/c2/g" "$m/q2/D2/k1"         # 27
	for i in 1 2 3; do
		wl_do pdt-fsop rename "$m/q1/D1" "$m/q2/D2" exchange     # no call
	done
	wl_rn_is -f "$m/q1/D1/k1" "$m/q2/D2/c1" "$m/q2/D2/c2/g"
	wl_do touch "$m/q1/F"                                # made 28
	wl_do mkdir "$m/q2/G"                                # 29
	wl_do touch "$m/q2/G/h"                              # 30
	wl_do pdt-fsop rename "$m/q1/F" "$m/q2/G" exchange   # no call
	wl_rn_is -f "$m/q1/F/h" "$m/q2/G"
	wl_do rm -r "$m/q1"                                  # discarded 15: k1 D1 h F q1
	wl_do rm -r "$m/q2"                                  # 21: c1 g c2 D2 G q2

	# RENAME_NOREPLACE: refused onto an existing name, a plain rename onto a free one.
	wl_do touch "$m/b/n1" "$m/b/n2"                      # made 32
	wl_refused EEXIST pdt-fsop rename "$m/b/n1" "$m/b/n2" noreplace
	wl_do pdt-fsop rename "$m/b/n1" "$m/b/n3" noreplace  # no call
	wl_absent "$m/b/n1"

	# RENAME_WHITEOUT.
	wl_do touch "$m/b/w"                                 # made 33
	if [ "$fs" = tmpfs ]; then
		wl_do pdt-fsop rename "$m/b/w" "$m/b/w2" whiteout  # made 34: the whiteout at b/w
		wl_do touch "$m/b/w3"                              # 35
		wl_do pdt-fsop rename "$m/b/w2" "$m/b/w3" whiteout # 36 (whiteout at b/w2), discarded 22 (old w3)
		wl_rn_is -c "$m/b/w" "$m/b/w2"
		wl_rn_is -f "$m/b/w3"
	else
		wl_refused EINVAL pdt-fsop rename "$m/b/w" "$m/b/w2" whiteout
	fi

	# left: a a/s2 a/e1 b b/victim b/edir b/edir/in b/e2 b/n2 b/n3 b/w p2, and on tmpfs
	# b/w2 b/w3
	eval "wl_present $fs $m \$WL_RN_LEFT_$fs"
	wl_last_umount "$m"
	wl_end
}

wl_rn_expect() { # fstype < run output
	local fs=$1
	eval "echo $fs \$(wl_obs dev $fs) \$WL_RN_MADE_$fs \$WL_RN_DISCARDED_$fs \$WL_RN_LEFT_$fs"
}
