# securityfs (security/inode.c): a fresh mount of securityfs, and the one entry user space
# can make the kernel remove on Debian's kernel: IMA's "policy" file, removed by the
# kernel once a policy update is written and closed.
#
# From the source:
# - securityfs_get_tree() -> get_tree_single(), and the kernel pins the superblock
#   (simple_pin_fs) for its own entries: a new mount is the same superblock as
#   /sys/kernel/security; umount unpins nothing.
# - Everything in securityfs is made by the kernel (securityfs_create_dentry() ->
#   d_make_persistent()) at boot: LSMs (lockdown, apparmor, ima, evm, ipe, tomoyo...). The
#   directories have simple_dir_inode_operations: mkdir is refused with EPERM.
# - ima_release_policy(): with neither CONFIG_IMA_WRITE_POLICY nor CONFIG_IMA_READ_POLICY
#   (Debian), a valid update removes the policy file:
#   securityfs_remove(file->f_path.dentry) -> simple_recursive_removal() ->
#   d_make_discardable(), on the very dentry being closed. One discard, nothing made.
#   Only once per boot (the file is gone): the scenario has a boot of its own.
# What else could add or remove securityfs entries at run time here, and why not used:
# a TPM's event log (tpm_bios_log_setup) needs a firmware log (none in this guest, and
# tpm_vtpm_proxy chips are TPM_CHIP_FLAG_VIRTUAL: skipped); IPE policies
# (ipe/policies/NAME) need a policy signed by a key in the kernel's keyrings; AppArmor's
# policy tree lives in its own apparmorfs, which does not use persistent dentries.

WL_SECURITYFS_DIR=/mnt/wl-securityfs
WL_SECURITYFS_RULE="dont_measure fsmagic=0x1021994"

. /workloads/common.sh

wl_securityfs_setup() {
	mkdir -p "$WL_SECURITYFS_DIR"
	if [ ! -e /sys/kernel/security/ima/policy ]; then
		echo "SKIP: no IMA policy file: IMA is off or its policy was already updated this boot"
		return 77
	fi
}

wl_securityfs_run() {
	local m=$WL_SECURITYFS_DIR
	wl_need_dirs "$m" || return 1
	wl_do mount -t securityfs pdt-wl-securityfs "$m"
	wl_note_dev securityfs "$m"
	wl_same_sb "$m" /sys/kernel/security
	wl_exists "$m/lsm" "$m/ima/policy"
	wl_refused EPERM pdt-fsop mkdir "$m/sub"
	wl_do sh -c "echo '$WL_SECURITYFS_RULE' >$m/ima/policy" # discarded 1
	wl_absent "$m/ima/policy"
	wl_do umount "$m"
	wl_end
}

wl_securityfs_expect() { echo "securityfs $(wl_obs dev securityfs) 0 1 0"; }
