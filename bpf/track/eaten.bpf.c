// SPDX-License-Identifier: GPL-2.0
/*
 * The eaten persistence reference, where the kernel acts on it. Only three places
 * touch DCACHE_PERSISTENT: d_make_persistent() sets it, d_make_discardable() and
 * select_collect_umount() clear it, each before dropping the count. A dentry that
 * still has the flag while its count is 0 has lost the persistence reference to a
 * plain dput(): on a filesystem that does not keep unused dentries the kernel kills
 * it at once (and the entry vanishes with its data); one that keeps them leaves it
 * on the LRU until the umount walk, or a shrinker, finds it.
 */
#include "common.bpf.h"
#include "event.bpf.h"
#include "elide.bpf.h"

/* The finding, out of line: the program's own frame stays that of the check. */
static __noinline int kill_eaten(void *ctx, struct dentry *dentry)
{
	struct pdt_event_full *e;

	materialize_if(addr_of(dentry));
	e = emit_full(ctx, PDT_EV_EATEN, dentry);
	if (e)
		submit(e);
	return 0;
}

/*
 * dentry_kill() runs once per dentry death, never on a lookup, with d_lock held
 * (the count is stable, preemption is off: a fentry program is safe). It is reached
 * from dput()'s slow half and its internal callers alike, which a hook on dput()
 * misses. The culprit's caller is on the stack.
 */
SEC("fentry/dentry_kill")
int BPF_PROG(dentry_kill, struct dentry *dentry)
{
	if (!(dentry->d_flags & persistent_bit()) || dentry->d_lockref.count != 0)
		return 0;
	return kill_eaten(ctx, dentry);
}
