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

/*
 * Is the BPF LSM among the active LSMs? lsm_list_modules() (6.8+) says, with no
 * securityfs needed; else securityfs's list, when it is mounted. Compiled in but not
 * active, its hooks are never called: a mark there would never be made.
 */
#define PDT_NR_LSM_LIST_MODULES 461 /* one number on every architecture */
#define PDT_LSM_ID_BPF 109	    /* include/uapi/linux/lsm.h */

static bool bpf_lsm_active(void)
{
	unsigned long long ids[32];
	__u32 size = sizeof(ids);
	char buf[512], *tok, *save;
	long n, i;
	FILE *fp;

	n = syscall(PDT_NR_LSM_LIST_MODULES, ids, &size, 0);
	if (n >= 0) {
		for (i = 0; i < n && i < 32; i++)
			if (ids[i] == PDT_LSM_ID_BPF)
				return true;
		return false;
	}
	fp = fopen("/sys/kernel/security/lsm", "r");
	if (!fp)
		return false;
	n = fgets(buf, sizeof(buf), fp) != NULL;
	fclose(fp);
	for (tok = n ? strtok_r(buf, ",\n", &save) : NULL; tok; tok = strtok_r(NULL, ",\n", &save))
		if (!strcmp(tok, "bpf"))
			return true;
	return false;
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
 * A hook of a module (h->module) that vmlinux BTF lacks: is it in the module's BTF? The
 * same code is a module on one kernel (configfs on Debian's) and built in on another.
 */
static enum pdt_func_state find_in_module(struct btf *vmlinux, const struct pdt_hook *h)
{
	enum pdt_func_state st = PDT_FUNC_ABSENT;
	struct btf *btf = btf__load_module_btf(h->module, vmlinux);

	if (!btf)
		return PDT_FUNC_NO_MODULE;
	if (btf__find_by_name_kind(btf, h->func, BTF_KIND_FUNC) >= 0)
		st = PDT_FUNC_PRESENT;
	btf__free(btf);
	return st;
}

/* A name the one pass over vmlinux BTF looks for: hook i's, or (i = -1) the BPF LSM's. */
struct wanted {
	char name[64];
	int kind; /* BTF_KIND_FUNC, or BTF_KIND_TYPEDEF for a tracepoint */
	int hook; /* its pdt_hooks index; -1: the BPF LSM's, -2: the stack cache's */
	bool found;
};

static int wanted_cmp(const void *a, const void *b)
{
	return strcmp(((const struct wanted *)a)->name, ((const struct wanted *)b)->name);
}

/* bsearch()'s key is the name itself: no copy per type. */
static int name_cmp(const void *name, const void *w)
{
	return strcmp(name, ((const struct wanted *)w)->name);
}

/*
 * Every hook's function (or tracepoint typedef) in vmlinux BTF, in one pass over its
 * types: a lookup by name scans them all, and two dozen such scans took longer than
 * loading the BTF itself under emulation. A hook in a module not found there is looked
 * for in its module's BTF. Returns whether the BPF LSM's inode_create hook is there.
 */
static bool find_funcs(struct btf *btf, struct pdt_facts *f)
{
	struct wanted w[PDT_MAX_HOOKS + 3], *hit;
	__u32 id, ntypes = btf__type_cnt(btf);
	size_t i, n = 0;
	bool lsm = false;

	for (i = 0; i < pdt_nhooks && i < PDT_MAX_HOOKS; i++, n++) {
		snprintf(w[n].name, sizeof(w[n].name), "%s%s",
			 pdt_hooks[i].tracepoint ? "btf_trace_" : "", pdt_hooks[i].func);
		w[n].kind = pdt_hooks[i].tracepoint ? BTF_KIND_TYPEDEF : BTF_KIND_FUNC;
		w[n].hook = (int)i;
		w[n].found = false;
	}
	w[n++] =
	    (struct wanted){ .name = "bpf_lsm_inode_create", .kind = BTF_KIND_FUNC, .hook = -1 };
	/* The stack cache's learning (bpf/track/stack_cache.bpf.c), x86-64's ORC unwinder. */
	w[n++] = (struct wanted){ .name = "__orc_find", .kind = BTF_KIND_FUNC, .hook = -2 };
	w[n++] = (struct wanted){ .name = "execmem_free", .kind = BTF_KIND_FUNC, .hook = -2 };
	qsort(w, n, sizeof(w[0]), wanted_cmp);
	for (id = 1; id < ntypes; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		int kind = btf_kind(t);

		if (kind != BTF_KIND_FUNC && kind != BTF_KIND_TYPEDEF)
			continue;
		hit = bsearch(btf__name_by_offset(btf, t->name_off), w, n, sizeof(w[0]), name_cmp);
		if (hit && hit->kind == kind)
			hit->found = true;
	}
	f->orc_hooks = true;
	for (i = 0; i < n; i++) {
		if (w[i].hook == -2)
			f->orc_hooks &= w[i].found;
		else if (w[i].hook < 0)
			lsm = w[i].found;
		else if (w[i].found)
			f->funcs[w[i].hook] = PDT_FUNC_PRESENT;
		else if (pdt_hooks[w[i].hook].module)
			f->funcs[w[i].hook] = find_in_module(btf, &pdt_hooks[w[i].hook]);
	}
	return lsm;
}

void pdt_gather_facts(struct pdt_facts *f)
{
	struct utsname u;
	struct btf *btf;

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
	f->bpf_lsm = find_funcs(btf, f) && bpf_lsm_active();
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
