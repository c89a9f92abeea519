/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the loaded modules' code is, from their load and free events: names the
 * module whose code made an entry (the innermost creation-stack frame in a module's
 * text). Plain C, unit-tested on the host.
 */
#ifndef PDT_MODTAB_H
#define PDT_MODTAB_H

#include <stdbool.h>
#include <stddef.h>
#include "ksyms.h"
#include "pdtrace.h"

struct modtab;

struct modtab *modtab_new(void);
void modtab_free(struct modtab *mt);
/*
 * A module's load: its core and init text. Returns its id (> 0; a new one for every
 * load), 0 when out of memory. Ranges of earlier modules that it overlaps (freed init
 * text handed out again) stop naming them.
 */
unsigned int modtab_load(struct modtab *mt, const struct pdt_module_event *e);
/* The id of the module that owns the innermost frame of stack in a module, else 0. */
unsigned int modtab_owner(const struct modtab *mt, const unsigned long long *stack, unsigned int n);
/*
 * A module's free: the id of its load (0 when it loaded before we watched); its ranges go.
 * One loaded before we watched leaves its text's range in the history, as held until now.
 */
unsigned int modtab_unload(struct modtab *mt, const struct pdt_module_event *e);
/*
 * Module events applied so far: a stack taken between two of them is named with the
 * modules of that epoch (modtab_frame()), whatever took their memory since.
 */
unsigned int modtab_epoch(const struct modtab *mt);

/* The text that held an address at some epoch. */
struct modtab_frame {
	unsigned long long lo; /* its start */
	unsigned int size;
	bool init; /* init text (freed when the init returned) */
	bool live; /* the same load still holds it now */
	const char *name;
};

/* Which module's text held addr at epoch: false when none we saw (the core kernel, or
 * a module loaded before we watched and not freed since). */
bool modtab_frame(const struct modtab *mt, unsigned long long addr, unsigned int epoch,
		  struct modtab_frame *out);
/* The name of module id ("" for an unknown id): kept after its free, for findings. */
const char *modtab_name(const struct modtab *mt, unsigned int id);
/*
 * Name the text of every module seen since *done in k: "(text) [mod]" and "(init_text)
 * [mod]", as long as the range. A module still loaded has its own symbols above
 * its range's start, which win; one freed since (its init text after init, all of it
 * after its unload) keeps a name and an offset instead of "?". Sorts k; advances *done.
 */
int modtab_ksyms(const struct modtab *mt, struct ksyms *k, size_t *done);

#endif
