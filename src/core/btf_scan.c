// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/btf.h>
#include "btf_scan.h"

struct btf_scan {
	char *data;
	size_t mapped; /* data is a mapping of this length (else malloc()ed) */
	const struct btf_header *hdr;
	const char *types, *strs;
	const struct btf_scan *base; /* split BTF: names below str_base are the base's */
	uint32_t str_base;
};

/* Header and sections within len, strings ending in a NUL: the walk trusts no more. */
static int check_layout(const struct btf_header *h, size_t len)
{
	uint64_t end;

	if (len < sizeof(*h))
		return -EPROTO;
	end = h->hdr_len;
	if (h->magic != BTF_MAGIC || h->version != BTF_VERSION || h->hdr_len < sizeof(*h) ||
	    h->hdr_len > len)
		return -EPROTO;
	if (end + h->type_off + h->type_len > len || end + h->str_off + h->str_len > len ||
	    h->type_off % 4 || !h->str_len)
		return -EPROTO;
	if (((const char *)h)[end + h->str_off + h->str_len - 1])
		return -EPROTO;
	return 0;
}

static void release(char *data, size_t mapped)
{
	if (mapped)
		munmap(data, mapped);
	else
		free(data);
}

/* The scan of data (a mapping of length mapped, or malloc()ed), or NULL: released. */
static struct btf_scan *wrap(char *data, size_t len, size_t mapped, const struct btf_scan *base,
			     int *err)
{
	struct btf_scan *s;

	*err = check_layout((const struct btf_header *)data, len);
	s = *err ? NULL : calloc(1, sizeof(*s));
	if (!s) {
		*err = *err ? *err : -ENOMEM;
		release(data, mapped);
		return NULL;
	}
	s->data = data;
	s->mapped = mapped;
	s->hdr = (const struct btf_header *)data;
	s->types = data + s->hdr->hdr_len + s->hdr->type_off;
	s->strs = data + s->hdr->hdr_len + s->hdr->str_off;
	s->base = base;
	s->str_base = base ? base->str_base + base->hdr->str_len : 0;
	return s;
}

struct btf_scan *btf_scan_from_mem(void *data, size_t len, const struct btf_scan *base, int *err)
{
	return wrap(data, len, 0, base, err);
}

/* sysfs gives a BTF file its size, but read to the end whatever stat says. */
static char *read_all(int fd, size_t *len)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap), *more;
	ssize_t got;

	while (buf && (got = read(fd, buf + n, cap - n)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return NULL;
		}
		n += (size_t)got;
		if (n == cap) {
			more = realloc(buf, cap *= 2);
			if (!more)
				free(buf);
			buf = more;
		}
	}
	*len = n;
	return buf;
}

/*
 * vmlinux BTF maps read-only since 6.16 (no copy of its megabytes); a module's BTF, an
 * older kernel's, or a plain file are read.
 */
static struct btf_scan *map_file(int fd, const struct btf_scan *base, int *err)
{
	struct stat st;
	void *p;

	*err = 0;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(struct btf_header))
		return NULL;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	return wrap(p, (size_t)st.st_size, (size_t)st.st_size, base, err);
}

struct btf_scan *btf_scan_open(const char *path, const struct btf_scan *base, int *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct btf_scan *s;
	size_t len = 0;
	char *data;

	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	s = map_file(fd, base, err);
	if (s || *err) {
		close(fd);
		return s;
	}
	data = read_all(fd, &len);
	*err = data ? 0 : -errno;
	close(fd);
	if (!data)
		return NULL;
	return btf_scan_from_mem(data, len, base, err);
}

void btf_scan_free(struct btf_scan *s)
{
	if (!s)
		return;
	release(s->data, s->mapped);
	free(s);
}

/* A name offset: split BTF's own strings follow its base's. NULL: out of range. */
static const char *name_at(const struct btf_scan *s, uint32_t off)
{
	if (off < s->str_base)
		return s->base ? name_at(s->base, off) : NULL;
	off -= s->str_base;
	return off < s->hdr->str_len ? s->strs + off : NULL;
}

/* The bytes after a type's struct btf_type; -1: a kind this code does not know. */
static long extra_size(const struct btf_type *t)
{
	uint32_t vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return (long)vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return (long)vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return (long)vlen * sizeof(struct btf_enum64);
	default:
		return -1;
	}
}

static int want_cmp(const void *a, const void *b)
{
	return strcmp(((const struct btf_want *const *)a)[0]->name,
		      ((const struct btf_want *const *)b)[0]->name);
}

/* want_cmp()'s order with the name itself as the key. */
static int name_cmp(const void *name, const void *w)
{
	return strcmp(name, (*(const struct btf_want *const *)w)->name);
}

/* w's enumerator in enum (or enum64) t, and its value, if t has it. */
static void find_member(const struct btf_scan *s, const struct btf_type *t, struct btf_want *w)
{
	const struct btf_enum64 *e64 = (const void *)(t + 1);
	const struct btf_enum *e = (const void *)(t + 1);
	bool wide = BTF_INFO_KIND(t->info) == BTF_KIND_ENUM64;
	uint32_t i, vlen = BTF_INFO_VLEN(t->info);
	const char *name;

	for (i = 0; i < vlen; i++) {
		name = name_at(s, wide ? e64[i].name_off : e[i].name_off);
		if (!name || strcmp(name, w->member))
			continue;
		if (wide)
			w->value = (long long)((uint64_t)e64[i].val_hi32 << 32 | e64[i].val_lo32);
		else /* kflag: a signed enum */
			w->value = BTF_INFO_KFLAG(t->info) ? (long long)e[i].val
							   : (long long)(uint32_t)e[i].val;
		w->found = true;
		return;
	}
}

/*
 * Of the ~100,000 names a scan meets, few begin like a wanted one: a bit for each
 * wanted name's first four bytes spares the rest their search (most of the scan's time).
 */
#define HEAD_BITS (1u << 16)

static uint32_t head_hash(const char *name)
{
	uint32_t h = 0;
	int i;

	for (i = 0; i < 4 && name[i]; i++)
		h = h * 31 + (unsigned char)name[i];
	return h % HEAD_BITS;
}

/* The wanted entries with this kind and name (sorted by name: a run of them). */
static void match(const struct btf_scan *s, const struct btf_type *t, const char *name,
		  struct btf_want **sorted, size_t n)
{
	struct btf_want **hit = bsearch(name, sorted, n, sizeof(*sorted), name_cmp);
	int kind = BTF_INFO_KIND(t->info);

	if (!hit)
		return;
	while (hit > sorted && !strcmp(hit[-1]->name, name))
		hit--;
	for (; hit < sorted + n && !strcmp((*hit)->name, name); hit++) {
		struct btf_want *w = *hit;

		if (w->found)
			continue;
		if (w->kind == BTF_KIND_ENUM && (kind == BTF_KIND_ENUM || kind == BTF_KIND_ENUM64))
			find_member(s, t, w);
		else if (w->kind == kind)
			w->found = true;
	}
}

int btf_scan_find(const struct btf_scan *s, struct btf_want *want, size_t n)
{
	const char *p = s->types, *end = s->types + s->hdr->type_len, *name;
	struct btf_want **sorted = calloc(n ? n : 1, sizeof(*sorted));
	uint64_t *heads = calloc(HEAD_BITS / 64, sizeof(*heads));
	uint32_t h;
	size_t i;
	int kind, err = 0;

	if (!sorted || !heads) {
		free(sorted);
		free(heads);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		want[i].found = false;
		want[i].value = 0;
		sorted[i] = &want[i];
		h = head_hash(want[i].name);
		heads[h / 64] |= 1ULL << (h % 64);
	}
	qsort(sorted, n, sizeof(*sorted), want_cmp);
	while (p < end) {
		const struct btf_type *t = (const void *)p;
		long extra;

		if (end - p < (long)sizeof(*t) || (extra = extra_size(t)) < 0 ||
		    end - p - (long)sizeof(*t) < extra) {
			err = -EPROTO;
			break;
		}
		p += sizeof(*t) + extra;
		kind = BTF_INFO_KIND(t->info);
		if (kind != BTF_KIND_FUNC && kind != BTF_KIND_TYPEDEF && kind != BTF_KIND_ENUM &&
		    kind != BTF_KIND_ENUM64)
			continue;
		name = name_at(s, t->name_off);
		if (!name || !*name)
			continue;
		h = head_hash(name);
		if (heads[h / 64] >> (h % 64) & 1)
			match(s, t, name, sorted, n);
	}
	free(sorted);
	free(heads);
	return err;
}
