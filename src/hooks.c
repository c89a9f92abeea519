// SPDX-License-Identifier: GPL-2.0
#include "hooks.h"

/* Order matters only for display: required hooks first. */
const struct pdt_hook pdt_hooks[] = {
	{ "d_make_persistent", NULL, true, "the persistent-dentry API itself" },
	{ "d_make_discardable", NULL, true, "the persistent-dentry API itself" },
	{ "dput", NULL, true, "dput() dropping the persistence reference" },
	{ "vfs_mkdir", NULL, false, "user origin of directories" },
	{ "vfs_create", NULL, false, "user origin of regular files" },
	{ "vfs_mknod", NULL, false, "user origin of device nodes and fifos" },
	{ "vfs_symlink", NULL, false, "user origin of symlinks" },
	{ "vfs_link", NULL, false, "user origin of hard links" },
	{ "select_collect_umount", NULL, false, "counting of entries unpinned at umount" },
	{ "umount_check", NULL, false, "leak: dentries still in use at umount" },
	{ "generic_shutdown_super", NULL, false, "leak: entries still pinned after umount" },
	{ "simple_recursive_removal", NULL, false, "illegal-removal in recursive removals" },
	{ "locked_recursive_removal", NULL, false, "illegal-removal in locked recursive removals" },
	{ "configfs_rmdir", "configfs", false, "illegal-removal of configfs directories" },
};

const size_t pdt_nhooks = sizeof(pdt_hooks) / sizeof(pdt_hooks[0]);
