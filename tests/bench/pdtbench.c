// SPDX-License-Identifier: GPL-2.0
/*
 * pdtbench: the workloads of `make bench`, as one small static program so that
 * the loop overhead is not a shell's. Each prints one line:
 *   ops=N secs=S ops_per_s=R
 *
 *   pdtbench stat   [-t SECS] PATH...        stat() the paths round-robin
 *   pdtbench create [-t SECS] [-p N] DIR     create + unlink a file (1 op = both)
 *   pdtbench mkdir  [-t SECS] [-p N] DIR     a tree of 7 directories made then removed
 *                                            (1 op = one mkdir + its rmdir)
 *   pdtbench cycle  [-t SECS] DIR            mkdir + rmdir of DIR (configfs, tracefs)
 *   pdtbench fill   -n N DIR                 N entries: N/1000 directories of empty files (mknod)
 *   pdtbench umount DIR                      umount DIR; ops = entries below it
 * -p N runs N processes, process i pinned to CPU i % ncpus, each in DIR/wI.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

static double secs = 2.0;
static int batch = 64; /* ops between two reads of the clock */
static int nproc_ = 1;
static long nfill;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "pdtbench: %s %s: %s\n", what, arg ? arg : "", strerror(errno));
	exit(1);
}

/* The CPU time of this process and its waited-for children (the -p workers), user
 * and system, in microseconds: system time includes the BPF programs the traced
 * calls run. */
static void cpu_us(long long *user, long long *sys)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	*user = (self.ru_utime.tv_sec + kids.ru_utime.tv_sec) * 1000000LL + self.ru_utime.tv_usec +
		kids.ru_utime.tv_usec;
	*sys = (self.ru_stime.tv_sec + kids.ru_stime.tv_sec) * 1000000LL + self.ru_stime.tv_usec +
	       kids.ru_stime.tv_usec;
}

static long long user0, sys0; /* cpu_us() at the start of the timed part */

static void report(unsigned long long ops, double t)
{
	long long u, s;

	cpu_us(&u, &s);
	printf("ops=%llu secs=%.6f ops_per_s=%.1f user_us=%lld sys_us=%lld\n", ops, t,
	       t > 0 ? ops / t : 0.0, u - user0, s - sys0);
	fflush(stdout);
}

/* Run body() until secs elapsed; the clock is read every 64 ops. [*t0, *t1]: when. */
typedef unsigned long long (*body_fn)(const char *dir, unsigned long long i);

static unsigned long long timed_loop(body_fn body, const char *dir, double *t0, double *t1)
{
	double start = now(), t = start;
	unsigned long long n = 0;

	while (t - start < secs) {
		for (int k = 0; k < batch; k++)
			n += body(dir, n);
		t = now();
	}
	*t0 = start;
	*t1 = t;
	return n;
}

static char **stat_paths;
static int nstat_paths;

static unsigned long long do_stat(const char *dir, unsigned long long i)
{
	struct stat st;

	(void)dir;
	if (stat(stat_paths[i % nstat_paths], &st))
		die("stat", stat_paths[i % nstat_paths]);
	return 1;
}

static unsigned long long do_create(const char *dir, unsigned long long i)
{
	char p[256];
	int fd;

	snprintf(p, sizeof(p), "%s/f%llu", dir, i & 15);
	fd = open(p, O_CREAT | O_WRONLY | O_EXCL, 0644);
	if (fd < 0)
		die("create", p);
	close(fd);
	if (unlink(p))
		die("unlink", p);
	return 1;
}

/* d, d/0, d/1, d/0/0, d/0/1, d/1/0, d/1/1: made top-down, removed bottom-up. */
static const char *const tree[] = { "t", "t/0", "t/1", "t/0/0", "t/0/1", "t/1/0", "t/1/1" };
#define NTREE (sizeof(tree) / sizeof(tree[0]))

static unsigned long long do_mkdir(const char *dir, unsigned long long i)
{
	char p[256];
	size_t k;

	(void)i;
	for (k = 0; k < NTREE; k++) {
		snprintf(p, sizeof(p), "%s/%s", dir, tree[k]);
		if (mkdir(p, 0755))
			die("mkdir", p);
	}
	for (k = NTREE; k-- > 0;) {
		snprintf(p, sizeof(p), "%s/%s", dir, tree[k]);
		if (rmdir(p))
			die("rmdir", p);
	}
	return NTREE;
}

static unsigned long long do_cycle(const char *dir, unsigned long long i)
{
	(void)i;
	if (mkdir(dir, 0755))
		die("mkdir", dir);
	if (rmdir(dir))
		die("rmdir", dir);
	return 1;
}

/*
 * -p N: N workers in DIR/wI, pinned; sums their counts over the span from the first
 * start to the last end. They start together, released by one write once all are
 * forked (forked one by one, the first ran alone until the parent got the CPU back
 * to fork the next), and the span is the union of their runs: the sum over one
 * worker's own time overstated the rate by the part they did not overlap.
 */
static void run_parallel(body_fn body, const char *dir)
{
	int fds[64][2], go[2], i, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long total = 0;
	double first = 0, last = 0;
	char gobuf[64];

	if (nproc_ < 1 || nproc_ > 64)
		nproc_ = 1;
	if (pipe(go))
		die("pipe", NULL);
	for (i = 0; i < nproc_; i++) {
		char sub[256];
		pid_t pid;

		snprintf(sub, sizeof(sub), "%s/w%d", dir, i);
		if (mkdir(sub, 0755) && errno != EEXIST)
			die("mkdir", sub);
		if (pipe(fds[i]))
			die("pipe", NULL);
		pid = fork();
		if (pid < 0)
			die("fork", NULL);
		if (pid == 0) {
			cpu_set_t set;
			double t0, t1;
			unsigned long long n;
			char buf[96], c;
			int len;

			CPU_ZERO(&set);
			CPU_SET(i % (ncpu > 0 ? ncpu : 1), &set);
			sched_setaffinity(0, sizeof(set), &set);
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(1);
			n = timed_loop(body, sub, &t0, &t1);
			len = snprintf(buf, sizeof(buf), "%llu %.9f %.9f\n", n, t0, t1);
			if (write(fds[i][1], buf, len) != len)
				_exit(1);
			_exit(0);
		}
		close(fds[i][1]);
	}
	close(go[0]);
	memset(gobuf, 'g', sizeof(gobuf));
	if (write(go[1], gobuf, nproc_) != nproc_)
		die("write", "start pipe");
	close(go[1]);
	for (i = 0; i < nproc_; i++) {
		char buf[96] = "";
		unsigned long long n = 0;
		double t0 = 0, t1 = 0;
		ssize_t r = read(fds[i][0], buf, sizeof(buf) - 1);

		if (r <= 0 || sscanf(buf, "%llu %lf %lf", &n, &t0, &t1) != 3) {
			fprintf(stderr, "pdtbench: worker %d failed\n", i);
			exit(1);
		}
		total += n;
		if (!i || t0 < first)
			first = t0;
		if (!i || t1 > last)
			last = t1;
		close(fds[i][0]);
	}
	while (wait(NULL) > 0)
		;
	for (i = 0; i < nproc_; i++) {
		char sub[256];

		snprintf(sub, sizeof(sub), "%s/w%d", dir, i);
		rmdir(sub);
	}
	report(total, last - first);
}

/* mknodat() relative to the directory's fd: one syscall and one component per
 * entry (the same hooks as open(O_CREAT): security_inode_mknod, shmem_mknod). */
static void fill(const char *dir)
{
	long i, made = 0;
	char p[256];
	double start = now();

	for (i = 0; made < nfill; i++) {
		long j;
		int dfd;

		snprintf(p, sizeof(p), "%s/d%ld", dir, i);
		if (mkdir(p, 0755))
			die("mkdir", p);
		made++;
		dfd = open(p, O_DIRECTORY | O_RDONLY);
		if (dfd < 0)
			die("open", p);
		for (j = 0; j < 999 && made < nfill; j++, made++) {
			snprintf(p, sizeof(p), "f%ld", j);
			if (mknodat(dfd, p, S_IFREG | 0644, 0))
				die("mknod", p);
		}
		close(dfd);
	}
	report(made, now() - start);
}

static long count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	long n = 0;

	if (!d)
		die("opendir", dir);
	while ((de = readdir(d))) {
		char p[512];

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
		if (de->d_type == DT_DIR) {
			snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
			n += count_entries(p);
		}
	}
	closedir(d);
	return n;
}

static void do_umount(const char *dir)
{
	long n = count_entries(dir);
	double start = now();

	cpu_us(&user0, &sys0);

	if (umount(dir))
		die("umount", dir);
	report(n, now() - start);
}

static void usage(void)
{
	fprintf(stderr, "usage: pdtbench stat|create|mkdir|cycle|fill|umount [-t SECS] [-p N] "
			"[-n N] ARGS...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *cmd;
	int c;

	if (argc < 2)
		usage();
	cmd = argv[1];
	argv++;
	argc--;
	while ((c = getopt(argc, argv, "t:p:n:")) != -1) {
		switch (c) {
		case 't':
			secs = atof(optarg);
			break;
		case 'p':
			nproc_ = atoi(optarg);
			break;
		case 'n':
			nfill = atol(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	if (!strcmp(cmd, "stat")) {
		double t0, t1;
		unsigned long long n;

		stat_paths = &argv[optind];
		nstat_paths = argc - optind;
		n = timed_loop(do_stat, NULL, &t0, &t1);
		report(n, t1 - t0);
	} else if (!strcmp(cmd, "create")) {
		run_parallel(do_create, argv[optind]);
	} else if (!strcmp(cmd, "mkdir")) {
		batch = 4;
		run_parallel(do_mkdir, argv[optind]);
	} else if (!strcmp(cmd, "cycle")) {
		double t0, t1;
		unsigned long long n;

		batch = 1;
		n = timed_loop(do_cycle, argv[optind], &t0, &t1);
		report(n, t1 - t0);
	} else if (!strcmp(cmd, "fill")) {
		fill(argv[optind]);
	} else if (!strcmp(cmd, "umount")) {
		do_umount(argv[optind]);
	} else {
		usage();
	}
	return 0;
}
