// SPDX-License-Identifier: GPL-2.0
/* `pdtrace doctor`: can pdtrace trace on this kernel, with these privileges? */
#include <stdbool.h>
#include <stdio.h>
#include "cli.h"
#include "commands.h"
#include "exit_codes.h"
#include "kernel_facts.h"
#include "requirements.h"

static error_t parse_doctor(int key, char *arg, struct argp_state *state)
{
	(void)state;
	if (key == ARGP_KEY_ARG)
		pdt_unexpected_arg("doctor", arg);
	return ARGP_ERR_UNKNOWN;
}

static const struct argp doctor_argp = {
	NULL,
	parse_doctor,
	NULL,
	"Check that the running kernel and these privileges let pdtrace trace.\v"
	"Prints one line per requirement and exits 0 only if tracing can work, 2 otherwise.",
	NULL,
	NULL,
	NULL,
};

static void print_verdict(const struct pdt_facts *f, const struct pdt_verdict *v)
{
	int i;

	printf("pdtrace doctor: Linux %s\n", f->release);
	printf("%-32s %-8s %s\n", "REQUIREMENT", "STATUS", "DETAIL");
	for (i = 0; i < v->nrows; i++)
		printf("%-32s %-8s %s\n", v->rows[i].what, pdt_status_str(v->rows[i].status),
		       v->rows[i].detail);
	for (i = 0; i < v->nproblems; i++)
		printf("problem: %s\n", v->problems[i]);
	printf("verdict: %s\n", v->can_trace ? "pdtrace can trace on this kernel"
					     : "pdtrace cannot trace on this kernel");
}

/* Attaching needs the privileges and at least the BTF; skip it when those already failed. */
static bool attach_worth_trying(const struct pdt_facts *f)
{
	return !f->btf_err && (f->cap_sys_admin || (f->cap_bpf && f->cap_perfmon));
}

int cmd_doctor(int argc, char **argv)
{
	struct pdt_verdict v;
	struct pdt_facts f;

	pdt_parse_args(&doctor_argp, "doctor", argc, argv, NULL);
	pdt_gather_facts(&f);
	if (attach_worth_trying(&f))
		pdt_try_attach(&f);
	pdt_evaluate(&f, &v);
	print_verdict(&f, &v);
	return v.can_trace ? PDT_EXIT_OK : PDT_EXIT_ERROR;
}
