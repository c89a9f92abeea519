// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/capability.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "hooks.h"
#include "kernel_facts.h"
#include "probe.skel.h"

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38
#define CAP_BPF_BIT 39

/* The effective set from capget(2): no /proc needed (a chroot, an early boot). */
static void read_caps(struct pdt_facts *f)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	unsigned long long eff;

	if (syscall(SYS_capget, &hdr, data))
		return;
	eff = (unsigned long long)data[1].effective << 32 | data[0].effective;
	f->cap_sys_admin = eff >> CAP_SYS_ADMIN_BIT & 1;
	f->cap_perfmon = eff >> CAP_PERFMON_BIT & 1;
	f->cap_bpf = eff >> CAP_BPF_BIT & 1;
}

/* /sys/kernel/security/lockdown reads like "none [integrity] confidentiality". */
static void read_lockdown(struct pdt_facts *f)
{
	char buf[128], *open, *close;
	FILE *fp = fopen("/sys/kernel/security/lockdown", "r");

	if (!fp)
		return;
	if (fgets(buf, sizeof(buf), fp) && (open = strchr(buf, '[')) &&
	    (close = strchr(open, ']'))) {
		*close = '\0';
		snprintf(f->lockdown, sizeof(f->lockdown), "%s", open + 1);
	}
	fclose(fp);
}

static bool enum_has(const struct btf *btf, const char *type, const char *name, long long *val)
{
	int id = btf__find_by_name(btf, type);
	const struct btf_type *t;
	int i;

	if (id < 0)
		return false;
	t = btf__type_by_id(btf, id);
	if (btf_is_enum(t)) {
		const struct btf_enum *e = btf_enum(t);

		for (i = 0; i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name)) {
				*val = e[i].val;
				return true;
			}
	} else if (btf_is_enum64(t)) {
		const struct btf_enum64 *e = btf_enum64(t);

		for (i = 0; i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name)) {
				*val = (long long)btf_enum64_value(&e[i]);
				return true;
			}
	}
	return false;
}

/*
 * A hook's function in the kernel's BTF, or in its module's when it is one: the same
 * code is a module on one kernel (configfs on Debian's) and built in on another.
 */
enum pdt_func_state pdt_find_func(struct btf *vmlinux, const struct pdt_hook *h)
{
	enum pdt_func_state st = PDT_FUNC_ABSENT;
	struct btf *btf;

	if (h->tracepoint) {
		char name[128];

		/* What tp_btf attaches to: the tracepoint's typedef in vmlinux BTF. */
		snprintf(name, sizeof(name), "btf_trace_%s", h->func);
		return btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) >= 0
			   ? PDT_FUNC_PRESENT
			   : PDT_FUNC_ABSENT;
	}
	if (btf__find_by_name_kind(vmlinux, h->func, BTF_KIND_FUNC) >= 0)
		return PDT_FUNC_PRESENT;
	if (!h->module)
		return PDT_FUNC_ABSENT;
	btf = btf__load_module_btf(h->module, vmlinux);
	if (!btf)
		return PDT_FUNC_NO_MODULE;
	if (btf__find_by_name_kind(btf, h->func, BTF_KIND_FUNC) >= 0)
		st = PDT_FUNC_PRESENT;
	btf__free(btf);
	return st;
}

void pdt_gather_facts(struct pdt_facts *f)
{
	struct utsname u;
	struct btf *btf;
	size_t i;

	memset(f, 0, sizeof(*f));
	if (!uname(&u))
		snprintf(f->release, sizeof(f->release), "%s", u.release);
	read_caps(f);
	read_lockdown(f);
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		f->btf_err = -errno;
		return;
	}
	for (i = 0; i < pdt_nhooks && i < PDT_MAX_HOOKS; i++)
		f->funcs[i] = pdt_find_func(btf, &pdt_hooks[i]);
	f->persistent_flag =
	    enum_has(btf, "dentry_flags", "DCACHE_PERSISTENT", &f->persistent_value);
	btf__free(btf);
}

static bool hook_present(const struct pdt_facts *f, const char *func)
{
	size_t i;

	for (i = 0; i < pdt_nhooks && i < PDT_MAX_HOOKS; i++)
		if (!strcmp(pdt_hooks[i].func, func))
			return f->funcs[i] == PDT_FUNC_PRESENT;
	return false;
}

void pdt_try_attach(struct pdt_facts *f)
{
	struct probe_bpf *skel = probe_bpf__open();
	struct bpf_link *links[8];
	struct bpf_program *prog;
	int err, nlinks = 0;

	f->attach_tried = true;
	if (!skel) {
		f->attach_err = -errno;
		snprintf(f->attach_prog, sizeof(f->attach_prog), "(open)");
		return;
	}
	/* Try the hooks this kernel has; the missing ones are reported elsewhere. */
	bpf_object__for_each_program(prog, skel->obj) {
		const char *func = strchr(bpf_program__section_name(prog), '/') + 1;

		bpf_program__set_autoload(prog, hook_present(f, func));
	}
	err = probe_bpf__load(skel);
	bpf_object__for_each_program(prog, skel->obj) {
		const char *func = strchr(bpf_program__section_name(prog), '/') + 1;

		if (!bpf_program__autoload(prog))
			continue;
		snprintf(f->attach_prog, sizeof(f->attach_prog), "%s", func);
		if (err)
			break; /* the load failed as a whole: blame the first program */
		if (nlinks == (int)(sizeof(links) / sizeof(links[0])))
			break;
		links[nlinks] = bpf_program__attach(prog);
		if (!links[nlinks]) {
			err = -errno;
			break;
		}
		nlinks++;
	}
	f->attach_err = err;
	while (nlinks--)
		bpf_link__destroy(links[nlinks]);
	probe_bpf__destroy(skel);
}
