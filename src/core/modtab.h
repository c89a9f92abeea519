/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the loaded modules' code is, from their load and free events: names the
 * module whose code made an entry (the innermost creation-stack frame in a module's
 * text). Plain C, unit-tested on the host.
 */
#ifndef PDT_MODTAB_H
#define PDT_MODTAB_H

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
/* A module's free: the id of its load (0 when it loaded before we watched); its ranges go. */
unsigned int modtab_unload(struct modtab *mt, const struct pdt_module_event *e);
/* The name of module id ("" for an unknown id): kept after its free, for findings. */
const char *modtab_name(const struct modtab *mt, unsigned int id);

#endif
