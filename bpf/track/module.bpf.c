// SPDX-License-Identifier: GPL-2.0
/*
 * Modules: where each one's code is while it is loaded, and when it goes. User space
 * names the module that made an entry from the first frame of the creation stack in
 * a module's text, and reports what is still persistent when that module is freed.
 * It must name it from the modules as they were when the entry was made: a module's
 * init text is freed when its init returns and the next module loaded may take that
 * memory, and an unloaded module's text may go to the next one. So the elided entries
 * whose stacks leave the core kernel are sent before every load and every free: no
 * module event ever comes between an entry's making and its PERSIST.
 */
#include "common.bpf.h"
#include "event.bpf.h"
#include "elide.bpf.h"

/* mod->mem[type]: the array is indexed by an enum that BTF relocates. */
static __always_inline void mem_range(struct module *mod, u32 type, u64 *base, u32 *size)
{
	struct module_memory *m;

	m = (void *)mod + bpf_core_field_offset(struct module, mem) +
	    type * bpf_core_type_size(struct module_memory);
	*base = (u64)BPF_CORE_READ(m, base);
	*size = BPF_CORE_READ(m, size);
}

static __always_inline void emit_module(struct module *mod, u16 type)
{
	struct pdt_module_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		bump(PDT_TC_LOST_EVENTS);
		return;
	}
	__builtin_memset(&e->h, 0, sizeof(e->h));
	e->h.type = type;
	e->h.size = sizeof(*e);
	e->h.ts_ns = bpf_ktime_get_ns();
	task_ids(&e->h.pid, e->h.comm);
	e->module = (u64)mod;
	mem_range(mod, bpf_core_enum_value(enum mod_mem_type, MOD_TEXT), &e->text, &e->text_size);
	e->init_text = 0;
	e->init_size = 0;
	if (type == PDT_EV_MODULE_LOAD)
		mem_range(mod, bpf_core_enum_value(enum mod_mem_type, MOD_INIT_TEXT), &e->init_text,
			  &e->init_size);
	bpf_probe_read_kernel_str(e->name, sizeof(e->name), mod->name);
	/* Rare, and the reader should know the ranges before the entries they make. */
	bpf_ringbuf_submit(e, BPF_RB_FORCE_WAKEUP);
}

/* load_module(), just before do_init_module(): its init has not run yet. */
SEC("tp_btf/module_load")
int BPF_PROG(module_load, struct module *mod)
{
	/* Entries made while the ranges this one may take were another's. */
	elided_sweep_modular();
	emit_module(mod, PDT_EV_MODULE_LOAD);
	return 0;
}

/* free_module(), first thing: its exit ran (or its init failed), its text is still there. */
SEC("tp_btf/module_free")
int BPF_PROG(module_free, struct module *mod)
{
	elided_sweep_modular(); /* their PERSISTs first: the rules name the module from them */
	emit_module(mod, PDT_EV_MODULE_FREE);
	return 0;
}
