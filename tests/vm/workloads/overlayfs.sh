# overlayfs (fs/overlayfs) in the container layout: the lower layer on one tmpfs (made and
# filled untraced by setup), upper and work directories on another tmpfs that the run mounts,
# uses through the overlay and unmounts. overlayfs has no persistent entries of its own; all
# its changes land on the upper tmpfs as vfs_*() calls into shmem (mm/shmem.c), each one a
# d_make_persistent() or d_make_discardable() there. Many of them are made by overlayfs
# itself in its work directory, and several go through RENAME_EXCHANGE (d_exchange()), so
# temporary entries change parents under the tracker's nose.
#
# Mount options are given explicitly (redirect_dir=off, index=off, metacopy=off, xino=off,
# Debian's defaults too): no index directory, no metacopy, directories cannot be renamed.
#
# From the source (7.2.13), what each step does on the upper tmpfs (shmem as in tmpfs.sh:
# mkdir, create, mknod, link persist one entry; unlink, rmdir, and a rename over an
# existing target discard one; plain renames and exchanges make no call):
# - mount: ovl_fill_super() -> ovl_get_workdir() -> ovl_make_workdir():
#   ovl_workdir_create("work") mkdirs work/work (1 made; if it exists it is first removed
#   with ovl_workdir_cleanup(), see the remount); ovl_do_tmpfile() checks O_TMPFILE
#   (d_tmpfile(): no call); ovl_check_rename_whiteout() creates a temp file "#N" in
#   work/work (ovl_create_temp() -> ovl_create_real() -> ovl_do_create(): 1 made), renames
#   it with RENAME_WHITEOUT (shmem_whiteout(): 1 made, the whiteout) and ovl_cleanup()s
#   both (2 discarded). Total: 3 made, 2 discarded, work/work left.
# - Creating in the merged directory where nothing was: ovl_create_object() ->
#   ovl_create_or_link() -> ovl_create_upper() -> ovl_create_real(): 1 made (a directory in
#   a merge directory also gets the opaque xattr: no call).
# - Removing a pure upper entry: ovl_do_remove() -> ovl_remove_upper() -> vfs_unlink() /
#   vfs_rmdir(): 1 discarded.
# - Renaming pure upper entries (within and across directories, and RENAME_EXCHANGE of
#   directories): ovl_rename() -> ovl_rename_upper() -> ovl_do_rename_rd() -> vfs_rename()
#   on the upper: no call (d_move()/d_exchange() on the upper tmpfs).
# - Copy-up of a lower regular file (open for write, chmod: ovl_open() ->
#   ovl_maybe_copy_up(), ovl_setattr() -> ovl_copy_up()): ovl_copy_up_tmpfile() (the upper
#   supports O_TMPFILE): an O_TMPFILE (no call) linked in with ovl_do_link() ->
#   shmem_link() -> simple_link(): 1 made. Its lower-only parent directory is copied up
#   first (ovl_copy_up_flags() walks up): ovl_copy_up_workdir() mkdirs a temp "#N" in
#   work/work (1 made) and renames it into place (no call).
# - Removing a lower file: ovl_remove_and_whiteout() -> ovl_cleanup_and_whiteout() ->
#   ovl_whiteout(): the first time it makes the shared whiteout "#N" in work/work
#   (ovl_do_whiteout() -> vfs_whiteout() -> vfs_mknod(): 1 made, kept in ofs->whiteout and
#   left in work/work for good), then every time a hard link "#M" to it (ovl_do_link(): 1
#   made), renamed over the (negative) upper name: no discard.
# - Renaming a lower file: ovl_rename_start() copies it up (1 made) and sets
#   RENAME_WHITEOUT: shmem_rename2() -> shmem_whiteout() leaves a whiteout at the old name
#   (1 made); over an existing upper file that file is shmem_unlink()ed (1 discarded).
#   A lower (or merge) directory cannot move without redirect_dir: ovl_can_move() ->
#   EXDEV; RENAME_WHITEOUT from user space: ovl_rename_start() -> EINVAL.
# - Creating where a lower entry was removed (a whiteout in the upper):
#   ovl_create_over_whiteout(): ovl_create_temp() in work/work (1 made), then a file is
#   renamed over the whiteout (shmem_unlink() of the whiteout: 1 discarded); a directory is
#   made opaque and RENAME_EXCHANGEd with the whiteout, which ovl_cleanup() then unlinks
#   in work/work (1 discarded).
# - rmdir of a merge directory whose lower entries were all removed:
#   ovl_check_empty_dir() lists the upper whiteouts; ovl_remove_and_whiteout() ->
#   ovl_clear_empty(): ovl_create_temp() an opaque directory in work/work (1 made),
#   RENAME_EXCHANGE it with the upper directory, ovl_cleanup_whiteouts() (1 discarded per
#   whiteout) and ovl_cleanup() of the old upper directory, now in work/work (1
#   discarded); then ovl_cleanup_and_whiteout(): a whiteout link (1 made) RENAME_EXCHANGEd
#   with the opaque directory, which is ovl_cleanup()ed in work/work (1 discarded).
#   With N lower entries: N whiteouts when they are removed, then 2 made, N + 2 discarded.
#   A lower-only directory that still has entries: ovl_check_empty_dir() -> ENOTEMPTY
#   before any copy-up.
# - busybox mv of a lower directory: rename() gets EXDEV, so mv copies (mkdir, then one
#   create per file: pure upper) and removes the source (rm -r: as above).
# - umount of the overlay: ovl_free_fs() only dput()s ofs->whiteout: the shared whiteout
#   stays in work/work. A new mount finds work/work: ovl_workdir_create() ->
#   ovl_workdir_cleanup(): rmdir fails (ENOTEMPTY), ovl_workdir_cleanup_recurse()
#   ovl_cleanup()s the shared whiteout (1 discarded), then work/work itself (1 discarded),
#   and mkdirs it again (1 made); then the checks as at the first mount (2 made, 2
#   discarded).
# - The lower tmpfs is only read: no call there.
# Totals on the upper tmpfs (running counts in the comments of wl_overlayfs_run): 48 made,
# 20 discarded, 28 left for the umount walk (kill_anon_super()).

WL_OVL_BASE=/mnt/wl-ovl
WL_OVL_MADE=48
WL_OVL_DISCARDED=20
WL_OVL_LEFT=28

. /workloads/common.sh

wl_overlayfs_setup() {
	local l=$WL_OVL_BASE/lower
	grep -qw overlay /proc/filesystems || { echo "setup: overlay is not registered (# modules: overlay)"; return 1; }
	mkdir -p "$l" "$WL_OVL_BASE/u" "$WL_OVL_BASE/merged" || return 1
	mount -t tmpfs pdt-wl-ovl-lower "$l" || return 1
	for f in lf1 lf2 lf3 lf4 lf5 lf6 lf7; do echo "$f" >"$l/$f" || return 1; done
	mkdir "$l/ld" "$l/lm" "$l/lc" &&
		echo la >"$l/ld/la" && echo lb >"$l/ld/lb" &&
		echo ma >"$l/lm/ma" && echo mb >"$l/lm/mb" &&
		echo ca >"$l/lc/ca"
}

wl_overlayfs_cleanup() { umount "$WL_OVL_BASE/lower"; }

wl_ovl_mount() {
	local b=$WL_OVL_BASE
	wl_do mount -t overlay pdt-wl-ovl \
		-o "lowerdir=$b/lower,upperdir=$b/u/upper,workdir=$b/u/work,redirect_dir=off,index=off,metacopy=off,xino=off" \
		"$b/merged"
}

# wl_ovl_is TEST PATH...
wl_ovl_is() {
	local t=$1 p
	shift
	for p in "$@"; do [ "$t" "$p" ] || wl_fail "$p: test $t fails"; done
}

wl_overlayfs_run() {
	local b=$WL_OVL_BASE m=$WL_OVL_BASE/merged u=$WL_OVL_BASE/u up=$WL_OVL_BASE/u/upper n shared ino
	wl_need_dirs "$b/lower" "$u" "$m" || return 1
	wl_note_dev lower "$b/lower"
	wl_do mount -t tmpfs pdt-wl-ovl-upper "$u"
	wl_note_dev upper "$u"
	wl_do mkdir "$u/upper" "$u/work"                    # made 2
	wl_ovl_mount                                        # 5 (work/work, temp, whiteout), discarded 2
	wl_ovl_is -d "$u/work/work"

	# Pure upper entries: create, remove, rename within and across directories, exchange
	# two directories with children in different parents.
	wl_do mkdir "$m/nd"                                 # made 6
	wl_do sh -c "echo nf >$m/nf; echo f1 >$m/nd/f1"     # 8
	wl_do mkdir "$m/nd/sub"                             # 9
	wl_do sh -c "echo f2 >$m/nd/sub/f2"                 # 10
	wl_do rm "$m/nf" "$m/nd/sub/f2"                     # discarded 4
	wl_do rmdir "$m/nd/sub"                             # 5
	wl_do mkdir "$m/u1" "$m/u2"                         # made 12
	wl_do sh -c "echo a >$m/u1/a"                       # 13
	wl_do pdt-fsop rename "$m/u1/a" "$m/u1/b"           # no call
	wl_do pdt-fsop rename "$m/u1/b" "$m/u2/b"           # no call
	wl_do mkdir "$m/u1/X1" "$m/u2/X2"                   # made 15
	wl_do touch "$m/u1/X1/x1" "$m/u2/X2/x2"             # 17
	wl_do pdt-fsop rename "$m/u1/X1" "$m/u1/Y1"         # no call
	wl_do pdt-fsop rename "$m/u1/Y1" "$m/u2/X2" exchange # no call: d_exchange() on the upper
	wl_do pdt-fsop rename "$m/u2/X2" "$m/nd/Z"          # no call
	wl_ovl_is -f "$m/u1/Y1/x2" "$m/nd/Z/x1" "$up/u1/Y1/x2" "$up/nd/Z/x1"

	# Copy-up of lower files: written to, chmod (the second one in a lower directory,
	# which is copied up first).
	wl_do sh -c "echo more >>$m/lf1"                    # made 18
	wl_do chmod 600 "$m/lf2"                            # 19
	wl_do chmod 600 "$m/lc/ca"                          # 21 (lc through work/work, ca)
	wl_ovl_is -f "$up/lf1" "$up/lf2" "$up/lc/ca"

	# A lower file removed: the shared whiteout, then a link to it at lf3.
	wl_do rm "$m/lf3"                                   # made 23
	wl_ovl_is -c "$up/lf3"
	wl_absent "$m/lf3"

	# Lower files renamed: copy-up, then RENAME_WHITEOUT on the upper.
	wl_refused EINVAL pdt-fsop rename "$m/lf4" "$m/lf4w" whiteout
	wl_do pdt-fsop rename "$m/lf4" "$m/lf4r"            # made 25
	wl_do pdt-fsop rename "$m/lf5" "$m/u1/lf5"          # 27
	wl_do pdt-fsop rename "$m/lf1" "$m/u2/b"            # 28, discarded 6 (the old u2/b)
	wl_ovl_is -c "$up/lf4" "$up/lf5" "$up/lf1"
	wl_absent "$m/lf4" "$m/lf5" "$m/lf1"
	[ "$(cat "$m/u2/b")" = "lf1
more" ] || wl_fail "$m/u2/b does not hold lf1's data"

	# Created again over a whiteout: a file (renamed over it), a directory (exchanged).
	wl_do rm "$m/lf6"                                   # made 29
	wl_do sh -c "echo new >$m/lf6"                      # 30, discarded 7
	wl_do rm "$m/lf7"                                   # made 31
	wl_do mkdir "$m/lf7"                                # 32, discarded 8
	wl_ovl_is -f "$up/lf6"
	wl_ovl_is -d "$up/lf7"

	# rmdir of a merge directory once its lower entries are gone.
	wl_refused ENOTEMPTY pdt-fsop rmdir "$m/ld"
	wl_do rm "$m/ld/la" "$m/ld/lb"                      # made 35 (ld copied up, 2 whiteouts)
	wl_do rmdir "$m/ld"                                 # 37, discarded 12
	wl_ovl_is -c "$up/ld"
	wl_absent "$m/ld"

	# A lower directory moved: EXDEV, so busybox mv copies and removes.
	wl_refused EXDEV pdt-fsop rename "$m/lm" "$m/nd/lm2"
	wl_do mv "$m/lm" "$m/nd/lm2"                        # made 45, discarded 16
	wl_ovl_is -f "$m/nd/lm2/ma" "$m/nd/lm2/mb"
	wl_ovl_is -c "$up/lm"
	wl_absent "$m/lm"

	# Only the shared whiteout is left in the work directory. The whiteouts of removals
	# (lf3, ld, lm) are hard links to it: 4 names (the links at lf6, lf7, la, lb, ma, mb
	# were unlinked again); those of renames (lf1, lf4, lf5) are shmem_whiteout()'s own.
	n=$(find "$u/work/work" -mindepth 1 | wc -l)
	[ "$n" -eq 1 ] || wl_fail "$u/work/work holds $n entries, want 1 (the shared whiteout)"
	shared=$(find "$u/work/work" -mindepth 1 | head -n 1)
	wl_ovl_is -c "$shared"
	ino=$(stat -c %i "$shared")
	[ "$(stat -c %h "$shared")" = 4 ] || wl_fail "the shared whiteout has $(stat -c %h "$shared") links, want 4"
	for n in lf3 ld lm; do
		[ "$(stat -c %i "$up/$n")" = "$ino" ] || wl_fail "$up/$n is not a link to the shared whiteout"
	done
	for n in lf1 lf4 lf5; do
		[ "$(stat -c %i "$up/$n")" != "$ino" ] && [ "$(stat -c %h "$up/$n")" = 1 ] ||
			wl_fail "$up/$n is not a whiteout of its own"
	done
	wl_do umount "$m"

	# Mounted again: work/work is emptied and made again.
	wl_ovl_mount                                        # made 48, discarded 20
	n=$(find "$u/work/work" -mindepth 1 | wc -l)
	[ "$n" -eq 0 ] || wl_fail "$u/work/work holds $n entries after the new mount, want 0"
	wl_ovl_is -f "$m/lf2" "$m/lf4r" "$m/lc/ca" "$m/lf6" "$m/u1/lf5" "$m/nd/f1"
	wl_do umount "$m"

	# left: upper work work/work; upper/: nd nd/f1 nd/Z nd/Z/x1 u1 u1/Y1 u1/Y1/x2
	# u1/lf5 u2 u2/b lf2 lc lc/ca lf4r lf6 lf7 nd/lm2 nd/lm2/ma nd/lm2/mb and the whiteouts
	# lf1 lf3 lf4 lf5 ld lm
	wl_present upper "$u" "$WL_OVL_LEFT"
	wl_last_umount "$u"
	wl_end
}

wl_overlayfs_expect() {
	local out
	out=$(cat)
	echo "tmpfs $(echo "$out" | wl_obs dev upper) $WL_OVL_MADE $WL_OVL_DISCARDED $WL_OVL_LEFT"
	echo "tmpfs $(echo "$out" | wl_obs dev lower) 0 0 0"
}
