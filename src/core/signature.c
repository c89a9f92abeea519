// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "signature.h"

/*
 * Frames every system call or kernel thread passes through: they say how the kernel
 * was entered, not which code path went wrong, and they differ between a syscall and
 * its compat twin. Prefixes of function names.
 */
static const char *const generic_frames[] = {
	"entry_SYSCALL", "entry_SYSENTER",    "entry_INT80",  "do_syscall_",   "do_fast_syscall",
	"do_int80",	 "__do_fast_syscall", "x64_sys_call", "__x64_sys_",    "__ia32_sys_",
	"__se_sys_",	 "__do_sys_",	      "ksys_",	      "syscall_exit_", "exit_to_user_mode",
	"task_work_run", "ret_from_fork",     "kthread",      "asm_exc_",      "asm_sysvec_",
};

/*
 * arm64's way in: el0t_64_sync -> el0t_64_sync_handler -> el0_svc -> do_el0_svc ->
 * el0_svc_common -> invoke_syscall -> __arm64_sys_NAME (compat: el0t_32_*, __arm64_compat_sys_NAME).
 */
static const char *const arm64_frames[] = {
	"el0t_", "el0_svc", "do_el0_svc", "invoke_syscall", "__arm64_sys_", "__arm64_compat_sys_",
	"el1h_",
};

bool pdt_sig_generic(const char *frame)
{
	size_t i;

	for (i = 0; i < sizeof(generic_frames) / sizeof(generic_frames[0]); i++)
		if (!strncmp(frame, generic_frames[i], strlen(generic_frames[i])))
			return true;
	for (i = 0; i < sizeof(arm64_frames) / sizeof(arm64_frames[0]); i++)
		if (!strncmp(frame, arm64_frames[i], strlen(arm64_frames[i])))
			return true;
	return false;
}

/*
 * "func [mod]" from kallsyms' "func.cold [mod]": the compiler's suffixes (.cold,
 * .isra.0, .constprop.0, .part.0, .llvm.NNN) follow its inlining choices, which a
 * rebuild may change for the same code path.
 */
static void frame_name(const struct ksym *s, char *buf, size_t n)
{
	const char *mod = strchr(s->name, ' ');
	size_t len = mod ? (size_t)(mod - s->name) : strlen(s->name);
	const char *dot = memchr(s->name, '.', len);

	if (dot && dot > s->name)
		len = (size_t)(dot - s->name);
	snprintf(buf, n, "%.*s%s", (int)len, s->name, mod ? mod : "");
}

void pdt_sig_stack(struct pdt_sig_stack *out, const unsigned long long *st, unsigned int n,
		   unsigned int epoch, const struct ksyms *k)
{
	struct ksym_tmp tmp;
	unsigned int i;

	out->n = 0;
	for (i = 0; i < n && i < PDT_STACK_DEPTH; i++) {
		const struct ksym *s = ksyms_find_at(k, st[i], epoch, NULL, &tmp);

		if (ksyms_is_bpf(k, st[i]))
			continue; /* our own programs and trampolines, as reports hide them */
		if (s)
			frame_name(s, out->frame[out->n], PDT_SIG_FRAME_LEN);
		else
			snprintf(out->frame[out->n], PDT_SIG_FRAME_LEN, "?");
		out->n++;
	}
}

/*
 * The first frame is the hooked function (d_make_persistent, dput, umount_check...),
 * which the rule already names; below it, the first PDT_SIG_FRAMES frames that are
 * neither generic nor unknown to the symbol table.
 */
unsigned int pdt_sig_pick(const struct pdt_sig_stack *st, unsigned int idx[PDT_SIG_FRAMES])
{
	unsigned int i, n = 0;

	for (i = 1; i < st->n && n < PDT_SIG_FRAMES; i++)
		if (strcmp(st->frame[i], "?") && !pdt_sig_generic(st->frame[i]))
			idx[n++] = i;
	return n;
}

/*
 * The kernel's own creation stack is kept for every entry it makes, and says which code
 * made the entry the finding is about; a user-space creation's is kept only with
 * --user-stacks, so it would make the signature depend on an option.
 */
bool pdt_sig_uses_creation(const struct pdt_finding *f)
{
	return pdt_rule_table[f->rule_id].has_creation && f->origin == PDT_ORIGIN_KERNEL &&
	       f->ncreated;
}

void pdt_sig_path(const char *path, char *buf, size_t n)
{
	size_t o = 0;

	if (!n)
		return;
	for (; *path && o + 1 < n; path++) {
		if (*path >= '0' && *path <= '9') {
			while (path[1] >= '0' && path[1] <= '9')
				path++;
			buf[o++] = '#';
		} else {
			buf[o++] = *path;
		}
	}
	buf[o] = '\0';
}

/* FNV-1a, 64 bits, over each field and its terminating NUL: fields cannot run together. */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static void hash_field(uint64_t *h, const char *s)
{
	do {
		*h ^= (unsigned char)*s;
		*h *= FNV_PRIME;
	} while (*s++);
}

/* Append to the key, never past its end. */
static void key_add(struct pdt_sig *s, size_t *o, const char *str)
{
	int w = snprintf(s->key + *o, sizeof(s->key) - *o, "%s", str);

	if (w > 0)
		*o += (size_t)w < sizeof(s->key) - *o ? (size_t)w : sizeof(s->key) - *o - 1;
}

/* One stack's signature frames: into the hash as fields, into the key after TITLE. */
static void add_frames(struct pdt_sig *s, size_t *o, uint64_t *h, const char *title,
		       const unsigned long long *st, unsigned int n, unsigned int epoch,
		       const struct ksyms *k)
{
	struct pdt_sig_stack frames;
	unsigned int idx[PDT_SIG_FRAMES], i, np;

	pdt_sig_stack(&frames, st, n, epoch, k);
	np = pdt_sig_pick(&frames, idx);
	hash_field(h, title);
	key_add(s, o, " | ");
	key_add(s, o, title);
	for (i = 0; i < np; i++) {
		hash_field(h, frames.frame[idx[i]]);
		key_add(s, o, i ? ", " : " ");
		key_add(s, o, frames.frame[idx[i]]);
	}
}

void pdt_sig_make(struct pdt_sig *s, const struct pdt_finding *f, const struct ksyms *k)
{
	char path[PDT_FINDING_PATH_LEN];
	uint64_t h = FNV_OFFSET;
	size_t o = 0;

	pdt_sig_path(f->path, path, sizeof(path));
	hash_field(&h, "pdtrace-signature-1"); /* a new scheme changes every digest */
	hash_field(&h, pdt_kind_name(f->kind));
	hash_field(&h, f->rule);
	hash_field(&h, f->fs_type);
	hash_field(&h, path);
	s->key[0] = '\0';
	key_add(s, &o, pdt_kind_name(f->kind));
	key_add(s, &o, "/");
	key_add(s, &o, f->rule);
	key_add(s, &o, " ");
	key_add(s, &o, f->fs_type);
	key_add(s, &o, " ");
	key_add(s, &o, path[0] ? path : "?");
	add_frames(s, &o, &h, "at", f->stack, f->nstack, f->stack_epoch, k);
	if (pdt_sig_uses_creation(f))
		add_frames(s, &o, &h, "made at", f->created, f->ncreated, f->created_epoch, k);
	snprintf(s->hex, sizeof(s->hex), "%016llx", (unsigned long long)h);
}
