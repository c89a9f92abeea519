// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "ksyms.h"
#include "modtab.h"

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	/* A module's "(text)" first: the function at the same address is found, not it. */
	return (y->name[0] == '(') - (x->name[0] == '(');
}

static int add(struct ksyms *k, unsigned long long addr, const char *name, const char *mod)
{
	size_t nlen = strlen(name), mlen = mod ? strlen(mod) : 0;
	size_t len = nlen + (mod ? mlen + 3 : 0) + 1;
	char *s;

	if (k->n == k->cap) {
		size_t ncap = k->cap ? k->cap * 2 : 4096;
		struct ksym *n = realloc(k->syms, ncap * sizeof(*n));

		if (!n)
			return -1;
		k->syms = n;
		k->cap = ncap;
	}
	k->syms[k->n].addr = addr;
	/*
	 * A trampoline ("ftrace_trampoline [__builtin__ftrace]") is a page at most, and the
	 * module area around it holds other modules' code: past that page is not it (a
	 * frame of a module unloaded since would otherwise be named after it).
	 */
	k->syms[k->n].size = mod && !strncmp(mod, "__builtin__", 11) ? 4096 : 0;
	k->syms[k->n].name = s = malloc(len);
	if (!s)
		return -1;
	/* "name [mod]", without snprintf: this runs for every kernel symbol. */
	memcpy(s, name, nlen);
	if (mod) {
		memcpy(s + nlen, " [", 2);
		memcpy(s + nlen + 2, mod, mlen);
		s[len - 2] = ']';
	}
	s[len - 1] = '\0';
	k->n++;
	return 0;
}

static char *skip_space(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The next token of at most max bytes, NUL-terminated in place; p moves past it. */
static char *token(char **p, const char *stops, size_t max)
{
	char *t = *p, *e = t + strcspn(t, stops);

	*p = *e ? e + 1 : e;
	if ((size_t)(e - t) > max)
		e = t + max;
	*e = '\0';
	return t;
}

/*
 * One line, "addr type name[ [module]]", as sscanf("%llx %c %255s [%127[^]]]")
 * reads it, by hand: sscanf made loading kallsyms take seconds under emulation,
 * and every check and record loads it.
 */
static int parse_line(char *line, unsigned long long *addr, char *type, char **name, char **mod)
{
	char *p = line, *end;

	*addr = strtoull(p, &end, 16);
	if (end == p)
		return -1;
	p = skip_space(end);
	if (!*p || *p == '\n')
		return -1;
	*type = *p++;
	p = skip_space(p);
	if (!*p || *p == '\n')
		return -1;
	*name = token(&p, " \t\n", 255);
	p = skip_space(p);
	*mod = NULL;
	if (*p == '[' && p[1] && p[1] != ']' && p[1] != '\n') {
		p++;
		*mod = token(&p, "]\n", 127);
	}
	return 0;
}

struct ksyms *ksyms_parse(FILE *fp)
{
	struct ksyms *k = calloc(1, sizeof(*k));
	char line[512], *name, *mod, type;
	unsigned long long addr;

	if (!k)
		return NULL;
	while (fgets(line, sizeof(line), fp)) {
		/* Only text symbols, and only real addresses (kptr_restrict shows zeros). */
		if (parse_line(line, &addr, &type, &name, &mod) || !addr ||
		    (type != 't' && type != 'T' && type != 'w' && type != 'W'))
			continue;
		if (add(k, addr, name, mod)) {
			ksyms_free(k);
			return NULL;
		}
	}
	ksyms_sort(k);
	return k;
}

int ksyms_add(struct ksyms *k, unsigned long long addr, unsigned long long size, const char *name,
	      const char *mod)
{
	if (add(k, addr, name, mod))
		return -1;
	k->syms[k->n - 1].size = size;
	return 0;
}

void ksyms_sort(struct ksyms *k)
{
	qsort(k->syms, k->n, sizeof(k->syms[0]), cmp_ksym);
}

struct ksyms *ksyms_load(void)
{
	FILE *fp = fopen("/proc/kallsyms", "r");
	struct ksyms *k;

	if (!fp)
		return NULL;
	k = ksyms_parse(fp);
	fclose(fp);
	return k;
}

void ksyms_free(struct ksyms *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->n; i++)
		free(k->syms[i].name);
	free(k->syms);
	free(k);
}

const struct ksym *ksyms_find(const struct ksyms *k, unsigned long long addr,
			      unsigned long long *off)
{
	size_t lo = 0, hi;

	if (!k || !k->n || addr < k->syms[0].addr)
		return NULL;
	hi = k->n;
	while (hi - lo > 1) { /* last symbol with addr <= target */
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* A slice read from a recording knows where a symbol ends: no guessing past it. */
	if (k->syms[lo].size && addr - k->syms[lo].addr >= k->syms[lo].size)
		return NULL;
	if (off)
		*off = addr - k->syms[lo].addr;
	return &k->syms[lo];
}

void ksyms_set_modules(struct ksyms *k, const struct modtab *mt)
{
	if (k)
		k->mods = mt;
}

/* Does symbol s belong to module mod ("name [mod]")? */
static bool of_module(const struct ksym *s, const char *mod)
{
	const char *m = strchr(s->name, ' ');
	size_t len = strlen(mod);

	return m && s->name[0] != '(' && !strncmp(m + 2, mod, len) && m[2 + len] == ']' &&
	       !m[3 + len];
}

const struct ksym *ksyms_find_at(const struct ksyms *k, unsigned long long addr, unsigned int epoch,
				 unsigned long long *off, struct ksym_tmp *tmp)
{
	const struct ksym *s = ksyms_find(k, addr, off);
	struct modtab_frame fr;

	if (!k || !k->mods || !modtab_frame(k->mods, addr, epoch, &fr))
		return s;
	if (fr.live && s && of_module(s, fr.name))
		return s;
	snprintf(tmp->name, sizeof(tmp->name), "%s [%s]", fr.init ? "(init_text)" : "(text)",
		 fr.name);
	tmp->sym = (struct ksym){ fr.lo, fr.size, tmp->name };
	if (off)
		*off = addr - fr.lo;
	return &tmp->sym;
}

void ksyms_format_at(const struct ksyms *k, unsigned long long addr, unsigned int epoch,
		     int show_addr, char *buf, size_t n)
{
	unsigned long long off = 0;
	struct ksym_tmp tmp;
	const struct ksym *s = ksyms_find_at(k, addr, epoch, &off, &tmp);
	char sym[320];

	if (s) {
		const char *mod = strchr(s->name, ' ');

		if (mod)
			snprintf(sym, sizeof(sym), "%.*s+0x%llx%s", (int)(mod - s->name), s->name,
				 off, mod);
		else
			snprintf(sym, sizeof(sym), "%s+0x%llx", s->name, off);
	} else {
		snprintf(sym, sizeof(sym), "?");
	}
	if (show_addr)
		snprintf(buf, n, "0x%016llx %s", addr, sym);
	else
		snprintf(buf, n, "%s", sym);
}

int ksyms_is_bpf(const struct ksyms *k, unsigned long long addr)
{
	const struct ksym *s = ksyms_find(k, addr, NULL);
	size_t len;

	if (!s)
		return 0;
	len = strlen(s->name);
	return len > 6 && !strcmp(s->name + len - 6, " [bpf]");
}
