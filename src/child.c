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

static volatile sig_atomic_t forward_sig;

/*
 * SIGTERM, SIGHUP, and a SIGINT that a process sent (kill(1), a CI runner) go on to
 * COMMAND; a SIGINT from the terminal reached COMMAND already (it is in our process
 * group), so it is not sent twice. We stay, drain and report either way.
 */
static void on_forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig != SIGINT || si->si_code != SI_KERNEL)
		forward_sig = sig;
}

/* Nothing to do: its arrival ends the wait for events (epoll_wait() is never restarted). */
static void on_child(int sig)
{
	(void)sig;
}

int pdt_run_child(pid_t pid, bool (*poll)(void *ctx), void *ctx)
{
	struct sigaction fwd = { .sa_sigaction = on_forward, .sa_flags = SA_SIGINFO }, old[5];
	struct sigaction ign = { .sa_handler = SIG_IGN };
	struct sigaction chld = { .sa_handler = on_child, .sa_flags = SA_RESTART | SA_NOCLDSTOP };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	int status = 0, i;
	pid_t r;

	forward_sig = 0;
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &fwd, &old[i]);
	sigaction(SIGQUIT, &ign, &old[3]);
	/*
	 * COMMAND's exit wakes the wait, so that the report follows it at once, not at the
	 * end of the wait. An exit before the handler is in place is seen by the first
	 * waitpid(); one between a waitpid() and the wait costs that one wait, as before.
	 */
	sigaction(SIGCHLD, &chld, &old[4]);
	while ((r = waitpid(pid, &status, WNOHANG)) == 0 || (r < 0 && errno == EINTR)) {
		poll(ctx);
		if (forward_sig) {
			kill(pid, forward_sig);
			forward_sig = 0;
		}
	}
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	sigaction(SIGQUIT, &old[3], NULL);
	sigaction(SIGCHLD, &old[4], NULL);
	if (r < 0)
		return 255;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
