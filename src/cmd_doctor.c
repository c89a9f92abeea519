// SPDX-License-Identifier: GPL-2.0
/* `pdtrace doctor`: can pdtrace trace on this kernel, with these privileges? */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>
#include "cli.h"
#include "commands.h"
#include "exit_codes.h"
#include "json.h"
#include "kconfig.h"
#include "kernel_facts.h"
#include "log.h"
#include "requirements.h"

static const char doctor_name[] = "doctor";

enum { OPT_CONFIG = 0x300 };

static const struct argp_option doctor_options[] = {
	{ "config", OPT_CONFIG, "FILE", 0,
	  "Check a kernel configuration (.config, or gzip'd like /proc/config.gz) instead of the "
	  "running kernel: one line per option pdtrace needs, before anyone boots",
	  0 },
	{ "format", 'f', "FORMAT", 0, "text (default) or json", 0 },
	{ "json", 'j', NULL, 0, "Same as -f json", 0 },
	{ "pretty", 'p', NULL, 0, "JSON, indented for people to read", 0 },
	{},
};

struct doctor_args {
	const char *config;
	enum pdt_format format;
};

/* -f json: one object, written as the text's lines would be (NULL: text). */
static struct pdt_json *js;

static error_t parse_doctor(int key, char *arg, struct argp_state *state)
{
	struct doctor_args *a = state->input;

	switch (key) {
	case OPT_CONFIG:
		a->config = arg;
		return 0;
	case 'f':
		pdt_parse_text_json(doctor_name, arg, &a->format);
		return 0;
	case 'j':
	case 'p':
		pdt_format_json(&a->format, key == 'p');
		return 0;
	case ARGP_KEY_ARG:
		pdt_unexpected_arg(doctor_name, arg);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp doctor_argp = {
	doctor_options,
	parse_doctor,
	NULL,
	"Check that the running kernel and these privileges let pdtrace trace; with --config, "
	"that a kernel configuration would.\v"
	"Prints one line per requirement and exits 0 only if tracing can work, 2 otherwise. "
	"Without --config it also reads the running kernel's configuration when there is one "
	"(/proc/config.gz, /boot/config-RELEASE) and names the options it lacks.",
	NULL,
	NULL,
	NULL,
};

/* A configuration's text, plain or gzip'd (zlib reads both); NULL with errno set. */
static char *read_config(const char *path)
{
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap);
	gzFile gz = gzopen(path, "rb");
	int n;

	if (!gz || !text) {
		free(text);
		if (gz)
			gzclose(gz);
		return NULL;
	}
	while ((n = gzread(gz, text + len, (unsigned int)(cap - len - 1))) > 0) {
		len += (size_t)n;
		if (cap - len < 2 && cap < (64u << 20)) {
			char *more = realloc(text, cap * 2);

			if (!more)
				break;
			text = more;
			cap *= 2;
		}
		if (cap - len < 2)
			break;
	}
	/* A gzip stream cut short reads as far as it goes, then Z_BUF_ERROR: refuse it. */
	if (n >= 0)
		gzerror(gz, &n);
	gzclose(gz);
	if (n < 0 || n == Z_BUF_ERROR) {
		free(text);
		errno = n == Z_BUF_ERROR ? ENODATA : EIO;
		return NULL;
	}
	text[len] = '\0';
	return text;
}

/* The kernels pdtrace is checked on: Debian's 7.2 (docs/kernel.md). */
#define CHECKED_MAJOR 7
#define CHECKED_MINOR 2

/* Whether release ("6.18.0-rc1") is older than the kernels pdtrace is checked on. */
static bool before_checked(const char *release, size_t len)
{
	char buf[32];
	unsigned int major, minor;

	snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) ? len : sizeof(buf) - 1),
		 release);
	if (sscanf(buf, "%u.%u", &major, &minor) != 2)
		return false;
	return major < CHECKED_MAJOR || (major == CHECKED_MAJOR && minor < CHECKED_MINOR);
}

/* One line per option; returns how many required ones are missing. */
static int print_config(const char *text, bool only_missing)
{
	int missing = 0;
	size_t i;

	if (js) {
		pdt_json_name(js, "options");
		pdt_json_arr_open(js);
	} else if (!only_missing) {
		printf("%-42s %-8s %s\n", "OPTION", "STATUS", "WITHOUT IT");
	}
	for (i = 0; i < pdt_kconfig_nneeds; i++) {
		const struct pdt_kconfig_need *k = &pdt_kconfig_needs[i];
		size_t len = 0;
		const char *v = pdt_kconfig_value(text, k->option, &len);
		bool on = pdt_kconfig_enabled(text, k->option);

		if (!on && k->required)
			missing++;
		if (on && only_missing)
			continue;
		if (js) {
			char val[64];

			snprintf(val, sizeof(val), "%.*s", (int)len, v ? v : "");
			pdt_json_obj_open(js);
			pdt_json_kv_str(js, "option", k->option);
			pdt_json_kv_str(js, "status",
					on	      ? "ok"
					: k->required ? "missing"
						      : "absent");
			pdt_json_kv_str(js, "value", on ? val : NULL);
			pdt_json_kv_str(js, "without_it", on ? NULL : k->cost);
			pdt_json_obj_close(js);
		} else if (on)
			printf("%-42s %.*s\n", k->option, (int)len, v);
		else
			printf("%-42s %-8s %s\n", k->option, k->required ? "MISSING" : "absent",
			       k->cost);
	}
	if (js)
		pdt_json_arr_close(js);
	return missing;
}

/*
 * The problem lines (n of them, each size bytes apart from problems), the verdict, and
 * in JSON whether tracing can work; the object ends there.
 */
static void print_end(const char *problems, size_t size, int n, const char *verdict, bool can_trace)
{
	int i;

	if (js) {
		pdt_json_name(js, "problems");
		pdt_json_arr_open(js);
	}
	for (i = 0; i < n; i++) {
		if (js)
			pdt_json_string(js, problems + i * size);
		else
			printf("problem: %s\n", problems + i * size);
	}
	if (!js) {
		printf("verdict: %s\n", verdict);
		return;
	}
	pdt_json_arr_close(js);
	pdt_json_kv_str(js, "verdict", verdict);
	pdt_json_kv_bool(js, "can_trace", can_trace);
	pdt_json_obj_close(js);
	putchar('\n');
}

static int check_config(const char *path)
{
	char *text = read_config(path);
	char problems[2][400], rel[64];
	const char *release;
	size_t rlen = 0;
	bool old;
	int missing, n = 0;

	if (!text && errno == ENODATA)
		pdt_die(PDT_EXIT_ERROR, "%s: '%s' is truncated (its gzip stream ends early)",
			doctor_name, path);
	if (!text)
		pdt_die(PDT_EXIT_ERROR, "%s: cannot read '%s': %s", doctor_name, path,
			strerror(errno));
	if (strncmp(text, "CONFIG_", 7) && !strstr(text, "\nCONFIG_")) {
		free(text);
		pdt_die(PDT_EXIT_ERROR, "%s: '%s' is not a kernel configuration (no CONFIG_ line)",
			doctor_name, path);
	}
	release = pdt_kconfig_release(text, &rlen);
	snprintf(rel, sizeof(rel), "%.*s", (int)(rlen < sizeof(rel) ? rlen : sizeof(rel) - 1),
		 release ? release : "");
	if (js) {
		pdt_json_obj_open(js);
		pdt_json_kv_str(js, "config", path);
		pdt_json_kv_str(js, "release", release ? rel : NULL);
	} else if (release) {
		printf("pdtrace doctor: kernel configuration %s (Linux %s)\n", path, rel);
	} else {
		printf("pdtrace doctor: kernel configuration %s\n", path);
	}
	missing = print_config(text, false);
	old = release && before_checked(release, rlen);
	free(text);
	if (missing)
		snprintf(problems[n++], sizeof(problems[0]),
			 "%d required option%s missing: pdtrace cannot trace on this kernel",
			 missing, missing == 1 ? "" : "s");
	if (old)
		snprintf(problems[n++], sizeof(problems[0]),
			 "Linux %s is older than the kernels pdtrace is checked on (%d.%d): a "
			 "configuration cannot show whether it has the persistent-dentry API; run "
			 "'pdtrace doctor' on it",
			 rel, CHECKED_MAJOR, CHECKED_MINOR);
	print_end((const char *)problems, sizeof(problems[0]), n,
		  missing ? "this configuration does not let pdtrace trace"
		  : old	  ? "this configuration has the options pdtrace needs; the kernel may lack "
			    "the API"
			  : "this configuration lets pdtrace trace",
		  !missing && !old);
	return missing || old ? PDT_EXIT_ERROR : PDT_EXIT_OK;
}

/* The running kernel's configuration, when it has one to read: the options it lacks. */
static void running_config(const char *release)
{
	char boot[128];
	const char *paths[] = { "/proc/config.gz", boot };
	size_t i;

	snprintf(boot, sizeof(boot), "/boot/config-%s", release);
	for (i = 0; i < 2; i++) {
		char *text = read_config(paths[i]);

		if (!text)
			continue;
		if (js) {
			pdt_json_name(js, "config");
			pdt_json_obj_open(js);
			pdt_json_kv_str(js, "file", paths[i]);
		} else {
			printf("kernel configuration: %s\n", paths[i]);
		}
		print_config(text, true);
		if (js)
			pdt_json_obj_close(js);
		free(text);
		return;
	}
}

static void print_verdict(const struct pdt_facts *f, const struct pdt_verdict *v)
{
	int i;

	if (js) {
		pdt_json_name(js, "requirements");
		pdt_json_arr_open(js);
	} else {
		printf("pdtrace doctor: Linux %s\n", f->release);
		printf("%-32s %-8s %s\n", "REQUIREMENT", "STATUS", "DETAIL");
	}
	for (i = 0; i < v->nrows; i++) {
		if (!js) {
			printf("%-32s %-8s %s\n", v->rows[i].what,
			       pdt_status_str(v->rows[i].status), v->rows[i].detail);
			continue;
		}
		pdt_json_obj_open(js);
		pdt_json_kv_str(js, "requirement", v->rows[i].what);
		pdt_json_kv_str(js, "status", pdt_status_str(v->rows[i].status));
		pdt_json_kv_str(js, "detail", v->rows[i].detail);
		pdt_json_obj_close(js);
	}
	if (js)
		pdt_json_arr_close(js);
	print_end(v->problems[0], sizeof(v->problems[0]), v->nproblems,
		  v->can_trace ? "pdtrace can trace on this kernel"
			       : "pdtrace cannot trace on this kernel",
		  v->can_trace);
}

/* Attaching needs the privileges and at least the BTF; skip it when those already failed. */
static bool attach_worth_trying(const struct pdt_facts *f)
{
	return !f->btf_err && (f->cap_sys_admin || (f->cap_bpf && f->cap_perfmon));
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_args args = {};
	struct pdt_json json;
	struct pdt_verdict v;
	struct pdt_facts f;

	pdt_parse_args(&doctor_argp, doctor_name, argc, argv, &args);
	if (args.format == PDT_FMT_JSON) {
		pdt_json_init(&json, stdout);
		js = &json;
	}
	if (args.config)
		return check_config(args.config);
	pdt_gather_facts(&f);
	if (attach_worth_trying(&f))
		pdt_try_attach(&f);
	pdt_evaluate(&f, &v);
	if (js) {
		pdt_json_obj_open(js);
		pdt_json_kv_str(js, "kernel", f.release);
	}
	running_config(f.release);
	print_verdict(&f, &v);
	return v.can_trace ? PDT_EXIT_OK : PDT_EXIT_ERROR;
}
