// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "hooks.h"
#include "rules.h"

/*
 * Order matters only for display: required hooks first. The creation hooks are
 * the LSM's security_inode_*() rather than vfs_*(): open(O_CREAT) calls
 * ->create() without vfs_create(), and the LSM hook sees the dentry on every path.
 */
const struct pdt_hook pdt_hooks[] = {
	{ "d_make_persistent", NULL, true, "the persistent-dentry API itself", {} },
	{ "d_make_discardable", NULL, true, "the persistent-dentry API itself", {} },
	{ "dput",
	  NULL,
	  true,
	  "dput() dropping the persistence reference",
	  { PDT_RULE_DPUT_PERSISTENCE_REF } },
	{ "security_inode_create", NULL, false, "user origin of regular files", {} },
	{ "security_inode_mkdir", NULL, false, "user origin of directories", {} },
	{ "security_inode_mknod", NULL, false, "user origin of device nodes and fifos", {} },
	{ "security_inode_symlink", NULL, false, "user origin of symlinks", {} },
	{ "security_inode_link", NULL, false, "user origin of hard links", {} },
	{ "security_inode_rename", NULL, false, "user origin of rename whiteouts", {} },
	{ "security_inode_unlink",
	  NULL,
	  false,
	  "eaten persistence references found by a user's unlink",
	  {} },
	{ "security_inode_rmdir",
	  NULL,
	  false,
	  "eaten persistence references found by a user's rmdir",
	  {} },
	{ "__d_move",
	  NULL,
	  false,
	  "renames (orphan detection would misfire)",
	  { PDT_RULE_ORPHANED, PDT_RULE_RENAME_VICTIM_KEPT } },
	{ "dentry_kill",
	  NULL,
	  false,
	  "eaten persistence references where the kernel kills the dentry",
	  {} },
	{ "deactivate_locked_super",
	  NULL,
	  false,
	  "umount exemption of removals",
	  { PDT_RULE_USER_ENTRY_REMOVED } },
	{ "select_collect_umount",
	  NULL,
	  false,
	  "counting of entries unpinned at umount",
	  { PDT_RULE_PINNED_AFTER_UMOUNT, PDT_RULE_SB_BALANCE } },
	{ "umount_check",
	  NULL,
	  false,
	  "leak: dentries still in use at umount",
	  { PDT_RULE_BUSY_AT_UMOUNT } },
	{ "generic_shutdown_super",
	  NULL,
	  false,
	  "leak: entries still pinned after umount",
	  { PDT_RULE_PINNED_AFTER_UMOUNT, PDT_RULE_SB_BALANCE } },
	{ "simple_recursive_removal", NULL, false, "illegal-removal in recursive removals", {} },
	{ "locked_recursive_removal",
	  NULL,
	  false,
	  "illegal-removal in locked recursive removals",
	  {} },
	{ "configfs_rmdir", "configfs", false, "illegal-removal of configfs directories", {} },
};

const size_t pdt_nhooks = sizeof(pdt_hooks) / sizeof(pdt_hooks[0]);

const struct pdt_hook *pdt_hook_find(const char *func)
{
	size_t i;

	for (i = 0; i < pdt_nhooks; i++)
		if (!strcmp(pdt_hooks[i].func, func))
			return &pdt_hooks[i];
	return NULL;
}
