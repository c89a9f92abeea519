// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include "child.h"
#include "session.h"
#include "stop.h"

int pdt_session_start(struct pdt_tracker *t, const struct pdt_session_opts *o, char *err,
		      size_t errlen)
{
	if (pdt_tracker_open(t, &o->tracker, err, errlen))
		return -1;
	return o->started ? o->started(t, o->ctx, err, errlen) : 0;
}

static void poll_once(struct pdt_tracker *t, const struct pdt_session_opts *o)
{
	pdt_tracker_poll(t, 100);
	if (o->tick)
		o->tick(o->ctx);
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

/* COMMAND's shell-style status, delivering events while it runs. */
static int run_command(struct pdt_tracker *t, const struct pdt_session_opts *o, pid_t pid)
{
	struct sigaction fwd = { .sa_sigaction = on_forward, .sa_flags = SA_SIGINFO }, old[4];
	struct sigaction ign = { .sa_handler = SIG_IGN };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	int status = 0, i;
	pid_t r;

	forward_sig = 0;
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &fwd, &old[i]);
	sigaction(SIGQUIT, &ign, &old[3]);
	do {
		poll_once(t, o);
		if (forward_sig) {
			kill(pid, forward_sig);
			forward_sig = 0;
		}
		r = waitpid(pid, &status, WNOHANG);
	} while (r == 0 || (r < 0 && errno == EINTR));
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	sigaction(SIGQUIT, &old[3], NULL);
	if (r < 0)
		return 255;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static double since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* No COMMAND: until SIGINT or SIGTERM, or the duration. */
static void wait_stopped(struct pdt_tracker *t, const struct pdt_session_opts *o)
{
	struct pdt_stop_guard g;
	struct timespec start;

	pdt_stop_catch(&g);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!pdt_stop_requested() && !(o->duration > 0 && since(&start) >= o->duration))
		poll_once(t, o);
	pdt_stop_release(&g);
}

int pdt_session_run(struct pdt_tracker *t, const struct pdt_session_opts *o, int *status, char *err,
		    size_t errlen)
{
	pid_t pid;
	int rc;

	*status = -1;
	if (o->command) {
		rc = pdt_spawn(o->command, &pid);
		if (rc) {
			snprintf(err, errlen, "cannot run '%s': %s", o->command[0], strerror(-rc));
			return -1;
		}
		*status = run_command(t, o, pid);
	} else {
		wait_stopped(t, o);
	}
	pdt_tracker_stop(t);
	return 0;
}
