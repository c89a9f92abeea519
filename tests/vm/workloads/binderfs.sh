# binderfs (drivers/android/binderfs.c): binder devices made through binder-control and
# removed with unlink, then umount.
#
# From the source:
# - binderfs_fill_super() makes, persistent: "binder-control"
#   (binderfs_binder_ctl_create), one device per name of the binder driver's "devices"
#   parameter (binderfs_binder_device_create), "features" and its 4 files
#   (init_binder_features); with stats=global also "binder_logs", its 7 files (one per
#   binder_debugfs_entries[] entry) and "proc" (init_binder_logs). The root is not
#   persistent.
# - BINDER_CTL_ADD on binder-control: binderfs_binder_device_create(): one persistent
#   device; a name already there fails in simple_start_creating() with EEXIST.
# - unlink: binderfs_unlink() -> simple_unlink(): one discard; binder-control refuses
#   (EPERM). rename: binderfs_rename() -> simple_rename(): nothing for a move, one discard
#   for the entry it replaces; binder-control refuses (EPERM). No mkdir: EPERM.
# - umount: kill_anon_super(): the umount walk unpins whatever is left.
# Debian's kernel has the binder driver (binder_linux) but not binderfs: there the
# setup reports a skip, checked in the guest.

WL_BINDERFS_DIR=/mnt/wl-binderfs
WL_BINDERFS_DIR2=/mnt/wl-binderfs2

. /workloads/common.sh

wl_binderfs_setup() {
	if ! grep -qw binder /proc/filesystems; then
		if [ -c /dev/binder ]; then
			echo "SKIP: no binderfs in this kernel (CONFIG_ANDROID_BINDERFS off): the binder driver is loaded, /dev/binder is a misc device, 'binder' is not in /proc/filesystems"
		else
			echo "SKIP: no binderfs in this kernel ('binder' is not in /proc/filesystems) and no binder driver (/dev/binder)"
		fi
		return 77
	fi
	mkdir -p "$WL_BINDERFS_DIR" "$WL_BINDERFS_DIR2"
}

# The binder driver's default devices, made in every new binderfs.
wl_binderfs_ndev() {
	local p
	p=$(cat /sys/module/binder*/parameters/devices 2>/dev/null | head -n1)
	[ -n "$p" ] || { echo 0; return; }
	echo "$p" | tr ',' '\n' | grep -c .
}

wl_binderfs_count() { find "$1" -mindepth 1 | wc -l; }

wl_binderfs_run() {
	local m=$WL_BINDERFS_DIR m2=$WL_BINDERFS_DIR2 n0 n2
	wl_need_dirs "$m" "$m2" || return 1
	wl_do mount -t binder pdt-wl-binder "$m"
	wl_note_dev binderfs "$m"
	n0=$(wl_binderfs_count "$m")
	echo "@wl initial binderfs $n0"
	[ "$n0" -eq $((1 + $(wl_binderfs_ndev) + 5)) ] ||
		wl_fail "a new binderfs holds $n0 entries, want binder-control, $(wl_binderfs_ndev) devices and features/ with 4 files"
	wl_exists "$m/binder-control" "$m/features/extended_error"
	wl_do pdt-fsop binder-add "$m/binder-control" pdt-a pdt-b pdt-c # made 3
	wl_exists "$m/pdt-a" "$m/pdt-b" "$m/pdt-c"
	[ -c "$m/pdt-a" ] || wl_fail "$m/pdt-a is not a character device"
	wl_refused EEXIST pdt-fsop binder-add "$m/binder-control" pdt-a
	wl_refused EPERM pdt-fsop unlink "$m/binder-control"
	wl_refused EPERM pdt-fsop rename "$m/binder-control" "$m/ctl"
	wl_refused EPERM pdt-fsop mkdir "$m/d"
	wl_do pdt-fsop rename "$m/pdt-a" "$m/pdt-a2" # no call
	wl_do pdt-fsop rename "$m/pdt-b" "$m/pdt-c"  # replaces pdt-c: discarded 1
	wl_do pdt-fsop unlink "$m/pdt-a2"             # 2
	wl_absent "$m/pdt-a" "$m/pdt-a2" "$m/pdt-b"
	wl_present binderfs "$m" $((n0 + 1))

	# With stats=global, binder_logs/ too; one device added, all left to umount. Mounted
	# before the first goes away, or it could take the first one's device number, and the
	# counts are keyed by device.
	wl_do mount -t binder -o stats=global pdt-wl-binder2 "$m2"
	wl_note_dev binderfs-logs "$m2"
	wl_do umount "$m"
	wl_exists "$m2/binder_logs/proc"
	n2=$(wl_binderfs_count "$m2")
	echo "@wl initial binderfs-logs $n2"
	[ "$n2" -eq $((n0 + 9)) ] || wl_fail "a binderfs with stats=global holds $n2 entries, want $((n0 + 9))"
	wl_do pdt-fsop binder-add "$m2/binder-control" pdt-d # made 1
	wl_present binderfs-logs "$m2" $((n2 + 1))
	wl_last_umount "$m2"
	wl_end
}

wl_binderfs_expect() {
	local out n0 n2
	out=$(cat)
	n0=$(echo "$out" | wl_obs initial binderfs)
	n2=$(echo "$out" | wl_obs initial binderfs-logs)
	echo "binder $(echo "$out" | wl_obs dev binderfs) $((n0 + 3)) 2 $((n0 + 1))"
	echo "binder $(echo "$out" | wl_obs dev binderfs-logs) $((n2 + 1)) 0 $((n2 + 1))"
}
