// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "exit_codes.h"
#include "log.h"
#include "output.h"

int pdt_create_file(const char *cmd, const char *path, mode_t mode)
{
	/* O_NOFOLLOW: a symlink planted in a shared directory must not redirect us. */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0)
		pdt_die(PDT_EXIT_ERROR, "%s: cannot write '%s': %s", cmd, path, strerror(errno));
	return fd;
}

int pdt_create_private(const char *cmd, const char *path)
{
	struct stat st;
	int fd;

	/*
	 * A regular file there is replaced, not truncated: truncation kept its mode (0644:
	 * kernel addresses for every user to read) and cut its other hard links short. A
	 * symlink is refused as pdt_create_file() refuses it; a FIFO or a device (a pipe to
	 * a compressor, /dev/null) is written as it is: it holds nothing to protect.
	 */
	if (!lstat(path, &st) && S_ISREG(st.st_mode) && unlink(path) && errno != ENOENT)
		pdt_die(PDT_EXIT_ERROR, "%s: cannot write '%s': %s", cmd, path, strerror(errno));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST && !lstat(path, &st) &&
	    (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == EEXIST && !lstat(path, &st) &&
	    (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)))
		errno = S_ISDIR(st.st_mode) ? EISDIR : ELOOP; /* as open() says without O_EXCL */
	if (fd < 0)
		pdt_die(PDT_EXIT_ERROR, "%s: cannot write '%s': %s", cmd, path, strerror(errno));
	return fd;
}

FILE *pdt_open_output(const char *cmd, const char *path)
{
	FILE *fp;

	if (!path || !strcmp(path, "-"))
		return stdout;
	fp = fdopen(pdt_create_file(cmd, path, 0644), "w");
	if (!fp)
		pdt_die(PDT_EXIT_ERROR, "%s: cannot write '%s': %s", cmd, path, strerror(errno));
	return fp;
}

void pdt_close_output(const char *cmd, FILE *fp, const char *path)
{
	int bad = ferror(fp) | fflush(fp);

	if (fp != stdout)
		bad |= fclose(fp);
	if (bad)
		pdt_die(PDT_EXIT_ERROR, "%s: error writing '%s'", cmd, path ? path : "stdout");
}

void pdt_fill_report(struct pdt_report *rep, struct pdt_tracker *t, bool show_addresses)
{
	pdt_tracker_losses(t, &rep->lost_events, &rep->map_full);
	rep->dput_skipped = pdt_tracker_dput_skipped(t);
	rep->version = PDT_VERSION;
	rep->kernel = pdt_tracker_release(t);
	rep->machine = pdt_tracker_machine(t);
	rep->start_ns = pdt_tracker_start_ns(t);
	rep->fs_seen = pdt_tracker_fs_seen(t);
	rep->rules = pdt_tracker_rules(t);
	rep->malformed = pdt_rules_malformed(rep->rules);
	rep->complete = pdt_report_complete(rep, false);
	rep->mounts = pdt_tracker_mounts(t, &rep->nmounts);
	rep->missing = pdt_tracker_missing(t, &rep->nmissing);
	rep->show_addresses = show_addresses;
	rep->ksyms = pdt_tracker_ksyms(t);
}
