/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `pdtrace doctor` decides from the facts it gathered about the running
 * kernel. Pure C: no libbpf, so the host unit tests drive it with made-up facts.
 */
#ifndef PDT_REQUIREMENTS_H
#define PDT_REQUIREMENTS_H

#include <stdbool.h>
#include <stddef.h>

#define PDT_MAX_HOOKS 32
#define PDT_MAX_ROWS 48
#define PDT_MAX_PROBLEMS 8

enum pdt_func_state {
	PDT_FUNC_ABSENT,    /* not in BTF */
	PDT_FUNC_PRESENT,   /* a BTF function */
	PDT_FUNC_NO_MODULE, /* its module is not loaded, so its BTF is not there */
};

struct pdt_facts {
	char release[65];
	int btf_err;				  /* 0: vmlinux BTF loaded, else -errno */
	enum pdt_func_state funcs[PDT_MAX_HOOKS]; /* indexed like pdt_hooks[] */
	bool persistent_flag;			  /* enum dentry_flags has DCACHE_PERSISTENT */
	long long persistent_value;
	bool cap_bpf, cap_perfmon, cap_sys_admin;
	char lockdown[32]; /* active lockdown mode, "" if unknown */
	bool bpf_lsm;	   /* the BPF LSM is active and has its inode hooks */
	bool attach_tried;
	int attach_err;	      /* 0 or -errno of the attach test */
	char attach_prog[48]; /* the hook whose program failed */
};

enum pdt_status { PDT_ST_OK, PDT_ST_MISSING, PDT_ST_FAIL, PDT_ST_ABSENT, PDT_ST_SKIPPED };

struct pdt_row {
	char what[48];
	enum pdt_status status;
	bool required;
	char detail[200];
};

struct pdt_verdict {
	struct pdt_row rows[PDT_MAX_ROWS];
	int nrows;
	char problems[PDT_MAX_PROBLEMS][320]; /* one line each: why tracing cannot work */
	int nproblems;
	bool can_trace;
};

void pdt_evaluate(const struct pdt_facts *f, struct pdt_verdict *v);
const char *pdt_status_str(enum pdt_status s);

#endif
