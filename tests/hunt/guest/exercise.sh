# What the hunt does with a module once it is loaded (busybox sh, sourced by lib.sh):
# generic steps for every module (a filesystem type it registered is mounted and
# unmounted; a configfs subsystem it registered gets a directory made and removed at its
# top and one level below), and, for the test drivers that create devices on request,
# their devices created and destroyed through their real interfaces.
#
# Per module NAME (with _ for -), optional:
#   hx_params_NAME    prints modprobe's parameters
#   hx_helpers_NAME   prints modules to load before the turn (not dependencies: what the
#                     exercise needs, e.g. a UDC for a gadget function)
#   hx_pre_NAME       before the turn (say, unmount what would keep it loaded)
#   hx_run_NAME IDX   the exercise; "hx_note IDX ..." lines say what it did
#   hx_nofs_NAME      defined: the generic mount of its filesystem types is left out
#                     (hx_run_NAME mounts them the way they must be)

hx_call() { # kind name [args]
	local f
	f=hx_$1_$(kname "$2")
	shift 2
	command -v "$f" >/dev/null 2>&1 || return 0
	"$f" "$@"
}

hx_note() { local i=$1; shift; say note "$i" "$*"; }

# hx_try IDX CMD...: a step that may fail; either way it is noted.
hx_try() {
	local i=$1 out
	shift
	if out=$("$@" 2>&1); then hx_note "$i" "ok: $*"; else hx_note "$i" "failed: $* ($(echo "$out" | tr '\n' ' '))"; fi
}

# hx_wait SECS CMD...: until CMD succeeds, at most SECS seconds.
hx_wait() {
	local n=$(($1 * 10))
	shift
	while [ $n -gt 0 ]; do
		"$@" 2>/dev/null && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

fs_types() { awk '$1 == "nodev" { print $2 }' /proc/filesystems | sort | tr '\n' ' '; }
cfs_top() { ls "$CFS" 2>/dev/null | sort | tr '\n' ' '; }

# Types in $2 that are not in $1.
new_words() {
	local w
	for w in $2; do
		case " $1 " in *" $w "*) ;; *) echo "$w" ;; esac
	done
}

exercise() { # idx name fs-types-before configfs-before
	local idx=$1 name=$2 t d s
	hx_call run "$name" "$idx"
	if ! command -v "hx_nofs_$(kname "$name")" >/dev/null 2>&1; then
		for t in $(new_words "$3" "$(fs_types)"); do
			hx_fs_cycle "$idx" "$t"
		done
	fi
	# configfs's own turn must leave it unmounted, or it would not unload.
	[ "$(kname "$name")" = configfs ] || cfs_mount
	for d in $(new_words "$4" "$(cfs_top)"); do
		hx_cfs_cycle "$idx" "$CFS/$d"
	done
}

# A filesystem type the module registered: mounted, listed, unmounted.
hx_fs_cycle() { # idx type
	if mount -t "$2" hunt /mnt/hunt-fs 2>/dev/null; then
		hx_note "$1" "mounted $2: $(ls /mnt/hunt-fs | wc -l) entries"
		hx_try "$1" umount /mnt/hunt-fs
	else
		hx_note "$1" "mount -t $2 refused"
	fi
}

# A configfs subsystem: a directory made and removed in it, and in each of its
# directories (most subsystems take user groups one level down: nvmet/hosts,
# usb_gadget/G, target/core ...).
hx_cfs_cycle() { # idx dir
	local d
	for d in "$2" "$2"/*/; do
		d=${d%/}
		[ -d "$d" ] && [ ! -L "$d" ] || continue
		if mkdir "$d/hunt0" 2>/dev/null; then
			hx_note "$1" "configfs: made $d/hunt0 ($(ls "$d/hunt0" | wc -l) entries)"
			rmdir "$d/hunt0" 2>/dev/null || hx_note "$1" "configfs: rmdir $d/hunt0 refused"
		fi
	done
}

# ---- the device-creating test drivers -------------------------------------------

# netdevsim: a device with two ports through the bus's new_device, then del_device
# (Debian's kernel does not build it: CONFIG_NETDEVSIM is not set).
hx_run_netdevsim() {
	local i=$1 b=/sys/bus/netdevsim
	hx_try "$i" sh -c "echo '7 2' >$b/new_device"
	hx_wait 10 sh -c "ls $b/devices/netdevsim7/net | grep -q ."
	hx_note "$i" "netdevsim7 ports: $(ls $b/devices/netdevsim7/net 2>/dev/null | tr '\n' ' ')"
	for n in $(ls $b/devices/netdevsim7/net 2>/dev/null); do ip link set "$n" up; done
	hx_try "$i" sh -c "echo 7 >$b/del_device"
}

# mac80211_hwsim: two radios at load; their interfaces up and down.
hx_params_mac80211_hwsim() { echo radios=2; }
hx_run_mac80211_hwsim() {
	local i=$1 n
	for n in /sys/class/ieee80211/*/device/net/*; do
		[ -e "$n" ] || continue
		hx_try "$i" ip link set "${n##*/}" up
		hx_try "$i" ip link set "${n##*/}" down
	done
	hx_note "$i" "radios: $(ls /sys/class/ieee80211 | tr '\n' ' ')"
}

# scsi_debug: one host (and its disk) at load; one more through add_host, then both
# removed the same way before the unload.
hx_helpers_scsi_debug() { echo sd_mod; }
hx_run_scsi_debug() {
	local i=$1 a=/sys/bus/pseudo/drivers/scsi_debug/add_host
	hx_try "$i" sh -c "echo 1 >$a"
	hx_note "$i" "hosts: $(cat $a), disks: $(ls /sys/block | grep -c '^sd')"
	hx_try "$i" sh -c "echo -1 >$a"
	hx_try "$i" sh -c "echo -1 >$a"
	hx_note "$i" "hosts: $(cat $a), disks: $(ls /sys/block | grep -c '^sd')"
}

# null_blk: nullb0 at load; a device made through configfs, powered on and off, removed.
hx_run_null_blk() {
	local i=$1 d=$CFS/nullb/hunt1
	cfs_mount
	hx_try "$i" mkdir "$d"
	hx_try "$i" sh -c "echo 1 >$d/power"
	hx_note "$i" "disks: $(ls /sys/block | grep nullb | tr '\n' ' ')"
	hx_try "$i" sh -c "echo 0 >$d/power"
	hx_try "$i" rmdir "$d"
}
hx_nofs_null_blk() { :; }

# zram: zram0 at load; one more through hot_add, removed through hot_remove.
hx_run_zram() {
	local i=$1 id
	id=$(cat /sys/class/zram-control/hot_add)
	hx_note "$i" "hot_add: zram$id"
	hx_try "$i" sh -c "echo $id >/sys/class/zram-control/hot_remove"
}

# nvmet: a subsystem with a namespace on a file, a host allowed, a port, then all removed.
hx_nvmet_setup() { # idx nqn
	local i=$1 n=$CFS/nvmet s=$CFS/nvmet/subsystems/$2
	truncate -s 1M /run/hunt-nvme.img
	hx_try "$i" mkdir "$s" "$s/namespaces/1" "$n/hosts/$2:host"
	hx_try "$i" sh -c "echo /run/hunt-nvme.img >$s/namespaces/1/device_path; echo 1 >$s/namespaces/1/buffered_io; echo 1 >$s/namespaces/1/enable"
	hx_try "$i" ln -s "$n/hosts/$2:host" "$s/allowed_hosts/"
	hx_try "$i" mkdir "$n/ports/1"
}
hx_nvmet_teardown() { # idx nqn
	local i=$1 n=$CFS/nvmet s=$CFS/nvmet/subsystems/$2
	rm -f "$n/ports/1/subsystems/$2" "$s/allowed_hosts/$2:host"
	hx_try "$i" rmdir "$n/ports/1" "$n/hosts/$2:host" "$s/namespaces/1" "$s"
	rm -f /run/hunt-nvme.img
}
hx_run_nvmet() {
	hx_nvmet_setup "$1" nqn.2026-01.org.pdtrace:hunt
	hx_nvmet_teardown "$1" nqn.2026-01.org.pdtrace:hunt
}

# nvme-loop: the same target on a loop port, connected from the host side
# (/dev/nvme-fabrics: a controller, its namespace's disk), disconnected, torn down.
hx_helpers_nvme_loop() { echo nvme-fabrics; }
hx_run_nvme_loop() {
	local i=$1 q=nqn.2026-01.org.pdtrace:hunt c
	hx_nvmet_setup "$i" $q
	hx_try "$i" sh -c "echo loop >$CFS/nvmet/ports/1/addr_trtype"
	hx_try "$i" ln -s "$CFS/nvmet/subsystems/$q" "$CFS/nvmet/ports/1/subsystems/"
	# A host id of its own: with the default one, nvme-fabrics refuses a second host NQN.
	hx_try "$i" sh -c "echo 'transport=loop,nqn=$q,hostnqn=$q:host,hostid=$(cat /proc/sys/kernel/random/uuid)' >/dev/nvme-fabrics"
	hx_wait 20 sh -c "ls /sys/block | grep -q '^nvme'"
	hx_note "$i" "controllers: $(ls /sys/class/nvme 2>/dev/null | tr '\n' ' ') disks: $(ls /sys/block | grep '^nvme' | tr '\n' ' ')"
	for c in /sys/class/nvme/nvme*; do
		[ -e "$c/delete_controller" ] && hx_try "$i" sh -c "echo 1 >$c/delete_controller"
	done
	hx_nvmet_teardown "$i" $q
}

# ---- USB gadgets on dummy_hcd ----------------------------------------------------

# The host side's bus of dummy_hcd, e.g. 1.
hx_dummy_bus() {
	local u
	for u in /sys/bus/usb/devices/usb*; do
		case $(readlink -f "$u") in */dummy_hcd.0/usb*) echo "${u##*/usb}"; return ;; esac
	done
}

# A composite gadget through libcomposite's configfs: two functions (ACM, ECM), bound to
# dummy_hcd's UDC so that its host side enumerates the device, unbound, removed.
hx_gadget_cycle() { # idx
	local i=$1 g=$CFS/usb_gadget/hunt b
	cfs_mount
	[ -d $CFS/usb_gadget ] || { hx_note "$i" "no usb_gadget in configfs"; return; }
	hx_try "$i" mkdir $g $g/strings/0x409 $g/configs/c.1 $g/functions/acm.h0 $g/functions/ecm.h0
	hx_try "$i" sh -c "echo 0x1d6b >$g/idVendor; echo 0x0104 >$g/idProduct; echo hunt >$g/strings/0x409/product"
	hx_try "$i" ln -s $g/functions/acm.h0 $g/configs/c.1/
	hx_try "$i" ln -s $g/functions/ecm.h0 $g/configs/c.1/
	hx_try "$i" sh -c "echo dummy_udc.0 >$g/UDC"
	b=$(hx_dummy_bus)
	hx_wait 20 test -e "/sys/bus/usb/devices/$b-1/bConfigurationValue" &&
		hx_note "$i" "enumerated: $b-1 config $(cat "/sys/bus/usb/devices/$b-1/bConfigurationValue")"
	hx_try "$i" sh -c "echo >$g/UDC"
	hx_wait 20 test ! -e "/sys/bus/usb/devices/$b-1"
	rm -f $g/configs/c.1/acm.h0 $g/configs/c.1/ecm.h0
	hx_try "$i" rmdir $g/configs/c.1 $g/functions/acm.h0 $g/functions/ecm.h0 $g/strings/0x409 $g
}

hx_helpers_dummy_hcd() { echo libcomposite usb_f_acm usb_f_ecm; }
hx_run_dummy_hcd() { hx_gadget_cycle "$1"; }
# libcomposite's turn: its function modules depend on it, so they are loaded in the turn
# (their entries count in its row) and unloaded before it.
hx_helpers_libcomposite() { echo dummy_hcd; }
hx_run_libcomposite() {
	hx_try "$1" modprobe -a usb_f_acm usb_f_ecm
	hx_gadget_cycle "$1"
	hx_try "$1" rmmod usb_f_acm usb_f_ecm u_serial u_ether
}

# gadgetfs and functionfs: the VM suite's workloads (tests/vm/workloads), on dummy_hcd.
hx_workload() { # idx name
	local out
	. "/workloads/$2.sh"
	if out=$("wl_$2_setup" 2>&1 && "wl_$2_run" 2>&1); then
		hx_note "$1" "workload $2 ran"
	else
		hx_note "$1" "workload $2 failed: $(echo "$out" | grep -i fail | head -n 3 | tr '\n' ' ')"
	fi
}
hx_helpers_gadgetfs() { echo dummy_hcd; }
hx_run_gadgetfs() { hx_workload "$1" gadgetfs; }
hx_nofs_gadgetfs() { :; }
hx_helpers_usb_f_fs() { echo dummy_hcd libcomposite; }
hx_run_usb_f_fs() { hx_workload "$1" functionfs; }
hx_nofs_usb_f_fs() { :; }

# binfmt_misc: mounted where it belongs, a format registered and removed.
hx_run_binfmt_misc() {
	local i=$1 b=/proc/sys/fs/binfmt_misc
	hx_try "$i" mount -t binfmt_misc binfmt_misc $b
	hx_try "$i" sh -c "echo ':hunt:E::hunt::/bin/true:' >$b/register"
	hx_try "$i" sh -c "echo -1 >$b/hunt"
	hx_try "$i" umount $b
}
hx_nofs_binfmt_misc() { :; }

# orangefs: a mount waits 20 s for its user-space client, then fails; not tried.
hx_nofs_orangefs() { :; }

# configfs itself: mounted at its place and unmounted (nothing registered yet).
hx_run_configfs() {
	hx_try "$1" mount -t configfs configfs "$CFS"
	hx_try "$1" umount "$CFS"
}
hx_nofs_configfs() { :; }
hx_pre_configfs() { ! grep -q " $CFS configfs " /proc/mounts || umount "$CFS"; }
