/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel functions pdtrace hooks, and what is lost when one is missing. */
#ifndef PDT_HOOKS_H
#define PDT_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

struct pdt_hook {
	const char *func;   /* kernel function, or tracepoint when tracepoint is set */
	bool tracepoint;    /* a BTF tracepoint (SEC("tp_btf/func")), not a function */
	const char *module; /* NULL: vmlinux; else the module whose BTF holds it */
	/*
	 * The one filesystem whose entries it sees (NULL: all): without it a run loses
	 * something only if a superblock of that type came (pdt_hooks_note_fs()).
	 */
	const char *fs_type;
	bool required;	      /* tracing is impossible without it */
	const char *lost;     /* what the report lacks without it */
	const char *rules[3]; /* rules switched off without it (they would misfire) */
	/*
	 * Entered with no lock held: the kprobe.multi dispatcher's cookie (enum
	 * pdt_hook_id), and whether it is a bracket, hooked at entry and return (the
	 * session link's, not the entry link's). 0: a fentry program of its own
	 * (SEC("fentry/func")).
	 */
	unsigned int id;
	bool bracket;
	/*
	 * The BPF LSM hook (SEC("lsm/...")) the function calls with the same dentry, used
	 * instead of the dispatcher where the BPF LSM is active. NULL: none.
	 */
	const char *lsm;
	/*
	 * Where a reader goes next: the BPF program on it (a dispatcher, or its own, named
	 * after the function), the function of bpf/track/ the program calls for it, and the
	 * event that may follow (enum pdt_event_type; 0: none, a mark the next event reads).
	 * tests/unit/test_hooks.c checks the programs against the BPF object.
	 */
	const char *program;
	const char *handler;
	unsigned int event;
};

#define PDT_MAX_HOOKS 32 /* at least pdt_nhooks */
extern const struct pdt_hook pdt_hooks[];
extern const size_t pdt_nhooks;

const struct pdt_hook *pdt_hook_find(const char *func);
/* The hook whose BPF LSM twin is lsm ("inode_create"), or NULL. */
const struct pdt_hook *pdt_hook_find_lsm(const char *lsm);
/* A superblock of fs_type came: mark the hooks that serve it in seen[PDT_MAX_HOOKS]. */
void pdt_hooks_note_fs(bool *seen, const char *fs_type);
/* "func()" or "tracepoint func", as messages name a hook. */
const char *pdt_hook_label(const struct pdt_hook *h, char *buf, size_t n);

#endif
