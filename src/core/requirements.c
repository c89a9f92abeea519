// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "hooks.h"
#include "requirements.h"

const char *pdt_status_str(enum pdt_status s)
{
	switch (s) {
	case PDT_ST_OK:
		return "ok";
	case PDT_ST_MISSING:
		return "MISSING";
	case PDT_ST_FAIL:
		return "FAIL";
	case PDT_ST_ABSENT:
		return "absent";
	case PDT_ST_SKIPPED:
		return "skipped";
	}
	return "?";
}

static struct pdt_row *add_row(struct pdt_verdict *v, const char *what, enum pdt_status st,
			       bool required, const char *fmt, ...)
{
	struct pdt_row *r;
	va_list ap;

	if (v->nrows >= PDT_MAX_ROWS)
		return NULL;
	r = &v->rows[v->nrows++];
	snprintf(r->what, sizeof(r->what), "%s", what);
	r->status = st;
	r->required = required;
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
	if (required && st != PDT_ST_OK)
		v->can_trace = false;
	return r;
}

static void add_problem(struct pdt_verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nproblems >= PDT_MAX_PROBLEMS)
		return;
	va_start(ap, fmt);
	vsnprintf(v->problems[v->nproblems++], sizeof(v->problems[0]), fmt, ap);
	va_end(ap);
}

static const char *errno_name(int err)
{
	switch (err) {
	case 1:
		return "EPERM";
	case 2:
		return "ENOENT";
	case 3:
		return "ESRCH";
	case 13:
		return "EACCES";
	case 22:
		return "EINVAL";
	case 71:
		return "EPROTO";
	case 95:
		return "EOPNOTSUPP";
	case 524:
		return "ENOTSUPP";
	}
	return "error";
}

static void eval_btf(const struct pdt_facts *f, struct pdt_verdict *v)
{
	if (f->btf_err == -EPROTO) {
		/* Read, but a layout or a kind newer than this pdtrace: no answer is sure. */
		add_row(v, "kernel BTF", PDT_ST_FAIL, true,
			"/sys/kernel/btf/vmlinux is BTF this pdtrace cannot walk (EPROTO)");
		add_problem(
		    v, "cannot read the kernel's BTF (/sys/kernel/btf/vmlinux: EPROTO): a "
		       "BTF kind or layout newer than this pdtrace; a newer pdtrace is needed");
	} else if (f->btf_err) {
		add_row(v, "kernel BTF", PDT_ST_MISSING, true,
			"no /sys/kernel/btf/vmlinux (%s): CONFIG_DEBUG_INFO_BTF is needed",
			errno_name(-f->btf_err));
		add_problem(v,
			    "no kernel BTF (/sys/kernel/btf/vmlinux: %s): a kernel built without "
			    "CONFIG_DEBUG_INFO_BTF, or no sysfs mounted here",
			    errno_name(-f->btf_err));
	} else
		add_row(v, "kernel BTF", PDT_ST_OK, true, "/sys/kernel/btf/vmlinux");
}

/* Required hooks and the flag: gather the missing API names into one problem line. */
static void eval_api(const struct pdt_facts *f, struct pdt_verdict *v)
{
	char missing[160] = "";
	size_t i;

	for (i = 0; i < pdt_nhooks && i < PDT_MAX_HOOKS; i++) {
		const struct pdt_hook *h = &pdt_hooks[i];
		char what[48];

		if (!h->required)
			continue;
		snprintf(what, sizeof(what), "%s()", h->func);
		if (f->btf_err) {
			add_row(v, what, PDT_ST_SKIPPED, true, "needs kernel BTF");
		} else if (f->funcs[i] == PDT_FUNC_PRESENT) {
			add_row(v, what, PDT_ST_OK, true, "BTF function");
		} else {
			add_row(v, what, PDT_ST_MISSING, true, "no BTF function %s", h->func);
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
				 "%s%s()", missing[0] ? ", " : "", h->func);
		}
	}
	if (f->btf_err)
		add_row(v, "DCACHE_PERSISTENT", PDT_ST_SKIPPED, true, "needs kernel BTF");
	else if (f->persistent_flag)
		add_row(v, "DCACHE_PERSISTENT", PDT_ST_OK, true, "enum dentry_flags = 0x%llx",
			f->persistent_value);
	else {
		add_row(v, "DCACHE_PERSISTENT", PDT_ST_MISSING, true,
			"enum dentry_flags has no DCACHE_PERSISTENT");
		snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), "%s%s",
			 missing[0] ? ", " : "", "DCACHE_PERSISTENT");
	}
	if (missing[0])
		add_problem(v,
			    "kernel %s lacks the persistent-dentry API (missing from its BTF: %s): "
			    "pdtrace needs a kernel that has it, such as Debian's 7.2 (pdtrace's "
			    "'make demo' boots one in a VM)",
			    f->release, missing);
}

static void eval_optional(const struct pdt_facts *f, struct pdt_verdict *v)
{
	size_t i;

	for (i = 0; i < pdt_nhooks && i < PDT_MAX_HOOKS; i++) {
		const struct pdt_hook *h = &pdt_hooks[i];
		char what[48], label[40];

		if (h->required)
			continue;
		snprintf(what, sizeof(what), "hook %s", pdt_hook_label(h, label, sizeof(label)));
		if (f->btf_err)
			add_row(v, what, PDT_ST_SKIPPED, false, "needs kernel BTF");
		else if (f->funcs[i] == PDT_FUNC_PRESENT)
			add_row(v, what, PDT_ST_OK, false, "optional");
		else if (f->funcs[i] == PDT_FUNC_NO_MODULE)
			add_row(v, what, PDT_ST_ABSENT, false, "module %s not loaded; lost: %s",
				h->module, h->lost);
		else
			add_row(v, what, PDT_ST_ABSENT, false, "lost: %s", h->lost);
	}
}

static void eval_privileges(const struct pdt_facts *f, struct pdt_verdict *v)
{
	if (f->cap_sys_admin || (f->cap_bpf && f->cap_perfmon)) {
		add_row(v, "privileges", PDT_ST_OK, true, "%s",
			f->cap_bpf && f->cap_perfmon ? "CAP_BPF and CAP_PERFMON" : "CAP_SYS_ADMIN");
		return;
	}
	add_row(v, "privileges", PDT_ST_MISSING, true, "need CAP_BPF and CAP_PERFMON (or root)");
	add_problem(v, "insufficient privileges: run as root or with CAP_BPF and CAP_PERFMON");
}

static void eval_attach(const struct pdt_facts *f, struct pdt_verdict *v)
{
	const char *lock = f->lockdown[0] ? f->lockdown : "not reported";

	/*
	 * Doctor tries the attach whenever everything above passed; the commands do not
	 * (they attach for real and say why not): an attach not tried decides nothing.
	 */
	if (!f->attach_tried) {
		add_row(v, "fentry attach", PDT_ST_SKIPPED, false,
			"not tried: a requirement above failed");
		return;
	}
	if (!f->attach_err) {
		add_row(v, "fentry attach", PDT_ST_OK, true, "loaded and attached (lockdown: %s)",
			lock);
		return;
	}
	add_row(v, "fentry attach", PDT_ST_FAIL, true, "%s on %s() (lockdown: %s)",
		errno_name(-f->attach_err), f->attach_prog, lock);
	if (f->attach_err == -1 || f->attach_err == -13)
		add_problem(
		    v,
		    "attaching fentry programs is not permitted here (%s on %s(); lockdown: %s): "
		    "the kernel, its lockdown or an LSM forbids tracing",
		    errno_name(-f->attach_err), f->attach_prog, lock);
	else
		add_problem(v, "cannot attach an fentry program to %s(): %s (%d)", f->attach_prog,
			    errno_name(-f->attach_err), -f->attach_err);
}

void pdt_evaluate(const struct pdt_facts *f, struct pdt_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->can_trace = true;
	eval_btf(f, v);
	eval_api(f, v);
	eval_privileges(f, v);
	eval_attach(f, v);
	eval_optional(f, v);
	if (!v->can_trace && !v->nproblems)
		add_problem(v, "a required check failed");
}
