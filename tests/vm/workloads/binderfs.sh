# binderfs (drivers/android/binderfs.c): cannot be exercised on Debian's kernel.
# Debian builds the binder driver (CONFIG_ANDROID_BINDER_IPC=m, binder_linux) but not
# binderfs (CONFIG_ANDROID_BINDERFS is not set; the Rust binder is off too): with
# binder_linux loaded, the binder devices are misc devices (/dev/binder, made in devtmpfs)
# and there is no "binder" filesystem to mount. The setup checks exactly that in the
# guest and reports a skip; on a kernel with binderfs it fails rather than pretend: no
# workload has been checked against a real binderfs yet.

. /workloads/common.sh

wl_binderfs_setup() {
	if grep -qw binder /proc/filesystems; then
		echo "setup: this kernel has binderfs, but no binderfs workload was ever checked on one"
		return 1
	fi
	if [ -c /dev/binder ]; then
		echo "SKIP: no binderfs in this kernel (CONFIG_ANDROID_BINDERFS off): binder_linux is loaded, /dev/binder is a misc device, 'binder' is not in /proc/filesystems"
	else
		echo "SKIP: no binderfs in this kernel ('binder' is not in /proc/filesystems) and no binder driver (/dev/binder)"
	fi
	return 77
}

wl_binderfs_run() { wl_fail "no binderfs workload: see tests/vm/workloads/binderfs.sh"; wl_end; }
wl_binderfs_expect() { :; }
