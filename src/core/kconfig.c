// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "kconfig.h"

const struct pdt_kconfig_need pdt_kconfig_needs[] = {
	{ "CONFIG_BPF_SYSCALL", true, "no BPF at all" },
	{ "CONFIG_DEBUG_INFO_BTF", true, "no kernel BTF: no CO-RE, no fentry, nothing loads" },
	{ "CONFIG_BPF_JIT", true, "BPF programs interpreted, and fentry needs the JIT" },
	{ "CONFIG_FTRACE", true, "no function hooks" },
	{ "CONFIG_FUNCTION_TRACER", true, "no function hooks" },
	{ "CONFIG_DYNAMIC_FTRACE", true, "no function hooks" },
	{ "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS", true,
	  "no fentry trampolines: the rename, kill and umount-walk programs do not attach" },
	{ "CONFIG_FPROBE", true,
	  "no kprobe.multi: the persist, discard and origin programs do not attach" },
	{ "CONFIG_BPF_EVENTS", true, "no BPF programs on kprobes and fentry" },
	{ "CONFIG_SECURITY", false,
	  "no security_inode_*() hooks: every entry looks made by the kernel (no user origin)" },
	{ "CONFIG_DEBUG_INFO_BTF_MODULES", false,
	  "no BTF for modules: hooks inside modules (configfs_rmdir) are not traced" },
	{ "CONFIG_KALLSYMS_ALL", false, "stacks name fewer functions" },
	{ "CONFIG_TMPFS", false, "tmpfs workloads (tests, overlayfs upper layer)" },
	{ "CONFIG_DEBUG_FS", false, "debugfs workloads and most drivers' persistent entries" },
	{ "CONFIG_CONFIGFS_FS", false, "configfs workloads (nvmet, USB gadget)" },
	{ "CONFIG_OVERLAY_FS", false, "the overlayfs workload" },
	{ "CONFIG_ANDROID_BINDERFS", false, "the binderfs workload" },
	{ "CONFIG_NVME_TARGET", false, "the nvmet configfs workload" },
	{ "CONFIG_USB_DUMMY_HCD", false, "the functionfs and gadgetfs workloads" },
	{ "CONFIG_9P_FS", false, "the benchmark's shared userland (9p over virtio)" },
};

const size_t pdt_kconfig_nneeds = sizeof(pdt_kconfig_needs) / sizeof(pdt_kconfig_needs[0]);

/* line's length without its end of line, "\n" or "\r\n" (a file from another system). */
static size_t line_len(const char *line, const char **next)
{
	const char *end = strchr(line, '\n');
	size_t n = end ? (size_t)(end - line) : strlen(line);

	*next = end ? end + 1 : NULL;
	return n && line[n - 1] == '\r' ? n - 1 : n;
}

/*
 * As kconfig reads a .config: the last line that sets or unsets the option wins
 * ("CONFIG_X=..." or "# CONFIG_X is not set").
 */
const char *pdt_kconfig_value(const char *text, const char *option, size_t *len)
{
	size_t n = strlen(option);
	const char *line = text, *next, *val = NULL;

	for (; line && *line; line = next) {
		size_t l = line_len(line, &next);

		if (l > n && !strncmp(line, option, n) && line[n] == '=') {
			val = line + n + 1;
			*len = l - n - 1;
		} else if (l == n + 13 && !strncmp(line, "# ", 2) &&
			   !strncmp(line + 2, option, n) &&
			   !strncmp(line + 2 + n, " is not set", 11)) {
			val = NULL;
		}
	}
	return val;
}

const char *pdt_kconfig_release(const char *text, size_t *len)
{
	const char *line = text, *next;

	/* "# Linux/x86 7.2.13 Kernel Configuration", among the first comment lines. */
	for (; line && *line == '#'; line = next) {
		size_t l = line_len(line, &next);
		const char *v, *e;

		if (l < 9 || strncmp(line, "# Linux/", 8) || !(v = memchr(line + 8, ' ', l - 8)))
			continue;
		v++;
		e = memchr(v, ' ', l - (size_t)(v - line));
		if (!e || e == v || strncmp(e, " Kernel Configuration", 21))
			continue;
		*len = (size_t)(e - v);
		return v;
	}
	return NULL;
}

bool pdt_kconfig_enabled(const char *text, const char *option)
{
	size_t len;
	const char *v = pdt_kconfig_value(text, option, &len);

	return v && len == 1 && (*v == 'y' || *v == 'm');
}
