// SPDX-License-Identifier: GPL-2.0
/*
 * The definitions of the maps and globals that maps.bpf.h, elide.bpf.h and kstack.bpf.h
 * declare, and the license: linked first (Makefile), as libbpf's linker places a map
 * where its definition comes. Each map takes the type of its declaration.
 */
#include "common.bpf.h"
#include "elide.bpf.h"
#include "kstack.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__typeof__(events) events SEC(".maps");
__typeof__(sbs) sbs SEC(".maps");
__typeof__(tasks) tasks SEC(".maps");
__typeof__(scratch) scratch SEC(".maps");
__typeof__(sb_seen) sb_seen SEC(".maps");
__typeof__(addr_tmp) addr_tmp SEC(".maps");
__typeof__(elided) elided SEC(".maps");
__typeof__(kstacks) kstacks SEC(".maps");
__typeof__(kscratch) kscratch SEC(".maps");

__u64 pdt_counters[PDT_TC_MAX];
struct pdt_sb_slot pdt_slots[PDT_SB_SLOTS]; /* elided counts (see pdtrace.h), read the same way */
__u32 pdt_nslots;			    /* slots handed out for the first time */
__u32 pdt_free_slots[PDT_SB_SLOTS];
__u32 pdt_free_head;
__u32 pdt_free_tail;
__u32 pdt_spare_slot = 0xffffffffu;	       /* PDT_NO_SLOT */
struct pdt_hook_ip pdt_hook_ips[PDT_HOOK_IPS]; /* see pdtrace.h */
__u32 pdt_nhook_ips;			       /* set last, once the table is whole */
__u32 pdt_brackets_live; /* user space sets it once the brackets' link is final */
__u64 pdt_sb_gen;
__u64 pdt_anchor;	   /* its own address as a number, once a program has taken it */
__u64 pdt_core_text[2];	   /* _stext, _etext (user space resolves them; 0: unknown) */
__u32 pdt_kelided_modular; /* an entry of a marked stack may be elided */

/* Set by user space before load. */
const volatile bool pdt_user_stacks = false;
const volatile __u64 pdt_ring_size = 8 << 20; /* the ring buffer's size */
const volatile bool pdt_elide = true;
const volatile __u32 pdt_elide_bits = PDT_ELIDE_BITS;
const volatile __u32 pdt_kstacks_mask = PDT_KSTACKS - 1; /* the table's size - 1 */
