// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>
#include "child.h"

int pdt_spawn(char *const argv[], pid_t *pid)
{
	int pfd[2], child_err = 0;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	*pid = fork();
	if (*pid < 0) {
		int err = -errno;

		close(pfd[0]);
		close(pfd[1]);
		return err;
	}
	if (*pid == 0) {
		close(pfd[0]);
		execvp(argv[0], argv);
		child_err = errno;
		if (write(pfd[1], &child_err, sizeof(child_err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	do
		n = read(pfd[0], &child_err, sizeof(child_err));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == sizeof(child_err)) {
		waitpid(*pid, NULL, 0);
		return -child_err;
	}
	return 0;
}

int pdt_wait(pid_t pid)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	int status = 0;
	pid_t r;

	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	do
		r = waitpid(pid, &status, 0);
	while (r < 0 && errno == EINTR);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (r < 0)
		return 255;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
