# configfs (fs/configfs) with a real client, the NVMe target (drivers/nvme/target/configfs.c,
# nvmet + nvme-loop): a subsystem with a namespace (file-backed, enabled), an allowed
# host, a loop port with a referral and an ANA group, the subsystem linked into the port;
# refused rmdirs (EBUSY, ENOTEMPTY, EPERM), refused mkdirs and links; then the teardown in
# the right order.
#
# From the source:
# - configfs_mkdir() -> make_group() -> configfs_attach_group() -> configfs_create_dir():
#   d_make_persistent() on the VFS's dentry, then populate_groups() ->
#   create_default_group() makes each default group the same way on a dentry it
#   d_alloc_name()s. nvmet_subsys_make(): the subsystem + namespaces, allowed_hosts,
#   passthru (CONFIG_NVME_TARGET_PASSTHRU=y) = 4. nvmet_ns_make(), nvmet_hosts_make_group(),
#   nvmet_referral_make(), nvmet_ana_groups_make_group(): 1 each. nvmet_ports_make(): the
#   port + subsystems, referrals, ana_groups, ana_groups/1 = 5.
# - configfs_symlink() -> allow_link() first, then create_link() -> configfs_create_link()
#   -> d_make_persistent(): a link refused by allow_link() (a port with no transport:
#   nvmet_enable_port() -> EINVAL) persists nothing. configfs_unlink() -> simple_unlink().
# - Attribute files are configfs_dirents, instantiated on lookup: never persistent.
# - configfs_rmdir(): default groups -> EPERM; an item that is the target of a link
#   (s_links) -> EBUSY; configfs_detach_prep() -> ENOTEMPTY when a user-made item or a
#   link is below (also below a default group). Then configfs_detach_group() ->
#   detach_groups() (default groups, recursively) -> configfs_remove_dir() ->
#   simple_rmdir() -> d_make_discardable(), the rmdir'ed directory included: every
#   directory made is discarded once.
# - make_group() refusals (the discovery NQN, nsid 0) fail before anything is attached.
# - configfs is one superblock (get_tree_single) pinned by registered subsystems: a new
#   mount is that superblock; umount unpins nothing.
# Totals: made 4 + 1 + 1 + 1 (allowed host link) + 5 + 1 (port link) + 1 + 1 = 15; all
# discarded.

WL_NVMET_DIR=/mnt/wl-configfs
WL_NVMET_IMG=/run/wl-nvmet.img
WL_NVMET_MADE=15

. /workloads/common.sh

wl_nvmet_setup() {
	mkdir -p "$WL_NVMET_DIR"
	[ -d /sys/kernel/config ] && grep -qw configfs /proc/filesystems ||
		{ echo "setup: no configfs (# modules: nvmet nvme-loop)"; return 1; }
	[ -d /sys/module/nvmet ] && [ -d /sys/module/nvme_loop ] ||
		{ echo "setup: nvmet and nvme-loop are not loaded"; return 1; }
	truncate -s 1M "$WL_NVMET_IMG"
}

wl_nvmet_run() {
	local m=$WL_NVMET_DIR n s p h
	wl_need_dirs "$m" || return 1
	wl_do mount -t configfs pdt-wl-configfs "$m"
	wl_note_dev configfs "$m"
	n=$m/nvmet
	s=$n/subsystems/nqn.2024-01.org.pdtrace:wl
	p=$n/ports/1
	h=$n/hosts/nqn.2024-01.org.pdtrace:host
	wl_exists "$n/subsystems" "$n/ports" "$n/hosts"

	wl_refused EINVAL pdt-fsop mkdir "$n/subsystems/nqn.2014-08.org.nvmexpress.discovery"
	wl_do mkdir "$s"                                  # made 4
	wl_exists "$s/namespaces" "$s/allowed_hosts" "$s/passthru"
	wl_refused EINVAL pdt-fsop mkdir "$s/namespaces/0"
	wl_do mkdir "$s/namespaces/1"                     # 5
	wl_do sh -c "echo $WL_NVMET_IMG >$s/namespaces/1/device_path"
	wl_do sh -c "echo 1 >$s/namespaces/1/buffered_io"
	wl_do sh -c "echo 1 >$s/namespaces/1/enable"
	wl_do mkdir "$h"                                  # 6
	wl_do ln -s "$h" "$s/allowed_hosts/"              # 7
	wl_do mkdir "$p"                                  # 12
	wl_exists "$p/subsystems" "$p/referrals" "$p/ana_groups/1"
	wl_refused EINVAL pdt-fsop symlink "$s" "$p/subsystems/${s##*/}" # no transport yet
	wl_do sh -c "echo loop >$p/addr_trtype"
	wl_do ln -s "$s" "$p/subsystems/"                 # 13
	wl_do mkdir "$p/referrals/r1"                     # 14
	wl_do mkdir "$p/ana_groups/2"                     # 15

	wl_refused EBUSY pdt-fsop rmdir "$s"              # linked from the port
	wl_refused EBUSY pdt-fsop rmdir "$h"              # linked from allowed_hosts
	wl_refused ENOTEMPTY pdt-fsop rmdir "$p"          # a link and user-made groups below
	wl_refused EPERM pdt-fsop rmdir "$s/namespaces"   # a default group
	wl_do rm "$p/subsystems/${s##*/}"                 # discarded 1
	wl_refused ENOTEMPTY pdt-fsop rmdir "$s"          # namespaces/1 below
	wl_refused ENOTEMPTY pdt-fsop rmdir "$p"          # referrals/r1, ana_groups/2 below
	wl_do rmdir "$p/referrals/r1" "$p/ana_groups/2"   # 3
	wl_do rmdir "$p"                                  # 8
	wl_do rm "$s/allowed_hosts/${h##*/}"              # 9
	wl_do rmdir "$h"                                  # 10
	wl_do rmdir "$s/namespaces/1"                     # 11 (disables the namespace)
	wl_do rmdir "$s"                                  # 15
	wl_absent "$s" "$p" "$h"

	wl_do umount "$m"
	wl_end
}

wl_nvmet_expect() { echo "configfs $(wl_obs dev configfs) $WL_NVMET_MADE $WL_NVMET_MADE 0"; }

wl_nvmet_cleanup() { rm -f "$WL_NVMET_IMG"; }
