// SPDX-License-Identifier: GPL-2.0
/*
 * pdt-bpfpin: pin BPF objects into a bpffs for the bpffs workload. Static (libbpf).
 *
 *   pdt-bpfpin map PATH...   create one array map and pin it at every PATH
 *   pdt-bpfpin prog PATH     load a two-instruction socket filter and pin it at PATH
 *   pdt-bpfpin unpin PATH... remove pins (unlink(2): bpffs has no other way)
 *   pdt-bpfpin count tracing  print "progs N links M": tracing programs and links loaded
 *                            system-wide (what a killed pdtrace must not leave behind)
 *
 * The pins keep the objects alive after this process exits. A failure prints
 * "pdt-bpfpin: OP PATH: ERRNO_NAME" and exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>

static int fail(const char *op, const char *arg)
{
	const char *name = strerrorname_np(errno);

	fprintf(stderr, "pdt-bpfpin: %s %s: %s\n", op, arg, name ? name : strerror(errno));
	return 1;
}

/* Tracing programs (fentry/fexit and the like) and links of any kind, by ID. */
static int count_tracing(void)
{
	unsigned int id = 0, progs = 0, links = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info = {};
		unsigned int len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue; /* gone meanwhile */
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.type == BPF_PROG_TYPE_TRACING)
			progs++;
		close(fd);
	}
	id = 0;
	while (!bpf_link_get_next_id(id, &id))
		links++;
	printf("progs %u links %u\n", progs, links);
	return 0;
}

int main(int argc, char **argv)
{
	int i, fd;

	if (argc < 3) {
		fprintf(
		    stderr,
		    "usage: pdt-bpfpin map PATH... | prog PATH | unpin PATH... | count tracing\n");
		return 2;
	}
	if (!strcmp(argv[1], "map")) {
		fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "pdt_pin", 4, 8, 1, NULL);
		if (fd < 0)
			return fail("map_create", argv[2]);
		for (i = 2; i < argc; i++)
			if (bpf_obj_pin(fd, argv[i]))
				return fail("pin", argv[i]);
		return 0;
	}
	if (!strcmp(argv[1], "prog") && argc == 3) {
		/* r0 = 0; exit */
		const struct bpf_insn insns[] = {
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
			{ .code = BPF_JMP | BPF_EXIT },
		};

		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "pdt_pin", "GPL", insns, 2, NULL);
		if (fd < 0)
			return fail("prog_load", argv[2]);
		if (bpf_obj_pin(fd, argv[2]))
			return fail("pin", argv[2]);
		return 0;
	}
	if (!strcmp(argv[1], "unpin")) {
		for (i = 2; i < argc; i++)
			if (unlink(argv[i]))
				return fail("unpin", argv[i]);
		return 0;
	}
	if (!strcmp(argv[1], "count") && argc == 3)
		return count_tracing();
	fprintf(stderr, "pdt-bpfpin: unknown operation '%s'\n", argv[1]);
	return 2;
}
