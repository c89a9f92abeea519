/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tracker knows of the kernel that BTF does not say: constants that are
 * #defines, layouts of code, and the kfuncs it calls, each with where it comes from
 * (paths in the kernel's source, checked on Linux 7.2). Types and enum values come
 * from BTF through CO-RE and are not here.
 */
#ifndef PDT_KERNEL_FACTS_BPF_H
#define PDT_KERNEL_FACTS_BPF_H

/* include/uapi/linux/stat.h: S_IFMT, S_IFDIR. */
#define PDT_S_ISDIR(mode) (((mode)&00170000) == 0040000)

/* include/linux/fs.h: S_DEAD in inode->i_flags (a removed directory), since 2.4. */
#define PDT_S_DEAD (1 << 4)

/* include/uapi/linux/fs.h: RENAME_WHITEOUT in renameat2()'s flags, since 3.18. */
#define PDT_RENAME_WHITEOUT (1 << 2)

/* include/uapi/asm-generic/errno-base.h: E2BIG, a full hash map's update error. */
#define PDT_E2BIG 7

/*
 * x86-64: a kprobe's registers' ip is the return address of the hooked function's call
 * to __fentry__, its first instruction (its second, past an endbr64, on a kernel built
 * with IBT): a few bytes past the function's address. Functions are 16-byte aligned
 * (arch/x86/Kconfig: FUNCTION_ALIGNMENT_16B): no other starts in between.
 */
#define PDT_FENTRY_SPAN 16

/*
 * kernel/trace/fgraph.c: FGRAPH_FRAME_OFFSET_MASK, the low bits of a shadow-stack word
 * that give the offset back to its frame's struct ftrace_ret_stack.
 */
#define PDT_FGRAPH_OFFSET_MASK 0x3ff

/* arch/arm64/kernel/entry-ftrace.S: where the graph tracer points a hooked return. */
extern const void return_to_handler __ksym __weak;

/* kernel/bpf/helpers.c, 6.10+: preemption off around the self-check's scratch use. */
extern void bpf_preempt_disable(void) __ksym;
extern void bpf_preempt_enable(void) __ksym;

/* kernel/bpf/helpers.c, 6.2+: a number as a read-only BTF pointer of type btf_id. */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

/* kernel/trace/bpf_trace.c (7.2's signature): a kprobe.session's run at the return? */
extern bool bpf_session_is_return(void *ctx) __ksym;

#endif
