// SPDX-License-Identifier: GPL-2.0
/* The tracker's maps and license, defined once; the other sources declare the maps extern. */
#define PDT_MAPS_OWNER
#include "common.bpf.h"
#include "elide.bpf.h"
#include "removal.bpf.h"
#include "kstack.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* elide.bpf.h's */
const volatile bool pdt_elide = true;
const volatile __u32 pdt_elide_bits = PDT_ELIDE_BITS;

/* kstack.bpf.h's */
__u64 pdt_core_text[2];	   /* _stext, _etext (user space resolves them; 0: unknown) */
__u32 pdt_kelided_modular; /* an entry of a marked stack may be elided */
const volatile __u32 pdt_kstacks_mask = PDT_KSTACKS - 1; /* the table's size - 1 */
