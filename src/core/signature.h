/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A finding's signature: what stays the same when the same bug is hit again, on
 * another boot or machine (docs/findings.md, "Signatures"). A readable key and a
 * 64-bit digest of it; no address, no offset, no pid, no device number.
 */
#ifndef PDT_SIGNATURE_H
#define PDT_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>
#include "ksyms.h"
#include "rules.h"

/* Frames of each stack that go into a signature. */
#define PDT_SIG_FRAMES 4
/* A frame as signatures and suppressions name it: "func" or "func [module]". */
#define PDT_SIG_FRAME_LEN 320
#define PDT_SIG_KEY_LEN (2 * PDT_FINDING_PATH_LEN)

struct pdt_sig {
	char hex[17]; /* the digest, 16 lowercase hex digits */
	char key[PDT_SIG_KEY_LEN];
};

/* The stack frames a report shows, named without offsets (BPF frames dropped). */
struct pdt_sig_stack {
	unsigned int n;
	char frame[PDT_STACK_DEPTH][PDT_SIG_FRAME_LEN];
};

void pdt_sig_make(struct pdt_sig *s, const struct pdt_finding *f, const struct ksyms *k);
void pdt_sig_stack(struct pdt_sig_stack *out, const unsigned long long *st, unsigned int n,
		   unsigned int epoch, const struct ksyms *k);
/*
 * The frames of a stack that go into the signature: up to PDT_SIG_FRAMES indexes into
 * st->frame, in order, into idx. Returns how many.
 */
unsigned int pdt_sig_pick(const struct pdt_sig_stack *st, unsigned int idx[PDT_SIG_FRAMES]);
/* Does the creation stack go into this finding's signature? */
bool pdt_sig_uses_creation(const struct pdt_finding *f);
/* A path with its variable parts normalised: each run of decimal digits as '#'. */
void pdt_sig_path(const char *path, char *buf, size_t n);
/* Is this (normalised) frame generic: system call entry and exit, task work, kthread? */
bool pdt_sig_generic(const char *frame);

#endif
