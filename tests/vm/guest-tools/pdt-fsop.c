// SPDX-License-Identifier: GPL-2.0
/*
 * pdt-fsop: the file system operations the guest's busybox cannot do, for the
 * filesystem workloads (tests/vm/workloads). Static, no dependencies.
 *
 *   pdt-fsop rename OLD NEW [noreplace|exchange|whiteout]   renameat2()
 *   pdt-fsop mkdir|rmdir|unlink|create|mkfifo PATH          one syscall, errno by name
 *   pdt-fsop cycle DIR N                                    mkdir + rmdir of DIR, N times, in
 *                                                           one process (one task's stack)
 *   pdt-fsop symlink|link TARGET PATH                       (create: O_CREAT|O_EXCL open)
 *   pdt-fsop mount TYPE SOURCE DIR [OPTIONS]                mount(2)
 *   pdt-fsop mount-cycle TYPE DIR N FILES                   mount TYPE on DIR, create FILES
 *                                                           files in it, umount; N times
 *                                                           (a shell loop is too slow)
 *   pdt-fsop tmpfile DIR                                    O_TMPFILE, closed unlinked
 *   pdt-fsop tmpfile-link DIR NEWPATH                       O_TMPFILE, then linkat()
 *   pdt-fsop mq-open NAME... | mq-unlink NAME...            POSIX message queues
 *   pdt-fsop ffs-hold EP0 CMD                               functionfs: write descriptors
 *                                                           and strings to EP0, run sh -c
 *                                                           CMD, then close EP0
 *   pdt-fsop gadgetfs-hold EP0 CMD                          gadgetfs: write a device
 *                                                           configuration to EP0, run CMD,
 *                                                           close EP0
 *   pdt-fsop umount-wait MNT SECONDS                        umount MNT and wait until its
 *                                                           superblock is shut down
 *   pdt-fsop umount-graph-full CTL MNT                      umount MNT while this task's
 *                                                           function graph shadow stack is
 *                                                           full: pdtfaultfs's CTL fills it
 *                                                           before and empties it after
 *   pdt-fsop rmdir-refused DIR CTL LINE                     rmdir DIR, refused as not empty,
 *                                                           then write LINE to pdtfaultfs's
 *                                                           CTL, from the same task
 *   pdt-fsop mkdir-refused DIR CTL LINE                     mkdir DIR, refused by pdtfaultfs
 *                                                           (EPERM), then LINE to its CTL
 *   pdt-fsop link-add NAME KIND [SLAVE1 SLAVE2]             rtnetlink RTM_NEWLINK: a network
 *                                                           device of KIND (dummy, ...); for
 *                                                           hsr the two slave devices
 *   pdt-fsop binder-add CONTROL NAME...                     binderfs: BINDER_CTL_ADD on the
 *                                                           binder-control device CONTROL,
 *                                                           one new binder device per NAME
 *
 * A failing system call prints "pdt-fsop: OP ARG: ERRNO_NAME" and exits 1, so that a
 * workload can assert the exact error (e.g. ENOTEMPTY) of a refused operation.
 */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>
#include <linux/android/binderfs.h>
#include <sys/ioctl.h>

/* USB descriptors are little endian, and so are the guests (x86_64, arm64): no conversion. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pdt-fsop's USB descriptors assume a little-endian machine"
#endif
#define LE(x) (x)

static int fail(const char *op, const char *arg)
{
	const char *name = strerrorname_np(errno);

	fprintf(stderr, "pdt-fsop: %s %s: %s\n", op, arg, name ? name : strerror(errno));
	return 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: pdt-fsop "
			"rename|mkdir|rmdir|cycle|unlink|create|mkfifo|symlink|link|mount|tmpfile|"
			"mount-cycle|tmpfile-link|mq-open|mq-unlink|ffs-hold|gadgetfs-hold|umount-"
			"wait|umount-graph-full|"
			"link-add|binder-add "
			"ARGS "
			"(see the source)\n");
	return 2;
}

static int do_rename(int argc, char **argv)
{
	unsigned int flags = 0;

	if (argc == 3 && !strcmp(argv[2], "noreplace"))
		flags = RENAME_NOREPLACE;
	else if (argc == 3 && !strcmp(argv[2], "exchange"))
		flags = RENAME_EXCHANGE;
	else if (argc == 3 && !strcmp(argv[2], "whiteout"))
		flags = RENAME_WHITEOUT;
	else if (argc != 2)
		return usage();
	if (renameat2(AT_FDCWD, argv[0], AT_FDCWD, argv[1], flags))
		return fail("rename", argv[0]);
	return 0;
}

static int do_tmpfile(const char *dir, const char *newpath)
{
	char proc[64];
	int fd = open(dir, O_TMPFILE | O_RDWR, 0600);

	if (fd < 0)
		return fail("tmpfile", dir);
	if (newpath) {
		/* linkat(AT_EMPTY_PATH) needs CAP_DAC_READ_SEARCH; the /proc path does not. */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, newpath, AT_SYMLINK_FOLLOW))
			return fail("linkat", newpath);
	}
	close(fd);
	return 0;
}

static int do_mq(int create, int argc, char **argv)
{
	struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = 64 };
	int i;

	for (i = 0; i < argc; i++) {
		if (create) {
			mqd_t q = mq_open(argv[i], O_CREAT | O_EXCL | O_RDWR, 0600, &attr);

			if (q == (mqd_t)-1)
				return fail("mq_open", argv[i]);
			mq_close(q);
		} else if (mq_unlink(argv[i])) {
			return fail("mq_unlink", argv[i]);
		}
	}
	return 0;
}

static int run_sh(const char *cmd)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return fail("fork", cmd);
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return fail("waitpid", cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* One interface, a bulk IN and a bulk OUT endpoint, full and high speed (as ffs-test.c). */
static const struct {
	struct usb_functionfs_descs_head_v2 header;
	__le32 fs_count;
	__le32 hs_count;
	struct {
		struct usb_interface_descriptor intf;
		struct usb_endpoint_descriptor_no_audio in, out;
	} __attribute__((packed)) fs, hs;
} __attribute__((packed)) ffs_descs = {
	.header = {
		.magic = LE(FUNCTIONFS_DESCRIPTORS_MAGIC_V2),
		.flags = LE(FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC),
		.length = LE(sizeof(ffs_descs)),
	},
	.fs_count = LE(3),
	.hs_count = LE(3),
	.fs = {
		.intf = { .bLength = sizeof(ffs_descs.fs.intf), .bDescriptorType = USB_DT_INTERFACE,
			  .bNumEndpoints = 2, .bInterfaceClass = USB_CLASS_VENDOR_SPEC, .iInterface = 1 },
		.in = { .bLength = sizeof(ffs_descs.fs.in), .bDescriptorType = USB_DT_ENDPOINT,
			.bEndpointAddress = 1 | USB_DIR_IN, .bmAttributes = USB_ENDPOINT_XFER_BULK,
			.wMaxPacketSize = LE(64) },
		.out = { .bLength = sizeof(ffs_descs.fs.out), .bDescriptorType = USB_DT_ENDPOINT,
			 .bEndpointAddress = 2 | USB_DIR_OUT, .bmAttributes = USB_ENDPOINT_XFER_BULK,
			 .wMaxPacketSize = LE(64) },
	},
	.hs = {
		.intf = { .bLength = sizeof(ffs_descs.fs.intf), .bDescriptorType = USB_DT_INTERFACE,
			  .bNumEndpoints = 2, .bInterfaceClass = USB_CLASS_VENDOR_SPEC, .iInterface = 1 },
		.in = { .bLength = sizeof(ffs_descs.hs.in), .bDescriptorType = USB_DT_ENDPOINT,
			.bEndpointAddress = 1 | USB_DIR_IN, .bmAttributes = USB_ENDPOINT_XFER_BULK,
			.wMaxPacketSize = LE(512) },
		.out = { .bLength = sizeof(ffs_descs.hs.out), .bDescriptorType = USB_DT_ENDPOINT,
			 .bEndpointAddress = 2 | USB_DIR_OUT, .bmAttributes = USB_ENDPOINT_XFER_BULK,
			 .wMaxPacketSize = LE(512) },
	},
};

static const struct {
	struct usb_functionfs_strings_head header;
	struct {
		__le16 code;
		const char str1[sizeof("pdtrace")];
	} __attribute__((packed)) lang0;
} __attribute__((packed)) ffs_strings = {
	.header = {
		.magic = LE(FUNCTIONFS_STRINGS_MAGIC),
		.length = LE(sizeof(ffs_strings)),
		.str_count = LE(1),
		.lang_count = LE(1),
	},
	.lang0 = { LE(0x0409), "pdtrace" },
};

static int do_ffs_hold(const char *ep0, const char *cmd)
{
	int fd = open(ep0, O_RDWR), rc;

	if (fd < 0)
		return fail("open", ep0);
	if (write(fd, &ffs_descs, sizeof(ffs_descs)) != (ssize_t)sizeof(ffs_descs))
		return fail("write descriptors", ep0);
	if (write(fd, &ffs_strings, sizeof(ffs_strings)) != (ssize_t)sizeof(ffs_strings))
		return fail("write strings", ep0);
	rc = run_sh(cmd);
	close(fd);
	return rc;
}

/* gadgetfs: u32 tag 0, a full-speed configuration, then the device descriptor. */
static const struct {
	__u32 tag;
	struct usb_config_descriptor config;
	struct usb_interface_descriptor intf;
	struct usb_device_descriptor device;
} __attribute__((packed)) gfs_config = {
	.tag = 0,
	.config = { .bLength = USB_DT_CONFIG_SIZE,
		    .bDescriptorType = USB_DT_CONFIG,
		    .wTotalLength = LE(USB_DT_CONFIG_SIZE + USB_DT_INTERFACE_SIZE),
		    .bNumInterfaces = 1,
		    .bConfigurationValue = 1,
		    .bmAttributes = USB_CONFIG_ATT_ONE | USB_CONFIG_ATT_SELFPOWER,
		    .bMaxPower = 1 },
	.intf = { .bLength = USB_DT_INTERFACE_SIZE,
		  .bDescriptorType = USB_DT_INTERFACE,
		  .bInterfaceClass = USB_CLASS_VENDOR_SPEC },
	.device = { .bLength = USB_DT_DEVICE_SIZE,
		    .bDescriptorType = USB_DT_DEVICE,
		    .bcdUSB = LE(0x0200),
		    .bDeviceClass = USB_CLASS_VENDOR_SPEC,
		    .idVendor = LE(0x1d6b),
		    .idProduct = LE(0x0104),
		    .bNumConfigurations = 1 },
};

static int do_gadgetfs_hold(const char *ep0, const char *cmd)
{
	int fd = open(ep0, O_RDWR), rc;

	if (fd < 0)
		return fail("open", ep0);
	if (write(fd, &gfs_config, sizeof(gfs_config)) != (ssize_t)sizeof(gfs_config))
		return fail("write configuration", ep0);
	rc = run_sh(cmd);
	close(fd);
	return rc;
}

/*
 * umount MNT, then wait for the inotify watch on its root to be dropped: that happens in
 * generic_shutdown_super() (fsnotify_sb_delete(), after the dcache walk), so when this
 * returns the superblock is gone, even when its last reference was not the mount (an
 * ipc namespace's internal mqueue mount is dropped from a workqueue).
 */
static int do_umount_wait(const char *mnt, const char *seconds)
{
	struct inotify_event ev;
	struct pollfd pfd;
	int fd = inotify_init1(IN_CLOEXEC), wd, ms = atoi(seconds) * 1000;

	if (fd < 0)
		return fail("inotify_init1", mnt);
	wd = inotify_add_watch(fd, mnt, IN_DELETE_SELF | IN_UNMOUNT);
	if (wd < 0)
		return fail("inotify_add_watch", mnt);
	if (umount(mnt))
		return fail("umount", mnt);
	pfd.fd = fd;
	pfd.events = POLLIN;
	for (;;) {
		int n = poll(&pfd, 1, ms);

		if (n == 0) {
			fprintf(stderr,
				"pdt-fsop: umount-wait %s: superblock still alive after %ss\n", mnt,
				seconds);
			return 1;
		}
		if (n < 0)
			return fail("poll", mnt);
		/* Our only watch: events carry no name, so they are read one by one. */
		if (read(fd, &ev, sizeof(ev)) != sizeof(ev))
			return fail("read", mnt);
		if (ev.wd == wd && (ev.mask & IN_IGNORED))
			return 0;
	}
}

/* Write LINE ("COMMAND NAME") to pdtfaultfs's control file CTL. */
static int faultfs_write(const char *ctl, const char *line)
{
	int fd = open(ctl, O_WRONLY | O_CLOEXEC), rc;
	size_t len = strlen(line);

	if (fd < 0)
		return fail("open", ctl);
	rc = write(fd, line, len) == (ssize_t)len ? 0 : fail(line, ctl);
	close(fd);
	return rc;
}

/* Write "CMD x" to pdtfaultfs's control file CTL. */
static int faultfs_ctl(const char *ctl, const char *cmd)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s x", cmd);
	return faultfs_write(ctl, buf);
}

/*
 * rmdir DIR, which must be refused as not empty (after the LSM hook: the filesystem's
 * own ->rmdir() says so), then LINE to pdtfaultfs's CTL, from the same task: the
 * kernel's removal of DIR that follows is not that rmdir's.
 */
static int do_rmdir_refused(const char *dir, const char *ctl, const char *line)
{
	if (!rmdir(dir)) {
		fprintf(stderr, "pdt-fsop: rmdir %s: not refused\n", dir);
		return 1;
	}
	if (errno != ENOTEMPTY)
		return fail("rmdir", dir);
	return faultfs_write(ctl, line);
}

/*
 * mkdir DIR, which pdtfaultfs refuses after the LSM hook (its name starts with
 * "refused"), then LINE to its CTL, from the same task: the entries the kernel makes
 * next are not that mkdir's. On one CPU, with a pause between: the refused dentry is
 * freed after an RCU grace period, into that CPU's free list, whose next dentry is then
 * usually made from the same memory.
 */
static int do_mkdir_refused(const char *dir, const char *ctl, const char *line)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return fail("sched_setaffinity", "0");
	if (!mkdir(dir, 0755)) {
		fprintf(stderr, "pdt-fsop: mkdir %s: not refused\n", dir);
		return 1;
	}
	if (errno != EPERM)
		return fail("mkdir", dir);
	usleep(200000);
	return faultfs_write(ctl, line);
}

/*
 * umount MNT from the one task whose shadow stack pdtfaultfs's CTL (on another mount)
 * left full: the umount's calls of function graph users are all skipped.
 */
static int do_umount_graph_full(const char *ctl, const char *mnt)
{
	int rc;

	if (faultfs_ctl(ctl, "graph-full"))
		return 1;
	rc = umount(mnt) ? fail("umount", mnt) : 0;
	return faultfs_ctl(ctl, "graph-restore") | rc;
}

/* Append attribute TYPE with LEN bytes of DATA to the message; returns it (for nesting). */
static struct rtattr *add_attr(struct nlmsghdr *n, size_t max, int type, const void *data,
			       size_t len)
{
	struct rtattr *rta = (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	if (NLMSG_ALIGN(n->nlmsg_len) + RTA_SPACE(len) > max) {
		fprintf(stderr, "pdt-fsop: link-add: message too long\n");
		exit(2);
	}
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_SPACE(len);
	return rta;
}

/* Close a nested attribute opened by add_attr(..., NULL, 0). */
static void end_nest(struct nlmsghdr *n, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)((char *)n + n->nlmsg_len - (char *)nest);
}

static int do_link_add(int argc, char **argv)
{
	struct {
		struct nlmsghdr n;
		struct ifinfomsg i;
		char buf[512];
	} req = {
		.n = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
		       .nlmsg_type = RTM_NEWLINK,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK,
		       .nlmsg_seq = 1 },
		.i = { .ifi_family = AF_UNSPEC },
	};
	struct {
		struct nlmsghdr n;
		struct nlmsgerr e;
		char buf[256];
	} ack;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct rtattr *linkinfo, *data;
	const char *name = argv[0], *kind = argv[1];
	int fd, i;
	ssize_t got;

	add_attr(&req.n, sizeof(req), IFLA_IFNAME, name, strlen(name) + 1);
	linkinfo = add_attr(&req.n, sizeof(req), IFLA_LINKINFO, NULL, 0);
	add_attr(&req.n, sizeof(req), IFLA_INFO_KIND, kind, strlen(kind));
	if (!strcmp(kind, "hsr")) {
		__u32 slave[2];

		if (argc != 4)
			return usage();
		for (i = 0; i < 2; i++) {
			slave[i] = if_nametoindex(argv[2 + i]);
			if (!slave[i])
				return fail("link-add", argv[2 + i]);
		}
		data = add_attr(&req.n, sizeof(req), IFLA_INFO_DATA, NULL, 0);
		add_attr(&req.n, sizeof(req), IFLA_HSR_SLAVE1, &slave[0], sizeof(slave[0]));
		add_attr(&req.n, sizeof(req), IFLA_HSR_SLAVE2, &slave[1], sizeof(slave[1]));
		end_nest(&req.n, data);
	} else if (argc != 2) {
		return usage();
	}
	end_nest(&req.n, linkinfo);

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return fail("socket", "NETLINK_ROUTE");
	if (sendto(fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return fail("link-add", name);
	got = recv(fd, &ack, sizeof(ack), 0);
	if (got < 0)
		return fail("link-add", name);
	close(fd);
	if (got < (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) ||
	    ack.n.nlmsg_type != NLMSG_ERROR) {
		fprintf(stderr, "pdt-fsop: link-add %s: unexpected answer\n", name);
		return 1;
	}
	if (ack.e.error) {
		errno = -ack.e.error;
		return fail("link-add", name);
	}
	return 0;
}

static int do_cycle(const char *dir, const char *times)
{
	long n = strtol(times, NULL, 10);

	for (long i = 0; i < n; i++) {
		if (mkdir(dir, 0755))
			return fail("cycle: mkdir", dir);
		if (rmdir(dir))
			return fail("cycle: rmdir", dir);
	}
	return 0;
}

static int do_binder_add(int n, char **a)
{
	int fd = open(a[0], O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return fail("binder-add", a[0]);
	for (int i = 1; i < n; i++) {
		struct binderfs_device dev = { 0 };

		if (strlen(a[i]) > BINDERFS_MAX_NAME) {
			fprintf(stderr, "pdt-fsop: binder-add %s: name too long\n", a[i]);
			close(fd);
			return 1;
		}
		strcpy(dev.name, a[i]);
		if (ioctl(fd, BINDER_CTL_ADD, &dev)) {
			int rc = fail("binder-add", a[i]);

			close(fd);
			return rc;
		}
	}
	return close(fd);
}

/* N superblocks that come and go, FILES entries each: as fast as one process can. */
static int do_mount_cycle(const char *type, const char *dir, const char *ns, const char *fs)
{
	long n = atol(ns), files = atol(fs), i, j;
	char path[4096];

	for (i = 0; i < n; i++) {
		if (mount(type, dir, type, 0, NULL))
			return fail("mount-cycle", dir);
		for (j = 0; j < files; j++) {
			int fd;

			snprintf(path, sizeof(path), "%s/f%ld", dir, j);
			fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
			if (fd < 0)
				return fail("mount-cycle", path);
			close(fd);
		}
		if (umount2(dir, 0))
			return fail("mount-cycle umount", dir);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	int n = argc - 2;
	char **a = argv + 2;

	if (!strcmp(op, "rename") && n >= 2)
		return do_rename(n, a);
	if (!strcmp(op, "mkdir") && n == 1)
		return mkdir(a[0], 0755) ? fail(op, a[0]) : 0;
	if (!strcmp(op, "rmdir") && n == 1)
		return rmdir(a[0]) ? fail(op, a[0]) : 0;
	if (!strcmp(op, "cycle") && n == 2)
		return do_cycle(a[0], a[1]);
	if (!strcmp(op, "unlink") && n == 1)
		return unlink(a[0]) ? fail(op, a[0]) : 0;
	if (!strcmp(op, "create") && n == 1) {
		int fd = open(a[0], O_CREAT | O_EXCL | O_WRONLY, 0644);

		return fd < 0 ? fail(op, a[0]) : close(fd);
	}
	if (!strcmp(op, "mkfifo") && n == 1)
		return mkfifo(a[0], 0644) ? fail(op, a[0]) : 0;
	if (!strcmp(op, "symlink") && n == 2)
		return symlink(a[0], a[1]) ? fail(op, a[1]) : 0;
	if (!strcmp(op, "link") && n == 2)
		return link(a[0], a[1]) ? fail(op, a[1]) : 0;
	if (!strcmp(op, "mount") && (n == 3 || n == 4))
		return mount(a[1], a[2], a[0], 0, n == 4 ? a[3] : NULL) ? fail(op, a[2]) : 0;
	if (!strcmp(op, "mount-cycle") && n == 4)
		return do_mount_cycle(a[0], a[1], a[2], a[3]);
	if (!strcmp(op, "tmpfile") && n == 1)
		return do_tmpfile(a[0], NULL);
	if (!strcmp(op, "tmpfile-link") && n == 2)
		return do_tmpfile(a[0], a[1]);
	if (!strcmp(op, "mq-open") && n >= 1)
		return do_mq(1, n, a);
	if (!strcmp(op, "mq-unlink") && n >= 1)
		return do_mq(0, n, a);
	if (!strcmp(op, "ffs-hold") && n == 2)
		return do_ffs_hold(a[0], a[1]);
	if (!strcmp(op, "gadgetfs-hold") && n == 2)
		return do_gadgetfs_hold(a[0], a[1]);
	if (!strcmp(op, "umount-wait") && n == 2)
		return do_umount_wait(a[0], a[1]);
	if (!strcmp(op, "rmdir-refused") && n == 3)
		return do_rmdir_refused(a[0], a[1], a[2]);
	if (!strcmp(op, "mkdir-refused") && n == 3)
		return do_mkdir_refused(a[0], a[1], a[2]);
	if (!strcmp(op, "umount-graph-full") && n == 2)
		return do_umount_graph_full(a[0], a[1]);
	if (!strcmp(op, "link-add") && (n == 2 || n == 4))
		return do_link_add(n, a);
	if (!strcmp(op, "binder-add") && n >= 2)
		return do_binder_add(n, a);
	return usage();
}
