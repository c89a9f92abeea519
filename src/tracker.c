// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "hooks.h"
#include "log.h"
#include "kernel_facts.h"
#include "modtab.h"
#include "mountinfo.h"
#include "testing.h"
#include "tracker_priv.h"
#include "track.skel.h"

static int on_event(void *ctx, void *data, size_t size)
{
	struct pdt_tracker *t = ctx;
	const struct pdt_event_full *e = data;

	/* A superblock's first event: its elided counts may be handed to the rules now. */
	if (size == sizeof(*e) && (e->h.flags & PDT_F_FIRST_OF_SB) && e->slot &&
	    e->slot <= PDT_SB_SLOTS)
		t->announced[(e->slot - 1) / 8] |= 1u << ((e->slot - 1) % 8);
	/*
	 * Its superblock is gone and its counts flushed: the slot is no longer read here,
	 * and goes back to the BPF side for the next superblock.
	 */
	if (size == sizeof(*e) && e->h.type == PDT_EV_SB_DOWN && e->slot &&
	    e->slot <= PDT_SB_SLOTS && t->skel) {
		unsigned int head = t->skel->bss->pdt_free_head;

		t->announced[(e->slot - 1) / 8] &= ~(1u << ((e->slot - 1) % 8));
		t->skel->bss->pdt_free_slots[head % PDT_SB_SLOTS] = e->slot - 1;
		__atomic_store_n(&t->skel->bss->pdt_free_head, head + 1, __ATOMIC_RELEASE);
	}
	if (t->on_raw)
		t->on_raw(data, size, t->raw_ctx);
	pdt_rules_feed(t->rules, data, size);
	return 0;
}

/* Keep mounts[] parallel to the rules' superblocks. */
static void on_new_sb(const struct pdt_sb *sb, void *ctx)
{
	struct pdt_tracker *t = ctx;
	struct mountinfo_index ix;
	size_t len;
	char *text = mountinfo_read_self(&len);

	pdt_hooks_note_fs(t->fs_seen, sb->fs_type);
	/* The very text and lookup `report` repeats on a recording's snapshot. */
	if (!mountinfo_index_build(&ix, text ? text : "", len)) {
		pdt_mounts_set(&t->mounts, &t->nmounts, &t->cap_mounts,
			       pdt_rules_sb_index(t->rules, sb), &ix, sb->dev);
		mountinfo_index_free(&ix);
	}
	if (t->on_new_sb)
		t->on_new_sb(sb, text ? text : "", len, t->raw_ctx);
	free(text);
}

const char *pdt_check_kernel(struct pdt_facts *f, char *err, size_t errlen)
{
	struct pdt_verdict v;

	/* Doctor's verdict, in doctor's words: its first problem is the command's error. */
	pdt_gather_facts(f);
	pdt_evaluate(f, &v);
	if (v.can_trace)
		return NULL;
	snprintf(err, errlen, "%s", v.nproblems ? v.problems[0] : "pdtrace cannot trace here");
	return err;
}

static void note_missing(struct pdt_tracker *t, const struct pdt_hook *h)
{
	char line[200], label[64];
	size_t i;

	snprintf(line, sizeof(line), "%s not traceable here: lost %s",
		 pdt_hook_label(h, label, sizeof(label)), h->lost);
	for (i = 0; i < t->nmissing; i++)
		if (!strcmp(t->missing[i], line))
			return; /* a function hooked at entry and at return */
	if (t->nmissing < sizeof(t->missing) / sizeof(t->missing[0]))
		t->missing[t->nmissing++] = strdup(line);
	for (i = 0; i < 3 && h->rules[i]; i++)
		pdt_rules_disable(t->rules, h->rules[i]);
}

/*
 * omit-hooks=f,g (PDTRACE_TESTING): leave those functions unhooked without a word, as
 * a kernel path pdtrace does not know would be. The self-check must notice.
 */
static bool omitted(const char *func)
{
	return pdt_testing_lists("omit-hooks", func);
}

static bool hook_present(const struct pdt_facts *f, const struct pdt_hook *h)
{
	return f->funcs[h - pdt_hooks] == PDT_FUNC_PRESENT && !omitted(h->func);
}

/*
 * Load only the programs whose functions this kernel has; say what the others cost.
 * The dispatcher's functions (pdt_hook.id) are listed at attach; a fentry program
 * is named after its function.
 */
static void select_programs(struct pdt_tracker *t, const struct pdt_facts *f,
			    const struct pdt_tracker_opts *o)
{
	struct bpf_program *prog;
	size_t i;

	/* no-lsm (PDTRACE_TESTING): mark by kprobe.multi, as without the BPF LSM. */
	t->use_lsm = f->bpf_lsm && !pdt_testing("no-lsm");
	for (i = 0; i < pdt_nhooks; i++)
		if (pdt_hooks[i].id && f->funcs[i] != PDT_FUNC_PRESENT)
			note_missing(t, &pdt_hooks[i]);
	bpf_object__for_each_program(prog, t->skel->obj) {
		const char *sec = bpf_program__section_name(prog), *slash = strchr(sec, '/');
		const struct pdt_hook *h = slash ? pdt_hook_find(slash + 1) : NULL;
		bool ok = h && hook_present(f, h);

		if (!strncmp(sec, "lsm/", 4)) {
			h = pdt_hook_find_lsm(sec + 4);
			ok = t->use_lsm && h && hook_present(f, h);
		} else if (prog == t->skel->progs.walk_task_file) {
			ok = !o->no_self_check; /* an iterator: run at stop, never attached */
		} else if (prog == t->skel->progs.dispatch_entry ||
			   prog == t->skel->progs.dispatch_session ||
			   prog == t->skel->progs.resolve_kallsyms ||
			   prog == t->skel->progs.fgraph_index) {
			ok = true;
		} else if (h && !strcmp(h->func, "dput") && !o->dput) {
			/* Opt-in: eaten-persistence-ref catches the bug where the kernel acts. */
			ok = false;
			pdt_rules_disable(t->rules, PDT_RULE_DPUT_PERSISTENCE_REF);
		} else if (h && f->funcs[h - pdt_hooks] != PDT_FUNC_PRESENT) {
			note_missing(t, h);
		}
		bpf_program__set_autoload(prog, ok);
	}
	t->facts = *f;
}

static const char *load_error(int err, char *buf, size_t n)
{
	if (err == -EPERM || err == -EACCES)
		snprintf(buf, n,
			 "attaching fentry programs is not permitted here (%s): the kernel, its "
			 "lockdown or an LSM forbids tracing",
			 err == -EPERM ? "EPERM" : "EACCES");
	else
		snprintf(buf, n,
			 "cannot load the BPF programs: %s (run 'pdtrace -v ...' for details)",
			 strerror(-err));
	return buf;
}

/* A function of the entry dispatcher's link, or (brackets) of the brackets' session link. */
static bool dispatched(const struct pdt_tracker *t, const struct pdt_hook *h, bool brackets)
{
	return h->id && h->bracket == brackets && hook_present(&t->facts, h) &&
	       !(h->lsm && t->use_lsm);
}

/*
 * Addresses from kallsyms_lookup_name() in the kernel (bpf/track/resolve.bpf.c), each
 * name with where its address goes: the dispatchers' functions (attaching by name
 * costs each link a pass over kallsyms) and the bounds of the core kernel's text
 * (kstack.bpf.h).
 */
static void resolve_names(struct pdt_tracker *t)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct track_bpf__data_resolve *r = t->skel->data_resolve;
	const char *names[PDT_RESOLVE_MAX];
	__u64 *dst[PDT_RESOLVE_MAX];
	__u32 i, n = 0;

	for (i = 0; i < pdt_nhooks && n < PDT_RESOLVE_MAX - 3; i++)
		if (dispatched(t, &pdt_hooks[i], false) || dispatched(t, &pdt_hooks[i], true)) {
			names[n] = pdt_hooks[i].func;
			dst[n++] = &t->hook_addr[i];
		}
	/* The core kernel's text: a creation stack that leaves it may go with a module. */
	names[n] = "_stext";
	dst[n++] = &t->skel->bss->pdt_core_text[0];
	names[n] = "_etext";
	dst[n++] = &t->skel->bss->pdt_core_text[1];
	/* fprobe's fgraph_ops, whose index avoid_graph_index0() reads. */
	names[n] = "fprobe_graph_ops";
	dst[n++] = &r->pdt_fgraph_ops_addr;
	for (i = 0; i < n; i++) {
		/* Too long a name stays empty, and is not found. */
		memset(r->pdt_resolve_names[i], 0, PDT_RESOLVE_NAME_LEN);
		if (strlen(names[i]) < PDT_RESOLVE_NAME_LEN)
			memcpy(r->pdt_resolve_names[i], names[i], strlen(names[i]));
	}
	r->pdt_resolve_n = n;
	/*
	 * no-resolve (PDTRACE_TESTING): every address stays unknown, as where the lookup
	 * fails: the links attach by name.
	 */
	if (pdt_testing("no-resolve") ||
	    bpf_prog_test_run_opts(bpf_program__fd(t->skel->progs.resolve_kallsyms), &opts))
		return;
	for (i = 0; i < n; i++)
		*dst[i] = r->pdt_resolve_addrs[i];
}

/* The functions of one of the dispatchers' links, with their ids as cookies. */
struct hook_set {
	const char *syms[PDT_MAX_HOOKS];
	__u64 cookies[PDT_MAX_HOOKS];
	unsigned long addrs[PDT_MAX_HOOKS];
	size_t n;
	bool by_addr; /* the kernel gave every address */
};

static size_t hook_set(const struct pdt_tracker *t, bool brackets, struct hook_set *s)
{
	size_t i, naddrs = 0;

	s->n = 0;
	for (i = 0; i < pdt_nhooks && s->n < PDT_MAX_HOOKS; i++) {
		if (!dispatched(t, &pdt_hooks[i], brackets))
			continue;
		s->addrs[s->n] = t->hook_addr[i];
		naddrs += !!s->addrs[s->n];
		s->syms[s->n] = pdt_hooks[i].func;
		s->cookies[s->n++] = pdt_hooks[i].id;
	}
	s->by_addr = naddrs == s->n;
	return s->n;
}

/* One dispatcher's link: a kprobe.multi, or (brackets) a kprobe.session. NULL, errno set. */
static struct bpf_link *multi_link(const struct bpf_program *prog, bool brackets,
				   struct hook_set *s, bool by_addr)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts, .cookies = s->cookies, .cnt = s->n,
		    .session = brackets);
	struct bpf_link *link;

	if (by_addr)
		opts.addrs = s->addrs;
	else
		opts.syms = s->syms;
	link = bpf_program__attach_kprobe_multi_opts(prog, NULL, &opts);
	if (!link)
		errno = errno ? errno : EINVAL;
	return link;
}

/*
 * A dispatcher on every present function that has its id: the entry dispatcher on
 * those without a bracket, the brackets' session on the others. By address where the
 * kernel gave every one, else (or if that fails) by name. Its link, or NULL.
 */
static struct bpf_link *attach_dispatcher(struct pdt_tracker *t, const struct bpf_program *prog,
					  bool brackets)
{
	struct bpf_link *link = NULL;
	struct hook_set s;

	if (!hook_set(t, brackets, &s)) {
		errno = ENOENT;
		return NULL;
	}
	if (s.by_addr) {
		link = multi_link(prog, brackets, &s, true);
		t->by_addr += !!link;
	}
	if (!link)
		link = multi_link(prog, brackets, &s, false);
	if (link)
		t->links++;
	return link;
}

/* Append the functions and cookies of a dispatcher's link to addrs and cookies (*n so far). */
static bool link_hooks(struct bpf_link *link, __u64 *addrs, __u64 *cookies, __u32 *n)
{
	struct bpf_link_info info = { 0 };
	__u32 len = sizeof(info);

	info.kprobe_multi.addrs = (__u64)(unsigned long)(addrs + *n);
	info.kprobe_multi.count = PDT_MAX_HOOKS - *n;
	info.kprobe_multi.cookies = (__u64)(unsigned long)(cookies + *n);
	if (!link || bpf_link_get_info_by_fd(bpf_link__fd(link), &info, &len))
		return false;
	*n += info.kprobe_multi.count;
	return true;
}

/*
 * Hand the dispatchers their table of addresses (pdtrace.h), most frequent hook
 * first: enum pdt_hook_id's order. Where the kernel hides addresses (kptr_restrict)
 * or is older, they stay on the cookie.
 */
static void publish_hook_ips(struct pdt_tracker *t)
{
	__u64 addrs[PDT_MAX_HOOKS] = { 0 }, cookies[PDT_MAX_HOOKS] = { 0 };
	struct pdt_hook_ip *tab = t->skel->bss->pdt_hook_ips;
	__u32 count = 0, i, n = 0;
	__u64 id;

	if (!link_hooks(t->dispatch[0], addrs, cookies, &count) ||
	    !link_hooks(t->dispatch[1], addrs, cookies, &count))
		return;
	for (id = PDT_HK_NONE + 1; id < PDT_HK_MAX && n < PDT_HOOK_IPS; id++)
		for (i = 0; i < count && i < PDT_MAX_HOOKS && n < PDT_HOOK_IPS; i++) {
			if (cookies[i] != id)
				continue;
			if (!addrs[i])
				return;
			tab[n].ip = addrs[i];
			tab[n++].id = id;
		}
	__atomic_store_n(&t->skel->bss->pdt_nhook_ips, n, __ATOMIC_RELEASE);
	if (pdt_verbose)
		fprintf(stderr,
			"pdtrace: %u of %u hooked functions dispatched by address; origin marks by "
			"%s\n",
			n, count, t->use_lsm ? "the BPF LSM" : "kprobe.multi");
}

/* fprobe's fgraph_ops' index in the function graph tracer's fgraph_array, or -1. */
static int graph_index(struct pdt_tracker *t)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	t->skel->data_resolve->pdt_fgraph_idx = -1;
	if (!t->skel->data_resolve->pdt_fgraph_ops_addr ||
	    bpf_prog_test_run_opts(bpf_program__fd(t->skel->progs.fgraph_index), &opts))
		return -1;
	return t->skel->data_resolve->pdt_fgraph_idx;
}

/*
 * Keep the brackets' session off index 0 of the function graph tracer. A
 * kprobe.session is an fprobe with an exit handler, so the kernel registers fprobe's one
 * fgraph_ops (fprobe_graph_ops) with the function graph tracer for it, at the index the
 * tracer's LRU gives: 0 for the first graph user of a boot. Linux 7.2's
 * function_graph_enter_regs() sets bit 0 in the bitmap of every frame it pushes, for
 * whichever user (kernel/trace/fgraph.c:706-710), and the return calls the retfunc of
 * fgraph_array[i] for each bit set (fgraph.c:850-864). At index 0, fprobe_return() then
 * runs at the return of every function another graph user traces (the function_graph
 * tracer, `trace-cmd record -p function_graph`), finds no data of fprobe's there and
 * WARNs (kernel/trace/fprobe.c:683; a crash under panic_on_warn). Attached again, the
 * session gets the LRU's next index (the one released goes to its end), unless another
 * fprobe user keeps fprobe_graph_ops registered meanwhile: then say so.
 */
static int avoid_graph_index0(struct pdt_tracker *t, const struct bpf_program *prog)
{
	unsigned int links = t->links, by_addr = t->by_addr;

	if (graph_index(t) != 0)
		return 0;
	if (pdt_verbose)
		fprintf(stderr, "pdtrace: the brackets' session got function graph index 0; "
				"attaching it again\n");
	bpf_link__destroy(t->dispatch[1]);
	t->dispatch[1] = attach_dispatcher(t, prog, true);
	if (!t->dispatch[1])
		return -errno;
	t->links = links;
	t->by_addr = by_addr;
	if (graph_index(t) == 0)
		fprintf(stderr,
			"pdtrace: warning: the kernel's fprobe holds function graph index 0: "
			"starting the function_graph tracer while pdtrace runs makes this kernel "
			"WARN in fprobe_return() (docs/kernel-fgraph-bit0.md)\n");
	return 0;
}

/* Every program but the self-check's iterator, which runs only at stop. */
static int attach_programs(struct pdt_tracker *t)
{
	const struct bpf_object_skeleton *s = t->skel->skeleton;
	int i;

	resolve_names(t);
	for (i = 0; i < s->prog_cnt; i++) {
		struct bpf_program *prog = *s->progs[i].prog;
		struct bpf_link *link;

		if (!bpf_program__autoload(prog) || prog == t->skel->progs.walk_task_file ||
		    prog == t->skel->progs.resolve_kallsyms || prog == t->skel->progs.fgraph_index)
			continue;
		if (prog == t->skel->progs.dispatch_entry ||
		    prog == t->skel->progs.dispatch_session) {
			bool brackets = prog == t->skel->progs.dispatch_session;

			t->dispatch[brackets] = attach_dispatcher(t, prog, brackets);
			if (!t->dispatch[brackets])
				return -errno;
			if (brackets) {
				int rc = avoid_graph_index0(t, prog);

				if (rc)
					return rc;
				t->skel->bss->pdt_brackets_live = 1;
			}
			continue;
		}
		link = bpf_program__attach(prog);
		if (!link)
			return -errno;
		*s->progs[i].link = link;
	}
	publish_hook_ips(t);
	if (pdt_verbose)
		fprintf(stderr, "pdtrace: %u of %u dispatcher links attached by address\n",
			t->by_addr, t->links);
	return 0;
}

/*
 * The tables whose size the test suite varies (PDTRACE_TESTING): kstacks=N, a power of
 * two, distinct kernel stacks (4 fill with a tracefs instance's: vm/stacks-full);
 * elide-bits=N, the elided set's 2^N slots (a smaller set's misses, for the bench).
 */
static void set_table_sizes(struct pdt_tracker *t)
{
	unsigned long kstacks = pdt_testing_num("kstacks", 0);
	unsigned long bits = pdt_testing_num("elide-bits", 0);

	if (kstacks && !(kstacks & (kstacks - 1)) && kstacks <= (1ul << 16)) {
		bpf_map__set_max_entries(t->skel->maps.kstacks, (__u32)kstacks);
		t->skel->rodata->pdt_kstacks_mask = (__u32)kstacks - 1;
	}
	if (bits >= 4 && bits <= 24) {
		bpf_map__set_max_entries(t->skel->maps.elided, 1u << bits);
		t->skel->rodata->pdt_elide_bits = (__u32)bits;
	}
}

int pdt_tracker_open(struct pdt_tracker *t, const struct pdt_tracker_opts *o, char *err,
		     size_t errlen)
{
	unsigned int pages = o->ringbuf_pages ? o->ringbuf_pages : PDT_DEFAULT_RINGBUF_PAGES;
	struct pdt_facts f;
	struct utsname u;
	struct timespec now;
	int rc;

	memset(t, 0, sizeof(*t));
	if (pdt_check_kernel(&f, err, errlen))
		return -1;
	memcpy(t->release, f.release, sizeof(t->release));
	if (!uname(&u))
		snprintf(t->machine, sizeof(t->machine), "%s", u.machine);
	if (!clock_gettime(CLOCK_REALTIME, &now))
		t->start_ns = (unsigned long long)now.tv_sec * 1000000000ULL + now.tv_nsec;
	t->no_self_check = o->no_self_check;
	t->on_raw = o->on_raw;
	t->on_new_sb = o->on_new_sb;
	t->raw_ctx = o->raw_ctx;
	t->rules = pdt_rules_new();
	t->skel = track_bpf__open();
	if (!t->rules || !t->skel) {
		snprintf(err, errlen, "cannot open the BPF object: %s", strerror(errno));
		return -1;
	}
	pdt_rules_on_new_sb(t->rules, on_new_sb, t);
	select_programs(t, &f, o);
	bpf_map__set_max_entries(t->skel->maps.events, pages * 4096);
	t->skel->rodata->pdt_user_stacks = o->user_stacks;
	/* no-elide (PDTRACE_TESTING): stream every entry, as trace -e does. */
	t->skel->rodata->pdt_elide = !o->every_event && !o->user_stacks && !pdt_testing("no-elide");
	t->skel->rodata->pdt_ring_size = (__u64)pages * 4096;
	set_table_sizes(t);
	rc = track_bpf__load(t->skel);
	if (rc) {
		load_error(rc, err, errlen);
		return -1;
	}
	t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.events), on_event, t, NULL);
	if (!t->rb) {
		snprintf(err, errlen, "cannot set up the ring buffer: %s", strerror(errno));
		return -1;
	}
	rc = attach_programs(t);
	if (rc) {
		load_error(rc, err, errlen);
		return -1;
	}
	return 0;
}

/* bpf_ktime_get_ns()'s clock, for the events user space makes. */
static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Hand the elided counts that piled up (pdtrace.h) to the rules, as the events a
 * recording keeps too: one per superblock slot that moved. Read through the mapping of
 * .bss, no syscall; each count is taken and zeroed in one atomic exchange, so none is
 * lost to the BPF side's increments or to its own flush at a shutdown. The events
 * already in the ring buffer are older than these counts and go after them: the counts
 * only add, and a shutdown's own flush goes before its PDT_EV_SB_DOWN.
 */
void pdt_tracker_flush_elided(struct pdt_tracker *t)
{
	unsigned int n = __atomic_load_n(&t->skel->bss->pdt_nslots, __ATOMIC_RELAXED), i;
	struct pdt_sb_slot *slots = (struct pdt_sb_slot *)t->skel->bss->pdt_slots;

	for (i = 0; i < n && i < PDT_SB_SLOTS; i++) {
		struct pdt_sb_slot *s = &slots[i];
		struct pdt_elided_event ev = { 0 };

		if (!(t->announced[i / 8] & (1u << (i % 8))))
			continue;
		ev.made = __atomic_exchange_n(&s->made, 0, __ATOMIC_RELAXED);
		ev.discarded = __atomic_exchange_n(&s->discarded, 0, __ATOMIC_RELAXED);
		ev.unpinned = __atomic_exchange_n(&s->unpinned, 0, __ATOMIC_RELAXED);
		if (!ev.made && !ev.discarded && !ev.unpinned)
			continue;
		ev.h.type = PDT_EV_ELIDED;
		ev.h.size = sizeof(ev);
		ev.h.sb = s->sb;
		ev.h.ts_ns = mono_ns();
		on_event(t, &ev, sizeof(ev));
	}
}

/*
 * The BPF side commits events without a wakeup (see submit() in common.bpf.h) until
 * an eighth of the buffer is waiting: wait for that or the timeout, then take
 * whatever is there.
 */
int pdt_tracker_poll(struct pdt_tracker *t, int timeout_ms)
{
	static const struct timespec pause = { 0, PDT_DRAIN_PAUSE_MS * 1000000L };
	int n = ring_buffer__poll(t->rb, timeout_ms), m;

	if (n < 0 && n != -EINTR)
		return n;
	pdt_tracker_flush_elided(t);
	m = ring_buffer__consume(t->rb);
	if (m < 0)
		return m;
	/*
	 * libbpf waits level-triggered: once events flow, every epoll_wait() returns at
	 * once and the reader would spin, a syscall per handful of events. After a
	 * drain, let a batch gather first.
	 */
	if (n > 0 || m > 0)
		nanosleep(&pause, NULL);
	return (n > 0 ? n : 0) + m;
}

/* Under -v, how the superblocks' slots of elided counts were shared (they are reused). */
static void slots_report(const struct pdt_tracker *t)
{
	unsigned int n = t->skel->bss->pdt_nslots;

	if (pdt_verbose)
		fprintf(stderr,
			"pdtrace: superblock slots: %u of %u handed out, %u given back, %u of "
			"those taken again\n",
			n < PDT_SB_SLOTS ? n : PDT_SB_SLOTS, PDT_SB_SLOTS,
			t->skel->bss->pdt_free_head, t->skel->bss->pdt_free_tail);
}

void pdt_tracker_stop(struct pdt_tracker *t)
{
	/*
	 * Take what is waiting first: kallsyms takes long under emulation, and a backlog
	 * the reader had not caught up with would leave no room for what comes meanwhile.
	 */
	while (ring_buffer__consume(t->rb) > 0)
		;
	t->ksyms = ksyms_load();
	if (!t->no_self_check)
		pdt_tracker_self_check(t);
	track_bpf__detach(t->skel);
	while (ring_buffer__consume(t->rb) > 0)
		;
	pdt_tracker_flush_elided(t);
	slots_report(t);
	/* Frames of modules freed meanwhile: named after their module, not "?". */
	modtab_ksyms(pdt_rules_modtab(t->rules), t->ksyms, &(size_t){ 0 });
	ksyms_set_modules(t->ksyms, pdt_rules_modtab(t->rules));
}

unsigned long long pdt_percpu_sum(int map_fd, unsigned int idx)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	unsigned long long total = 0, *vals;

	if (ncpu <= 0)
		return 0;
	vals = calloc(ncpu, sizeof(*vals));
	if (vals && !bpf_map_lookup_elem(map_fd, &idx, vals))
		for (i = 0; i < ncpu; i++)
			total += vals[i];
	free(vals);
	return total;
}

/* Read through the skeleton's mapping of .bss: no syscall (see common.bpf.h). */
static unsigned long long counter(struct pdt_tracker *t, unsigned int idx)
{
	return __atomic_load_n(&t->skel->bss->pdt_counters[idx], __ATOMIC_RELAXED);
}

/*
 * Runs the kernel skipped: a program does not run while another BPF program runs on
 * that CPU (an interrupt over it), nor while a map syscall disables instrumentation
 * there. Every hook has one program, and a skipped run is a call lost. dput()'s
 * program (--dput) is counted apart: its skipped runs could only hide a
 * dput-persistence-ref finding, which the eaten-reference checks make anyway.
 */
static unsigned long long recursion_misses(struct pdt_tracker *t, bool dput)
{
	unsigned long long total = 0;
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, t->skel->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || (prog == t->skel->progs.dput) != dput ||
		    bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		if (info.recursion_misses && pdt_verbose)
			fprintf(stderr, "pdtrace: %s skipped %llu times\n", bpf_program__name(prog),
				(unsigned long long)info.recursion_misses);
		total += info.recursion_misses;
	}
	return total;
}

/*
 * Calls a dispatcher link's fprobe skipped, which no program's recursion_misses
 * count (fprobe's nmissed, 6.7+): a session's call whose data no longer fits on the
 * task's function graph shadow stack runs neither half.
 */
static unsigned long long link_missed(struct bpf_link *link, const char *name)
{
	struct bpf_link_info info = { 0 };
	__u32 len = sizeof(info);

	if (!link || bpf_link_get_info_by_fd(bpf_link__fd(link), &info, &len))
		return 0;
	if (info.kprobe_multi.missed && pdt_verbose)
		fprintf(stderr, "pdtrace: %s's link missed %llu calls\n", name,
			(unsigned long long)info.kprobe_multi.missed);
	return info.kprobe_multi.missed;
}

/*
 * Calls the function graph tracer skipped on tasks that then discarded or unmounted,
 * which no link counts: a session's call with no room on the shadow stack even for
 * its frame (graph_check() in common.bpf.h).
 */
static unsigned long long graph_skipped(struct pdt_tracker *t)
{
	unsigned long long n = counter(t, PDT_TC_GRAPH_SKIPPED);

	if (n && pdt_verbose)
		fprintf(stderr,
			"pdtrace: the function graph tracer skipped %llu calls of tasks that then "
			"discarded or unmounted (their shadow stack was full)\n",
			n);
	return n;
}

void pdt_tracker_losses(struct pdt_tracker *t, unsigned long long *lost,
			unsigned long long *map_full)
{
	*lost = counter(t, PDT_TC_LOST_EVENTS) + counter(t, PDT_TC_KIDS_UNCHECKED) +
		recursion_misses(t, false) + link_missed(t->dispatch[0], "dispatch_entry") +
		link_missed(t->dispatch[1], "dispatch_session") + graph_skipped(t);
	*map_full = counter(t, PDT_TC_TASK_FULL) + counter(t, PDT_TC_SB_FULL) +
		    counter(t, PDT_TC_STACKS_FULL);
}

unsigned long long pdt_tracker_dput_skipped(struct pdt_tracker *t)
{
	return recursion_misses(t, true);
}

void pdt_tracker_close(struct pdt_tracker *t)
{
	size_t i;

	if (!t)
		return;
	ksyms_free(t->ksyms);
	bpf_link__destroy(t->walk_link);
	for (i = 0; i < 2; i++)
		bpf_link__destroy(t->dispatch[i]);
	ring_buffer__free(t->rb);
	track_bpf__destroy(t->skel);
	pdt_rules_free(t->rules);
	free(t->mounts);
	for (i = 0; i < t->nmissing; i++)
		free(t->missing[i]);
	free(t);
}

struct pdt_tracker *pdt_tracker_new(void)
{
	return calloc(1, sizeof(struct pdt_tracker));
}

struct pdt_rules *pdt_tracker_rules(const struct pdt_tracker *t)
{
	return t->rules;
}

const char *pdt_tracker_release(const struct pdt_tracker *t)
{
	return t->release;
}

const char *const *pdt_tracker_missing(const struct pdt_tracker *t, size_t *n)
{
	*n = t->nmissing;
	return (const char *const *)t->missing;
}

const bool *pdt_tracker_fs_seen(const struct pdt_tracker *t)
{
	return t->fs_seen;
}

const char *pdt_tracker_machine(const struct pdt_tracker *t)
{
	return t->machine;
}

unsigned long long pdt_tracker_start_ns(const struct pdt_tracker *t)
{
	return t->start_ns;
}

const struct pdt_mount *pdt_tracker_mounts(const struct pdt_tracker *t, size_t *n)
{
	*n = t->nmounts;
	return t->mounts;
}

struct ksyms *pdt_tracker_ksyms(const struct pdt_tracker *t)
{
	return t->ksyms;
}
