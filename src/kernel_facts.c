// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/btf.h>
#include <bpf/libbpf.h>
#include "btf_scan.h"
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

/*
 * A hook of a module (h->module) that vmlinux BTF lacks: is it in the module's BTF? The
 * same code is a module on one kernel (configfs on Debian's) and built in on another.
 */
static enum pdt_func_state find_in_module(const struct btf_scan *vmlinux, const struct pdt_hook *h)
{
	struct btf_want w = { .name = h->func, .kind = BTF_KIND_FUNC };
	char path[96];
	struct btf_scan *btf;
	int err;

	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", h->module);
	btf = btf_scan_open(path, vmlinux, &err);
	if (!btf)
		return PDT_FUNC_NO_MODULE;
	err = btf_scan_find(btf, &w, 1);
	btf_scan_free(btf);
	return !err && w.found ? PDT_FUNC_PRESENT : PDT_FUNC_ABSENT;
}

/* What the one pass over vmlinux BTF looks for, beyond each hook's function. */
enum { W_LSM, W_PERSISTENT, W_EXTRA };

/*
 * Every hook's function (or tracepoint typedef), the BPF LSM's inode_create hook and
 * the DCACHE_PERSISTENT flag, in one pass over vmlinux BTF. A hook in a module not found
 * there is looked for in its module's BTF. Returns 0 or -errno.
 */
static int find_names(const struct btf_scan *btf, struct pdt_facts *f)
{
	char names[PDT_MAX_HOOKS][64];
	struct btf_want w[PDT_MAX_HOOKS + W_EXTRA] = {
		[W_LSM] = { .name = "bpf_lsm_inode_create", .kind = BTF_KIND_FUNC },
		[W_PERSISTENT] = { .name = "dentry_flags",
				   .kind = BTF_KIND_ENUM,
				   .member = "DCACHE_PERSISTENT" },
	};
	size_t i, n = pdt_nhooks < PDT_MAX_HOOKS ? pdt_nhooks : PDT_MAX_HOOKS;
	int err;

	for (i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "%s%s",
			 pdt_hooks[i].tracepoint ? "btf_trace_" : "", pdt_hooks[i].func);
		w[W_EXTRA + i].name = names[i];
		w[W_EXTRA + i].kind = pdt_hooks[i].tracepoint ? BTF_KIND_TYPEDEF : BTF_KIND_FUNC;
	}
	err = btf_scan_find(btf, w, W_EXTRA + n);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		if (w[W_EXTRA + i].found)
			f->funcs[i] = PDT_FUNC_PRESENT;
		else if (pdt_hooks[i].module)
			f->funcs[i] = find_in_module(btf, &pdt_hooks[i]);
	f->bpf_lsm = w[W_LSM].found && bpf_lsm_active();
	f->persistent_flag = w[W_PERSISTENT].found;
	f->persistent_value = w[W_PERSISTENT].value;
	return 0;
}

void pdt_gather_facts(struct pdt_facts *f)
{
	struct utsname u;
	struct btf_scan *btf;

	memset(f, 0, sizeof(*f));
	if (!uname(&u))
		snprintf(f->release, sizeof(f->release), "%s", u.release);
	read_caps(f);
	read_lockdown(f);
	btf = btf_scan_open("/sys/kernel/btf/vmlinux", NULL, &f->btf_err);
	if (btf)
		f->btf_err = find_names(btf, f);
	btf_scan_free(btf);
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
