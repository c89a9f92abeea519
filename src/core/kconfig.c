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

const char *pdt_kconfig_value(const char *text, const char *option, size_t *len)
{
	size_t n = strlen(option);
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');

		if (!strncmp(line, option, n) && line[n] == '=') {
			const char *v = line + n + 1;

			*len = end ? (size_t)(end - v) : strlen(v);
			return v;
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

bool pdt_kconfig_enabled(const char *text, const char *option)
{
	size_t len;
	const char *v = pdt_kconfig_value(text, option, &len);

	return v && len == 1 && (*v == 'y' || *v == 'm');
}
