// SPDX-License-Identifier: GPL-2.0
/*
 * pdt-runas UID COMMAND [ARGS...]: run COMMAND as UID (and GID UID) with no
 * capabilities, the way an unprivileged user would run pdtrace. Busybox has no
 * setpriv, and su needs a passwd file the guest does not have.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;

	if (argc < 3) {
		fprintf(stderr, "usage: pdt-runas UID COMMAND [ARGS...]\n");
		return 2;
	}
	uid = (uid_t)strtoul(argv[1], NULL, 10);
	/* Dropping the uid of root drops every capability (no SECBIT_KEEP_CAPS). */
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		fprintf(stderr, "pdt-runas: %s\n", strerror(errno));
		return 2;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "pdt-runas: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
