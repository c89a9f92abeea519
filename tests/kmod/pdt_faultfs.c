// SPDX-License-Identifier: GPL-2.0
/*
 * pdt_faultfs: "pdtfaultfs", a tree-in-dcache filesystem that misuses the
 * persistent-dentry API of Linux 7.2 on request, for pdtrace's tests.
 *
 * Like ramfs and debugfs, the whole tree lives in the dcache: every entry,
 * whether a user created it (create, mkdir, mknod, symlink, link) or the
 * filesystem did (at mount, or for a fault), is pinned with
 * d_make_persistent() and unpinned with d_make_discardable() (through
 * simple_unlink(), simple_rmdir(), simple_rename() and
 * simple_recursive_removal()) or, at umount, by shrink_dcache_for_umount()
 * (select_collect_umount()) under kill_anon_super().
 *
 * At mount the filesystem creates, as debugfs would, a control file and a
 * small subtree:  /ctl  /kdir/  /kdir/kfile  /kdir/ksub/
 *
 * Writing "COMMAND NAME" to /ctl makes exactly one fault happen on that
 * superblock (NAME is one path component in the root; see pdt_faults[]).
 * Each fault leaves the kernel consistent, except "leak", which makes the
 * umount BUG on purpose, and the eaten references ("eat", "eat-keep",
 * "eat-unlink"), which leave the dcache in a state the kernel never
 * repairs: what it does next is what their scenarios establish. Without any
 * command the filesystem is balanced.
 *
 * At load it makes a debugfs directory, /pdt_faultfs with a file, and removes
 * it at unload; with leave_debugfs=1 it also leaves /pdt_faultfs_leftover
 * behind (the bug pdtrace's outlives-module rule is for).
 *
 * Renames support RENAME_WHITEOUT the way tmpfs does (shmem_rename2(),
 * shmem_whiteout()): the filesystem d_alloc()s a dentry with the old name
 * itself and makes it a persistent char 0:0 device through its mknod. Who
 * made a whiteout: the kernel, on behalf of the user whose rename asked for
 * it, and for a dentry that user was never given. pdtrace's origin for it is
 * "user" (the user asked for the entry and owns it as much as the renamed
 * one), so a recursive removal that discards a whiteout below its root is the
 * illegal removal of a user entry (user-entry-removed).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define PDTFAULTFS_MAGIC	0x70647466	/* "pdtf" */
#define PDT_CTL_MAX		128

struct pdt_sb_info {
	struct mutex ctl_mutex;		/* one fault at a time per superblock */
	struct dentry *dead_dir;	/* create-in-dead: the directory removed */
	struct dentry *dead_child;	/* create-in-dead: what was made in it */
};

static const struct inode_operations pdt_dir_iops;
static const struct file_operations pdt_ctl_fops;

static const struct inode_operations pdt_file_iops = {
	.setattr	= simple_setattr,
	.getattr	= simple_getattr,
};

static const struct file_operations pdt_file_fops = {
	.read_iter	= generic_file_read_iter,
	.write_iter	= generic_file_write_iter,
	.splice_read	= filemap_splice_read,
	.splice_write	= iter_file_splice_write,
	.fsync		= noop_fsync,
	.llseek		= generic_file_llseek,
};

/* As ramfs_get_inode(): the page cache is the only storage. */
static struct inode *pdt_get_inode(struct super_block *sb,
				   const struct inode *dir, umode_t mode,
				   dev_t dev)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = get_next_ino();
	inode_init_owner(&nop_mnt_idmap, inode, dir, mode);
	inode->i_mapping->a_ops = &ram_aops;
	mapping_set_gfp_mask(inode->i_mapping, GFP_HIGHUSER);
	mapping_set_unevictable(inode->i_mapping);
	simple_inode_init_ts(inode);
	switch (mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &pdt_file_iops;
		inode->i_fop = &pdt_file_fops;
		break;
	case S_IFDIR:
		inode->i_op = &pdt_dir_iops;
		inode->i_fop = &simple_dir_operations;
		inc_nlink(inode);	/* "." */
		break;
	case S_IFLNK:
		inode->i_op = &page_symlink_inode_operations;
		inode_nohighmem(inode);
		break;
	default:
		init_special_inode(inode, mode, dev);
		break;
	}
	return inode;
}

/*
 * Give the negative @dentry a new inode and pin it: the one place where a
 * well-behaved entry is made persistent. @dir is locked by the caller, whose
 * reference to @dentry is left alone.
 */
static int pdt_pin(struct inode *dir, struct dentry *dentry, umode_t mode,
		   dev_t dev, const struct file_operations *fops)
{
	struct inode *inode = pdt_get_inode(dir->i_sb, dir, mode, dev);

	if (!inode)
		return -ENOSPC;
	if (fops)
		inode->i_fop = fops;
	d_make_persistent(dentry, inode);
	if (S_ISDIR(mode))
		inc_nlink(dir);
	inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
	return 0;
}

/* ---- what users do: the VFS hands us the dentry to make persistent ---- */

/*
 * simple_lookup() marks every dentry DCACHE_DONTCACHE, so that one whose
 * count drops to zero is killed at once. The extra-dput fault needs the
 * ordinary behaviour (an unused hashed dentry stays cached) to be able to
 * give the stolen reference back: hence this plain lookup.
 */
static struct dentry *pdt_lookup(struct inode *dir, struct dentry *dentry,
				 unsigned int flags)
{
	if (dentry->d_name.len > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	return d_splice_alias(NULL, dentry);
}

static int pdt_mknod(struct mnt_idmap *idmap, struct inode *dir,
		     struct dentry *dentry, umode_t mode, dev_t dev)
{
	return pdt_pin(dir, dentry, mode, dev, NULL);
}

static int pdt_create(struct mnt_idmap *idmap, struct inode *dir,
		      struct dentry *dentry, umode_t mode, bool excl)
{
	return pdt_pin(dir, dentry, mode | S_IFREG, 0, NULL);
}

/*
 * A name that starts with "refused" is refused after the LSM hook, as configfs
 * refuses a mkdir its make_group() says no to; and, as configfs's d_delete()
 * does, the negative dentry dies with its last reference: its memory is the
 * next dentry's.
 */
static struct dentry *pdt_mkdir(struct mnt_idmap *idmap, struct inode *dir,
				struct dentry *dentry, umode_t mode)
{
	if (!strncmp(dentry->d_name.name, "refused", 7)) {
		spin_lock(&dentry->d_lock);
		dentry->d_flags |= DCACHE_DONTCACHE;
		spin_unlock(&dentry->d_lock);
		return ERR_PTR(-EPERM);
	}
	return ERR_PTR(pdt_pin(dir, dentry, mode | S_IFDIR, 0, NULL));
}

static int pdt_symlink(struct mnt_idmap *idmap, struct inode *dir,
		       struct dentry *dentry, const char *symname)
{
	struct inode *inode = pdt_get_inode(dir->i_sb, dir, S_IFLNK | 0777, 0);
	int err;

	if (!inode)
		return -ENOSPC;
	err = page_symlink(inode, symname, strlen(symname) + 1);
	if (err) {
		iput(inode);
		return err;
	}
	d_make_persistent(dentry, inode);
	inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
	return 0;
}

/*
 * A whiteout as shmem_whiteout() makes one: a new dentry with @old_dentry's
 * name in the same directory (both are hashed until the rename's d_move()
 * moves @old_dentry away), made a persistent char 0:0 device by our mknod.
 */
static int pdt_whiteout(struct mnt_idmap *idmap, struct inode *old_dir,
			struct dentry *old_dentry)
{
	struct dentry *whiteout;
	int err;

	whiteout = d_alloc(old_dentry->d_parent, &old_dentry->d_name);
	if (!whiteout)
		return -ENOMEM;
	err = pdt_mknod(idmap, old_dir, whiteout, S_IFCHR | WHITEOUT_MODE,
			WHITEOUT_DEV);
	dput(whiteout);		/* persistence holds it now */
	return err;
}

/* simple_rename(), plus RENAME_WHITEOUT as shmem_rename2() does it. */
static int pdt_rename(struct mnt_idmap *idmap, struct inode *old_dir,
		      struct dentry *old_dentry, struct inode *new_dir,
		      struct dentry *new_dentry, unsigned int flags)
{
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if (flags & RENAME_WHITEOUT) {
		/* The VFS refuses RENAME_WHITEOUT with RENAME_EXCHANGE. */
		if (!simple_empty(new_dentry))
			return -ENOTEMPTY;
		err = pdt_whiteout(idmap, old_dir, old_dentry);
		if (err)
			return err;
	}
	return simple_rename(idmap, old_dir, old_dentry, new_dir, new_dentry,
			     flags & ~RENAME_WHITEOUT);
}

static const struct inode_operations pdt_dir_iops = {
	.lookup		= pdt_lookup,
	.create		= pdt_create,
	.link		= simple_link,
	.unlink		= simple_unlink,
	.symlink	= pdt_symlink,
	.mkdir		= pdt_mkdir,
	.rmdir		= simple_rmdir,
	.mknod		= pdt_mknod,
	.rename		= pdt_rename,
};

/* ---- what the kernel does: entries made persistent outside any syscall ---- */

/*
 * Create @name in @parent, whose inode the caller holds locked, as
 * debugfs_create_*() do. Returns the new dentry with the lookup's reference,
 * which the caller drops (the persistence reference then keeps it).
 */
static struct dentry *pdt_kcreate_locked(struct dentry *parent,
					 const char *name, umode_t mode,
					 const struct file_operations *fops)
{
	struct dentry *dentry = lookup_noperm(&QSTR(name), parent);
	int err;

	if (IS_ERR(dentry))
		return dentry;
	err = d_really_is_positive(dentry) ? -EEXIST :
		pdt_pin(d_inode(parent), dentry, mode, 0, fops);
	if (err) {
		dput(dentry);
		return ERR_PTR(err);
	}
	return dentry;
}

/* Same, locking @parent; the result is borrowed (only persistence holds it). */
static struct dentry *pdt_kcreate(struct dentry *parent, const char *name,
				  umode_t mode,
				  const struct file_operations *fops)
{
	struct dentry *dentry;

	inode_lock_nested(d_inode(parent), I_MUTEX_PARENT);
	dentry = pdt_kcreate_locked(parent, name, mode, fops);
	inode_unlock(d_inode(parent));
	if (!IS_ERR(dentry))
		dput(dentry);
	return dentry;
}

/* ---- the faults ---- */

/*
 * d_make_discardable() on a dentry without DCACHE_PERSISTENT: the negative
 * dentry a lookup of NAME (which must not exist) returns, hashed, count 1
 * (our lookup reference). The kernel WARNs, then drops "the persistence
 * reference", which is ours: the count stays right and the dentry dies.
 */
static int pdt_discard_unpersisted(struct super_block *sb, const char *name)
{
	struct inode *dir = d_inode(sb->s_root);
	struct dentry *dentry;
	int err = 0;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	dentry = lookup_noperm(&QSTR(name), sb->s_root);
	if (IS_ERR(dentry)) {
		err = PTR_ERR(dentry);
	} else if (d_really_is_positive(dentry)) {
		dput(dentry);
		err = -EEXIST;
	} else {
		d_make_discardable(dentry);	/* the fault; eats our ref */
	}
	inode_unlock(dir);
	return err;
}

/*
 * d_make_persistent() on a dentry that already carries DCACHE_PERSISTENT.
 * Doing it on the positive dentry would run __d_instantiate() again and add
 * the dentry a second time to the inode's i_dentry list (and WARN). So the
 * entry is made negative first, keeping its flag and the persistence
 * reference: d_delete() unlinks the inode only when the count is exactly 1,
 * so our lookup reference goes first and the persistence one holds the
 * dentry. Then the second d_make_persistent() gives it a fresh inode: no
 * kernel WARN fires (it only checks for a positive dentry or a NULL inode),
 * the count goes 1 -> 2, and a legitimate dput() brings it back to 1.
 */
static int pdt_persist_twice(struct super_block *sb, const char *name)
{
	struct inode *dir = d_inode(sb->s_root);
	struct inode *inode;
	struct dentry *dentry;
	int err = 0;

	inode = pdt_get_inode(sb, dir, S_IFREG | 0644, 0);
	if (!inode)
		return -ENOMEM;
	inode_lock_nested(dir, I_MUTEX_PARENT);
	dentry = pdt_kcreate_locked(sb->s_root, name, S_IFREG | 0644, NULL);
	if (IS_ERR(dentry)) {
		err = PTR_ERR(dentry);
		goto out;
	}
	dput(dentry);		/* our lookup reference: count 2 -> 1 */
	d_delete(dentry);	/* drops the old inode; flag stays set */
	if (d_really_is_positive(dentry)) {
		/* Someone else holds a reference: d_delete() only unhashed it. */
		d_rehash(dentry);
		err = -EBUSY;
		goto out;
	}
	d_make_persistent(dentry, inode);	/* the fault */
	inode = NULL;
	dput(dentry);		/* the extra reference: count 2 -> 1 */
out:
	inode_unlock(dir);
	iput(inode);
	return err;
}

/*
 * dput() on a persistent dentry whose count is 1: it consumes the
 * persistence reference and leaves the entry cached at count 0 on the LRU,
 * where nothing may kill it before dget() gives the reference back: unlink
 * and rename need the parent, which is locked, and the dcache shrinker
 * (super_cache_scan()) skips a superblock whose s_umount it cannot take.
 */
static int pdt_extra_dput(struct super_block *sb, const char *name)
{
	struct inode *dir = d_inode(sb->s_root);
	struct dentry *dentry;

	if (!down_write_trylock(&sb->s_umount))
		return -EBUSY;
	inode_lock_nested(dir, I_MUTEX_PARENT);
	dentry = pdt_kcreate_locked(sb->s_root, name, S_IFREG | 0644, NULL);
	if (!IS_ERR(dentry)) {
		dput(dentry);	/* our lookup reference: count 2 -> 1 */
		dput(dentry);	/* the fault: count 1 -> 0 */
		dget(dentry);	/* the repair: persistence holds it again */
	}
	inode_unlock(dir);
	up_write(&sb->s_umount);
	return PTR_ERR_OR_ZERO(dentry);
}

/*
 * DIR and DIR/child are made persistent, then DIR is removed as rmdir
 * would (S_DEAD, nlink, d_make_discardable(), unhashed) but without the
 * emptiness check: DIR/child stays persistent, unreachable by any lookup.
 * The umount walk still reaches it: d_walk() follows d_children, and DIR
 * stays a child of the root as long as DIR/child holds a reference to it.
 */
static int pdt_orphan(struct super_block *sb, const char *name)
{
	struct inode *rdir = d_inode(sb->s_root);
	struct dentry *dir, *child;

	inode_lock_nested(rdir, I_MUTEX_PARENT);
	dir = pdt_kcreate_locked(sb->s_root, name, S_IFDIR | 0755, NULL);
	if (IS_ERR(dir)) {
		inode_unlock(rdir);
		return PTR_ERR(dir);
	}
	inode_lock_nested(d_inode(dir), I_MUTEX_CHILD);
	child = pdt_kcreate_locked(dir, "child", S_IFREG | 0644, NULL);
	if (!IS_ERR(child)) {
		dput(child);
		d_inode(dir)->i_flags |= S_DEAD;
		__simple_rmdir(rdir, dir);
		d_make_discardable(dir);	/* the fault: count 3 -> 2 */
	}
	inode_unlock(d_inode(dir));
	if (!IS_ERR(child))
		d_drop(dir);
	inode_unlock(rdir);
	dput(dir);		/* DIR/child's reference keeps it */
	return PTR_ERR_OR_ZERO(child);
}

static struct dentry *pdt_lookup_dir(struct super_block *sb, const char *name)
{
	struct dentry *dentry;

	dentry = lookup_noperm_positive_unlocked(&QSTR(name), sb->s_root);
	if (!IS_ERR(dentry) && !d_is_dir(dentry)) {
		dput(dentry);
		return ERR_PTR(-ENOTDIR);
	}
	return dentry;
}

/*
 * simple_recursive_removal() of DIR, as debugfs_remove() does: every
 * positive entry below, user-created ones included, is discarded.
 */
static int pdt_remove(struct super_block *sb, const char *name)
{
	struct dentry *dentry = pdt_lookup_dir(sb, name);

	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	simple_recursive_removal(dentry, NULL);
	dput(dentry);
	return 0;
}

/*
 * remove-untraced DIR: the removal of "remove", made while this task's
 * function graph shadow stack has room for one more frame but not for the
 * data a function graph tracer keeps with it. That is where fprobe skips a
 * call and counts it in its nmissed (fprobe_fgraph_entry()): a BPF session
 * or kretprobe.multi program on simple_recursive_removal() runs neither at
 * its entry nor at its return, and the kprobe.multi link reports the call
 * missed. remove-overrun DIR: the same with no room even for the frame:
 * ftrace_push_return_trace() skips the call for every graph user and counts
 * it only in the task's trace_overrun. The level is set for the call and put
 * back after it: nothing reads the words below it (no frame is pushed on
 * this path but the one fprobe pops at once), so they need not hold frames.
 * The sizes are kernel/trace/fgraph.c's, which keeps them private: a
 * 4096-byte stack, a frame of struct ftrace_ret_stack and a bitmap word, and
 * FGRAPH_INDEX_BITS (16) words kept free at the top.
 */
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
#define PDT_FRAME_WORDS \
	DIV_ROUND_UP(sizeof(struct ftrace_ret_stack), sizeof(long))
#define PDT_SHADOW_MAX \
	(4096 / sizeof(long) - (PDT_FRAME_WORDS + 1 + 16))
#define PDT_LEVEL_NO_DATA (PDT_SHADOW_MAX - PDT_FRAME_WORDS - 2)
#define PDT_LEVEL_NO_FRAME (PDT_SHADOW_MAX - PDT_FRAME_WORDS - 1)

static int pdt_remove_at(struct super_block *sb, const char *name, int at)
{
	struct dentry *dentry = pdt_lookup_dir(sb, name);
	int level;

	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	if (!current->ret_stack) {	/* no function graph tracer ever ran */
		dput(dentry);
		return -ENODATA;
	}
	level = current->curr_ret_stack;
	current->curr_ret_stack = at;
	barrier();
	simple_recursive_removal(dentry, NULL);
	barrier();
	current->curr_ret_stack = level;
	dput(dentry);
	return 0;
}

static int pdt_remove_untraced(struct super_block *sb, const char *name)
{
	return pdt_remove_at(sb, name, PDT_LEVEL_NO_DATA);
}

static int pdt_remove_overrun(struct super_block *sb, const char *name)
{
	return pdt_remove_at(sb, name, PDT_LEVEL_NO_FRAME);
}

/*
 * graph-full NAME: leave this task's shadow stack with no room for a frame,
 * until graph-restore NAME from the same task (pdt-fsop umount-graph-full):
 * the umount it makes meanwhile has every call of a function graph user
 * skipped, pdtrace's brackets of the umount and the shutdown among them.
 * Nothing is pushed meanwhile, so nothing pops the words below.
 */
static pid_t pdt_graph_pid;
static int pdt_graph_level;

static int pdt_graph_full(struct super_block *sb, const char *name)
{
	if (!current->ret_stack)
		return -ENODATA;
	if (pdt_graph_pid)
		return -EBUSY;
	pdt_graph_pid = current->pid;
	pdt_graph_level = current->curr_ret_stack;
	current->curr_ret_stack = PDT_LEVEL_NO_FRAME;
	return 0;
}

static int pdt_graph_restore(struct super_block *sb, const char *name)
{
	if (pdt_graph_pid != current->pid)
		return -ESRCH;
	current->curr_ret_stack = pdt_graph_level;
	pdt_graph_pid = 0;
	return 0;
}
#else
/* Without a function graph tracer, every command about its shadow stack. */
static int pdt_no_graph(struct super_block *sb, const char *name)
{
	return -EOPNOTSUPP;
}
#define pdt_remove_untraced pdt_no_graph
#define pdt_remove_overrun pdt_no_graph
#define pdt_graph_full pdt_no_graph
#define pdt_graph_restore pdt_no_graph
#endif

/*
 * Removal callback, called for DIR after its inode got S_DEAD and nlink 0,
 * after d_invalidate(), with the root locked and DIR's inode unlocked: a
 * lookup would refuse the dead directory, so allocate the name directly.
 */
static void pdt_dead_callback(struct dentry *victim)
{
	struct pdt_sb_info *sbi = victim->d_sb->s_fs_info;
	struct dentry *late;

	if (victim != sbi->dead_dir)
		return;
	inode_lock(d_inode(victim));
	late = d_alloc_name(victim, "late");
	if (late) {
		if (!pdt_pin(d_inode(victim), late, S_IFREG | 0644, 0, NULL))
			sbi->dead_child = late;	/* the fault */
		dput(late);	/* the allocation's reference */
	}
	inode_unlock(d_inode(victim));
}

/*
 * Remove DIR recursively and create DIR/late persistent in it once it is
 * dead; then unlink DIR/late the ordinary way (simple_unlink()), which
 * drops DIR's last references too.
 */
static int pdt_create_in_dead(struct super_block *sb, const char *name)
{
	struct pdt_sb_info *sbi = sb->s_fs_info;
	struct dentry *dentry = pdt_lookup_dir(sb, name);
	int err = 0;

	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	sbi->dead_dir = dentry;
	sbi->dead_child = NULL;
	simple_recursive_removal(dentry, pdt_dead_callback);
	sbi->dead_dir = NULL;
	if (sbi->dead_child) {
		inode_lock_nested(d_inode(dentry), I_MUTEX_PARENT);
		simple_unlink(d_inode(dentry), sbi->dead_child);
		inode_unlock(d_inode(dentry));
		sbi->dead_child = NULL;
	} else {
		err = -ENOMEM;
	}
	dput(dentry);		/* our lookup reference, the last one */
	return err;
}

/*
 * A persistent NAME whose creation reference is never dropped: at umount
 * select_collect_umount() takes the persistence reference away, umount_check()
 * reports the dentry "still in use (1)", and the inode it pins makes
 * generic_shutdown_super() report busy inodes (a BUG on Debian's kernel).
 */
static int pdt_leak(struct super_block *sb, const char *name)
{
	struct dentry *dentry;

	inode_lock_nested(d_inode(sb->s_root), I_MUTEX_PARENT);
	dentry = pdt_kcreate_locked(sb->s_root, name, S_IFREG | 0644, NULL);
	inode_unlock(d_inode(sb->s_root));
	return PTR_ERR_OR_ZERO(dentry);	/* the fault: no dput() */
}

/*
 * The eaten persistence reference: NAME is made persistent (count 1, the
 * persistence reference, once our lookup reference is dropped), then a plain
 * dput() takes that reference away: count 0 with DCACHE_PERSISTENT still set,
 * which no legitimate path produces (only d_make_discardable() and the umount
 * walk clear the flag, each before dropping the count).
 *
 * With @dontcache the dentry is marked DCACHE_DONTCACHE first, as tmpfs,
 * ramfs, debugfs (s_d_flags) and simple_lookup() mark theirs (our own lookup
 * does not): then that dput() finds retain_dentry() false and kills the
 * dentry at once (fast_dput() -> finish_dput() -> dentry_kill() -> iput()),
 * the entry vanishes. The dentry may be freed by then: it is not touched
 * again. Without @dontcache the dentry is kept: hashed, on the LRU, count 0,
 * flag set, until the shrinker, an unlink or the umount walk meets it.
 */
static int pdt_eat_ref(struct super_block *sb, const char *name,
		       bool dontcache)
{
	struct inode *dir = d_inode(sb->s_root);
	struct dentry *dentry;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	dentry = pdt_kcreate_locked(sb->s_root, name, S_IFREG | 0644, NULL);
	if (!IS_ERR(dentry)) {
		if (dontcache) {
			spin_lock(&dentry->d_lock);
			dentry->d_flags |= DCACHE_DONTCACHE;
			spin_unlock(&dentry->d_lock);
		}
		dput(dentry);	/* our lookup reference: count 2 -> 1 */
		dput(dentry);	/* the fault: count 1 -> 0, flag still set */
	}
	inode_unlock(dir);
	return PTR_ERR_OR_ZERO(dentry);
}

/* eat NAME: on a dentry the last dput() kills (DCACHE_DONTCACHE). */
static int pdt_eat(struct super_block *sb, const char *name)
{
	return pdt_eat_ref(sb, name, true);
}

/*
 * eat-keep NAME, eat-unlink NAME: on a dentry that is kept. The same fault;
 * the two names tell the kernel log which scenario follows (umount or the
 * shrinker for eat-keep, a user's unlink for eat-unlink).
 */
static int pdt_eat_keep(struct super_block *sb, const char *name)
{
	return pdt_eat_ref(sb, name, false);
}

/* Unlink @dentry in @dir (locked) as vfs_unlink() would; drops our reference. */
static void pdt_kunlink_locked(struct inode *dir, struct dentry *dentry)
{
	simple_unlink(dir, dentry);
	d_delete(dentry);
	dput(dentry);
}

/*
 * A rename the filesystem gets wrong: NAME.victim (mode 0600) and NAME
 * (0644) are made persistent, then NAME is moved over NAME.victim as
 * simple_rename() would (the victim's nlink dropped), but without
 * d_make_discardable() on the victim before d_move(). __d_move() unhashes the
 * victim and leaves it among its parent's d_children: persistent (count 1),
 * invisible to lookups and out of the shrinker's reach (count 1), pinning its
 * inode (nlink 0) until the umount walk unpins it. NAME.victim is then the
 * old NAME (mode 0644).
 */
static int pdt_rename_keep_victim(struct super_block *sb, const char *name)
{
	struct dentry *root = sb->s_root;
	struct inode *dir = d_inode(root);
	struct dentry *src, *victim;
	char *vname;
	int err = 0;

	vname = kasprintf(GFP_KERNEL, "%s.victim", name);
	if (!vname)
		return -ENOMEM;
	if (strlen(vname) > NAME_MAX) {
		kfree(vname);
		return -ENAMETOOLONG;
	}
	inode_lock_nested(dir, I_MUTEX_PARENT);
	victim = pdt_kcreate_locked(root, vname, S_IFREG | 0600, NULL);
	if (IS_ERR(victim)) {
		err = PTR_ERR(victim);
		goto out;
	}
	src = pdt_kcreate_locked(root, name, S_IFREG | 0644, NULL);
	if (IS_ERR(src)) {
		err = PTR_ERR(src);
		pdt_kunlink_locked(dir, victim);
		goto out;
	}
	lock_two_nondirectories(d_inode(src), d_inode(victim));
	__simple_unlink(dir, victim);
	/* the fault: no d_make_discardable(victim) */
	d_move(src, victim);
	unlock_two_nondirectories(d_inode(src), d_inode(victim));
	dput(src);	/* count 2 -> 1 */
	dput(victim);	/* count 2 -> 1: only persistence holds it */
out:
	inode_unlock(dir);
	kfree(vname);
	return err;
}

/*
 * unregister DIR (a kernel-made DIR holding kfile and ksub only): no fault. DIR
 * is removed as configfs_unregister_group() removes a group: the parent's lock
 * held, its children first, then DIR itself by simple_rmdir() with nothing but
 * persistence holding it and its own inode lock not held, then unhashed. After
 * a user's rmdir of DIR was refused in the same task, it is not that rmdir.
 */
static int pdt_unregister(struct super_block *sb, const char *name)
{
	static const char *const names[] = { "kfile", "ksub" };
	struct inode *rdir = d_inode(sb->s_root);
	struct dentry *dir = pdt_lookup_dir(sb, name), *kid[2];
	int i, err;

	if (IS_ERR(dir))
		return PTR_ERR(dir);
	for (i = 0; i < 2; i++) {
		kid[i] = lookup_noperm_positive_unlocked(&QSTR(names[i]), dir);
		if (IS_ERR(kid[i])) {
			err = PTR_ERR(kid[i]);
			while (i--)
				dput(kid[i]);
			dput(dir);
			return err;
		}
	}
	inode_lock_nested(rdir, I_MUTEX_PARENT);
	inode_lock_nested(d_inode(dir), I_MUTEX_CHILD);
	simple_unlink(d_inode(dir), kid[0]);
	err = simple_rmdir(d_inode(dir), kid[1]);
	inode_unlock(d_inode(dir));
	for (i = 0; i < 2; i++) {
		d_drop(kid[i]);
		dput(kid[i]);	/* gone: DIR is held by persistence and us */
	}
	if (!err) {
		d_drop(dir);
		dput(dir);	/* persistence alone holds it, as a group's */
		err = simple_rmdir(rdir, dir);
	} else {
		dput(dir);
	}
	inode_unlock(rdir);
	return err;
}

/* kfill NAME: no fault. The kernel makes kdir/NAME, as debugfs_create_file() would. */
static int pdt_kfill(struct super_block *sb, const char *name)
{
	struct dentry *dir = pdt_lookup_dir(sb, "kdir"), *d;

	if (IS_ERR(dir))
		return PTR_ERR(dir);
	d = pdt_kcreate(dir, name, S_IFREG | 0644, NULL);
	dput(dir);
	return PTR_ERR_OR_ZERO(d);
}

static const struct {
	const char *cmd;
	int (*fault)(struct super_block *sb, const char *name);
} pdt_faults[] = {
	{ "discard-unpersisted", pdt_discard_unpersisted },
	{ "persist-twice", pdt_persist_twice },
	{ "extra-dput", pdt_extra_dput },
	{ "orphan", pdt_orphan },
	{ "remove", pdt_remove },
	{ "remove-untraced", pdt_remove_untraced },
	{ "remove-overrun", pdt_remove_overrun },
	{ "graph-full", pdt_graph_full },
	{ "graph-restore", pdt_graph_restore },
	{ "create-in-dead", pdt_create_in_dead },
	{ "leak", pdt_leak },
	{ "eat", pdt_eat },
	{ "eat-keep", pdt_eat_keep },
	{ "eat-unlink", pdt_eat_keep },
	{ "rename-keep-victim", pdt_rename_keep_victim },
	{ "unregister", pdt_unregister },
	{ "kfill", pdt_kfill },
};

static bool pdt_valid_name(const char *name)
{
	size_t len = strlen(name);

	return len && len <= NAME_MAX && strcmp(name, ".") &&
	       strcmp(name, "..") && !strpbrk(name, "/ \t");
}

static ssize_t pdt_ctl_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	struct super_block *sb = file_inode(file)->i_sb;
	struct pdt_sb_info *sbi = sb->s_fs_info;
	char buf[PDT_CTL_MAX], *name, *cmd;
	size_t i;
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	name = strim(buf);
	cmd = strsep(&name, " \t");
	if (!name)
		return -EINVAL;
	name = skip_spaces(name);
	if (!pdt_valid_name(name))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(pdt_faults); i++) {
		if (strcmp(cmd, pdt_faults[i].cmd))
			continue;
		pr_info("pdtfaultfs %u:%u: %s %s\n", MAJOR(sb->s_dev),
			MINOR(sb->s_dev), cmd, name);
		mutex_lock(&sbi->ctl_mutex);
		err = pdt_faults[i].fault(sb, name);
		mutex_unlock(&sbi->ctl_mutex);
		return err ?: len;
	}
	return -EINVAL;
}

static ssize_t pdt_ctl_read(struct file *file, char __user *ubuf, size_t len,
			    loff_t *ppos)
{
	static const char usage[] =
		"discard-unpersisted NAME\npersist-twice NAME\n"
		"extra-dput NAME\norphan DIR\nremove DIR\nremove-untraced DIR\n"
		"remove-overrun DIR\ngraph-full NAME\ngraph-restore NAME\n"
		"create-in-dead DIR\nleak NAME\neat NAME\neat-keep NAME\n"
		"eat-unlink NAME\nrename-keep-victim NAME\nunregister DIR\nkfill NAME\n";

	return simple_read_from_buffer(ubuf, len, ppos, usage,
				       sizeof(usage) - 1);
}

static const struct file_operations pdt_ctl_fops = {
	.read	= pdt_ctl_read,
	.write	= pdt_ctl_write,
	.llseek	= default_llseek,
};

/* ---- superblock ---- */

static const struct super_operations pdt_sops = {
	.statfs		= simple_statfs,
	.drop_inode	= inode_just_drop,
};

/* The kernel-created part of the tree, made at mount as debugfs would. */
static int pdt_populate(struct dentry *root)
{
	struct dentry *kdir, *d;

	d = pdt_kcreate(root, "ctl", S_IFREG | 0600, &pdt_ctl_fops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	kdir = pdt_kcreate(root, "kdir", S_IFDIR | 0755, NULL);
	if (IS_ERR(kdir))
		return PTR_ERR(kdir);
	d = pdt_kcreate(kdir, "kfile", S_IFREG | 0644, NULL);
	if (IS_ERR(d))
		return PTR_ERR(d);
	d = pdt_kcreate(kdir, "ksub", S_IFDIR | 0755, NULL);
	return PTR_ERR_OR_ZERO(d);
}

static int pdt_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct pdt_sb_info *sbi;
	struct inode *inode;

	sbi = kzalloc_obj(*sbi);
	if (!sbi)
		return -ENOMEM;
	mutex_init(&sbi->ctl_mutex);
	sb->s_fs_info = sbi;
	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = PDTFAULTFS_MAGIC;
	sb->s_op = &pdt_sops;
	sb->s_time_gran = 1;

	inode = pdt_get_inode(sb, NULL, S_IFDIR | 0755, 0);
	sb->s_root = d_make_root(inode);
	if (!sb->s_root)
		return -ENOMEM;
	/* On failure, kill_sb unpins what was made so far. */
	return pdt_populate(sb->s_root);
}

static int pdt_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, pdt_fill_super);
}

static const struct fs_context_operations pdt_context_ops = {
	.get_tree	= pdt_get_tree,
};

static int pdt_init_fs_context(struct fs_context *fc)
{
	fc->ops = &pdt_context_ops;
	return 0;
}

/*
 * kill_anon_super() -> generic_shutdown_super() -> shrink_dcache_for_umount()
 * unpins every persistent dentry still in the tree: no d_genocide() needed.
 */
static void pdt_kill_sb(struct super_block *sb)
{
	struct pdt_sb_info *sbi = sb->s_fs_info;

	kill_anon_super(sb);
	kfree(sbi);
}

static struct file_system_type pdt_fs_type = {
	.owner		= THIS_MODULE,
	.name		= "pdtfaultfs",
	.init_fs_context = pdt_init_fs_context,
	.kill_sb	= pdt_kill_sb,
};
MODULE_ALIAS_FS("pdtfaultfs");

/*
 * At load, as drivers do, a debugfs directory with a file; at unload it goes, unless
 * leave_debugfs=1, which also makes /pdt_faultfs_leftover at load and leaves it
 * behind: pinned for the life of the machine, its fops pointing into freed code.
 */
static bool leave_debugfs;
module_param(leave_debugfs, bool, 0444);
MODULE_PARM_DESC(leave_debugfs, "leave a debugfs file behind at unload");

static struct dentry *pdt_debugfs_dir;

static int pdt_state_show(struct seq_file *m, void *v)
{
	seq_printf(m, "leave_debugfs=%d\n", leave_debugfs);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pdt_state);

static void pdt_debugfs_init(void)
{
	pdt_debugfs_dir = debugfs_create_dir("pdt_faultfs", NULL);
	debugfs_create_file("state", 0444, pdt_debugfs_dir, NULL, &pdt_state_fops);
	if (leave_debugfs)
		debugfs_create_file("pdt_faultfs_leftover", 0444, NULL, NULL,
				    &pdt_state_fops);
}

static int __init pdt_init(void)
{
	int err = register_filesystem(&pdt_fs_type);

	if (!err)
		pdt_debugfs_init();
	return err;
}

static void __exit pdt_exit(void)
{
	debugfs_remove(pdt_debugfs_dir);
	unregister_filesystem(&pdt_fs_type);
}

module_init(pdt_init);
module_exit(pdt_exit);
MODULE_DESCRIPTION("Fault-injection filesystem for pdtrace's persistent-dentry tests");
MODULE_LICENSE("GPL");
