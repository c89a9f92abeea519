// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a suppression file (--suppressions) of any bytes. Users write these
 * files by hand: the parser and the matcher under ASan and UBSan. Besides not
 * crashing, the parser keeps its contract: an error is one line, "fuzz.supp:N: ...",
 * N within the input's lines; and every entry it accepts is matched against a few
 * findings (the matcher must end quickly whatever the patterns), and generated entries
 * must read back and match their own finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ksyms.h"
#include "rules.h"
#include "suppress.h"

static const char kallsyms[] = "ffffffff81000000 t d_make_discardable\n"
			       "ffffffff81000100 T vfs_write\n"
			       "ffffffff81000200 T ksys_write\n"
			       "ffffffff81000300 t d_make_persistent\n"
			       "ffffffffc0000000 t pdt_orphan\t[pdt_faultfs]\n"
			       "ffffffffc0000100 t pdt_ctl_write.cold\t[pdt_faultfs]\n";

static struct ksyms *syms(void)
{
	static struct ksyms *k;
	FILE *fp;

	if (k)
		return k;
	fp = fmemopen((void *)kallsyms, sizeof(kallsyms) - 1, "r");
	if (!fp || !(k = ksyms_parse(fp)))
		abort();
	fclose(fp);
	return k;
}

/* A finding whose names come from the input too: the matcher sees hostile names. */
static void finding(struct pdt_finding *f, int i, const uint8_t *data, size_t size)
{
	static const enum pdt_rule_id rules[] = { PDT_R_ORPHANED, PDT_R_PERSIST_TWICE,
						  PDT_R_USER_ENTRY_REMOVED };
	const unsigned long long st[] = { 0xffffffff81000009ULL, 0xffffffffc0000004ULL,
					  0xffffffffc0000104ULL, 0xffffffff81000104ULL,
					  0xffffffff81000204ULL, 0x1000 };

	memset(f, 0, sizeof(*f));
	f->rule_id = rules[i % 3];
	f->kind = pdt_rule_table[f->rule_id].kind;
	f->rule = pdt_rule_table[f->rule_id].name;
	f->origin = i % 2 ? PDT_ORIGIN_KERNEL : PDT_ORIGIN_USER;
	strcpy(f->fs_type, i ? "pdtfaultfs" : "tmpfs");
	snprintf(f->path, sizeof(f->path), "/inst%d/%.*s", i, (int)(size < 200 ? size : 200),
		 (const char *)data);
	f->nstack = f->ncreated = 6 - (unsigned int)i;
	memcpy(f->stack, st, sizeof(st));
	memcpy(f->created, st, sizeof(st));
}

static void check_error(const char *err, const uint8_t *data, size_t size)
{
	unsigned long line, lines = 1;
	size_t i;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (sscanf(err, "fuzz.supp:%lu: ", &line) != 1 || !line || line > lines ||
	    strchr(err, '\n')) {
		fprintf(stderr, "bad error line: '%s'\n", err);
		abort();
	}
}

/* A generated entry reads back, and matches its finding. */
static void check_generated(const struct pdt_finding *f)
{
	struct pdt_supp *s = pdt_supp_new();
	char *buf = NULL, err[600];
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!s || !fp)
		abort();
	pdt_supp_gen(fp, f, syms());
	fclose(fp);
	fp = fmemopen(buf, len, "r");
	if (!fp || pdt_supp_parse(s, "gen.supp", fp, err, sizeof(err)) ||
	    pdt_supp_match(s, f, syms()) != 0) {
		fprintf(stderr, "generated entry does not match its finding:\n%s\n%s\n", buf, err);
		abort();
	}
	fclose(fp);
	free(buf);
	pdt_supp_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pdt_supp *s = pdt_supp_new();
	struct pdt_finding f;
	char err[600] = "";
	FILE *fp;
	int i;

	if (!size || !s) {
		pdt_supp_free(s);
		return 0;
	}
	fp = fmemopen((void *)data, size, "r");
	if (!fp)
		abort();
	if (pdt_supp_parse(s, "fuzz.supp", fp, err, sizeof(err)))
		check_error(err, data, size);
	fclose(fp);
	for (i = 0; i < 3; i++) {
		finding(&f, i, data, size);
		pdt_supp_match(s, &f, syms());
		if (i == 0 || data[0] & 1) /* the generator: not on every input, it is slow */
			check_generated(&f);
	}
	pdt_supp_free(s);
	return 0;
}
