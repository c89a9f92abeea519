// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "hooks.h"
#include "pdtrace.h"
#include "rules.h"

/*
 * Order matters only for display: required hooks first. The creation hooks are
 * the LSM's security_inode_*() rather than vfs_*(): open(O_CREAT) calls
 * ->create() without vfs_create(), and the LSM hook sees the dentry on every path.
 */
const struct pdt_hook pdt_hooks[] = {
	{ .func = "d_make_persistent",
	  .required = true,
	  .lost = "the persistent-dentry API itself",
	  .id = PDT_HK_PERSIST,
	  .program = "dispatch_entry",
	  .handler = "on_persist",
	  .event = PDT_EV_PERSIST },
	{ .func = "d_make_discardable",
	  .required = true,
	  .lost = "the persistent-dentry API itself",
	  .id = PDT_HK_DISCARD,
	  .program = "dispatch_entry",
	  .handler = "on_discard",
	  .event = PDT_EV_DISCARD },
	{ .func = "dput",
	  .lost = "dput() dropping the persistence reference (--dput)",
	  .rules = { PDT_RULE_DPUT_PERSISTENCE_REF },
	  .program = "dput",
	  .handler = "dput",
	  .event = PDT_EV_DPUT },
	{
	    .func = "security_inode_create",
	    .lost = "user origin of regular files",
	    .id = PDT_HK_CREATE,
	    .lsm = "inode_create",
	    .program = "dispatch_entry",
	    .handler = "mark",
	},
	{
	    .func = "security_inode_mkdir",
	    .lost = "user origin of directories",
	    .id = PDT_HK_CREATE,
	    .lsm = "inode_mkdir",
	    .program = "dispatch_entry",
	    .handler = "mark",
	},
	{
	    .func = "security_inode_mknod",
	    .lost = "user origin of device nodes and fifos",
	    .id = PDT_HK_CREATE,
	    .lsm = "inode_mknod",
	    .program = "dispatch_entry",
	    .handler = "mark",
	},
	{
	    .func = "security_inode_symlink",
	    .lost = "user origin of symlinks",
	    .id = PDT_HK_CREATE,
	    .program = "dispatch_entry",
	    .handler = "mark",
	},
	{
	    .func = "security_inode_link",
	    .lost = "user origin of hard links",
	    .id = PDT_HK_LINK,
	    .program = "dispatch_entry",
	    .handler = "mark",
	},
	{
	    .func = "security_inode_rename",
	    .lost = "user origin of rename whiteouts",
	    .id = PDT_HK_RENAME,
	    .program = "dispatch_entry",
	    .handler = "mark_rename",
	},
	{
	    .func = "security_inode_unlink",
	    .lost = "eaten persistence references found by a user's unlink",
	    .id = PDT_HK_REMOVE,
	    .lsm = "inode_unlink",
	    .program = "dispatch_entry",
	    .handler = "mark_remove",
	},
	{
	    .func = "security_inode_rmdir",
	    .lost = "eaten persistence references found by a user's rmdir",
	    .id = PDT_HK_REMOVE,
	    .lsm = "inode_rmdir",
	    .program = "dispatch_entry",
	    .handler = "mark_remove",
	},
	{ .func = "__d_move",
	  .lost = "renames (orphan detection would misfire)",
	  .rules = { PDT_RULE_ORPHANED, PDT_RULE_RENAME_VICTIM_KEPT },
	  .program = "__d_move",
	  .handler = "__d_move",
	  .event = PDT_EV_MOVE },
	{ .func = "dentry_kill",
	  .lost = "eaten persistence references where the kernel kills the dentry",
	  .program = "dentry_kill",
	  .handler = "kill_eaten",
	  .event = PDT_EV_EATEN },
	{ .func = "deactivate_locked_super",
	  .lost = "umount exemption of removals",
	  .rules = { PDT_RULE_USER_ENTRY_REMOVED },
	  .id = PDT_HK_UMOUNT,
	  .bracket = true,
	  .program = "dispatch_session",
	  .handler = "umount_enter" },
	{ .func = "select_collect_umount",
	  .lost = "counting of entries unpinned at umount",
	  .rules = { PDT_RULE_PINNED_AFTER_UMOUNT, PDT_RULE_SB_BALANCE },
	  .program = "select_collect_umount",
	  .handler = "unpin_streamed",
	  .event = PDT_EV_UNPIN },
	{ .func = "umount_check",
	  .lost = "leak: dentries still in use at umount",
	  .rules = { PDT_RULE_BUSY_AT_UMOUNT },
	  .program = "umount_check",
	  .handler = "umount_check",
	  .event = PDT_EV_BUSY },
	{ .func = "generic_shutdown_super",
	  .lost = "leak: entries still pinned after umount",
	  .rules = { PDT_RULE_PINNED_AFTER_UMOUNT, PDT_RULE_SB_BALANCE },
	  .id = PDT_HK_SHUTDOWN,
	  .bracket = true,
	  .program = "dispatch_session",
	  .handler = "shutdown_enter",
	  .event = PDT_EV_SB_DOWN },
	{ .func = "simple_recursive_removal",
	  .lost = "illegal-removal in recursive removals",
	  .id = PDT_HK_REMOVAL,
	  .bracket = true,
	  .program = "dispatch_session",
	  .handler = "removal_enter",
	  .event = PDT_EV_REMOVAL },
	{ .func = "locked_recursive_removal",
	  .lost = "illegal-removal in locked recursive removals",
	  .id = PDT_HK_REMOVAL,
	  .bracket = true,
	  .program = "dispatch_session",
	  .handler = "removal_enter",
	  .event = PDT_EV_REMOVAL },
	{ .func = "configfs_rmdir",
	  .module = "configfs",
	  .fs_type = "configfs",
	  .lost = "illegal-removal of configfs directories",
	  .id = PDT_HK_REMOVAL_ARG2,
	  .bracket = true,
	  .program = "dispatch_session",
	  .handler = "removal_enter",
	  .event = PDT_EV_REMOVAL },
	{ .func = "module_load",
	  .tracepoint = true,
	  .lost = "leak: entries that outlive their module",
	  .rules = { PDT_RULE_OUTLIVES_MODULE },
	  .program = "module_load",
	  .handler = "module_load",
	  .event = PDT_EV_MODULE_LOAD },
	{ .func = "module_free",
	  .tracepoint = true,
	  .lost = "leak: entries that outlive their module",
	  .rules = { PDT_RULE_OUTLIVES_MODULE },
	  .program = "module_free",
	  .handler = "module_free",
	  .event = PDT_EV_MODULE_FREE },
};

const size_t pdt_nhooks = sizeof(pdt_hooks) / sizeof(pdt_hooks[0]);
_Static_assert(sizeof(pdt_hooks) / sizeof(pdt_hooks[0]) <= PDT_MAX_HOOKS, "PDT_MAX_HOOKS");

const char *pdt_hook_label(const struct pdt_hook *h, char *buf, size_t n)
{
	snprintf(buf, n, h->tracepoint ? "tracepoint %s" : "%s()", h->func);
	return buf;
}

const struct pdt_hook *pdt_hook_find_lsm(const char *lsm)
{
	size_t i;

	for (i = 0; i < pdt_nhooks; i++)
		if (pdt_hooks[i].lsm && !strcmp(pdt_hooks[i].lsm, lsm))
			return &pdt_hooks[i];
	return NULL;
}

const struct pdt_hook *pdt_hook_find(const char *func)
{
	size_t i;

	for (i = 0; i < pdt_nhooks; i++)
		if (!strcmp(pdt_hooks[i].func, func))
			return &pdt_hooks[i];
	return NULL;
}

void pdt_hooks_note_fs(bool *seen, const char *fs_type)
{
	size_t i;

	for (i = 0; i < pdt_nhooks; i++)
		if (pdt_hooks[i].fs_type && !strcmp(pdt_hooks[i].fs_type, fs_type))
			seen[i] = true;
}
