# mqueue (ipc/mqueue.c): queues made and removed through mq_open()/mq_unlink() (the ipc
# namespace's internal mount) and through a mount (open O_CREAT, unlink), first on the
# initial namespace's superblock, then on a fresh one in a new ipc namespace, torn down
# with the namespace.
#
# From the source:
# - mqueue_create_attr() (mq_open O_CREAT, and ->create for open on a mount) ends in
#   d_make_persistent(); mq_unlink() and ->unlink are mqueue_unlink() -> simple_unlink().
#   There is no ->mkdir: mkdir is refused with EPERM.
# - mqueue_get_tree() -> get_tree_keyed() on the ipc namespace: mounting mqueue in the
#   initial namespace gives the superblock of its internal mount (ns->mq_mnt, made at
#   boot), so that umount unpins nothing. A new ipc namespace gets its own superblock
#   (mq_init_ns -> mq_create_mount); it dies when its last reference goes: the namespace's
#   is dropped by free_ipc_ns() from a workqueue after the last process leaves, so the run
#   waits (pdt-fsop umount-wait) for the superblock's shutdown, whose umount walk unpins
#   the queues still there.

WL_MQ_DIR=/mnt/wl-mqueue
WL_MQ_DIR2=/mnt/wl-mqueue2
WL_MQ_NSDIR=/mnt/wl-mqueue-ns
WL_MQ_INIT_MADE=2
WL_MQ_INIT_DISCARDED=2
WL_MQ_NS_MADE=4
WL_MQ_NS_DISCARDED=2
WL_MQ_NS_LEFT=2

. /workloads/common.sh

wl_mqueue_setup() { mkdir -p "$WL_MQ_DIR" "$WL_MQ_DIR2" "$WL_MQ_NSDIR"; }

# In the new ipc namespace (unshare -i): a fresh mqueue superblock.
wl_mqueue_newns() {
	local m=$WL_MQ_NSDIR
	wl_do mount -t mqueue pdt-wl-mqueue-ns "$m"
	wl_note_dev mqueue-ns "$m"
	wl_do pdt-fsop mq-open /q1 /q2 /q3         # made 3
	wl_do touch "$m/q4"                        # 4
	wl_do pdt-fsop mq-unlink /q1               # discarded 1
	wl_do rm "$m/q2"                           # 2
	wl_present mqueue-ns "$m" "$WL_MQ_NS_LEFT" # q3 q4
	wl_end
}

wl_mqueue_run() {
	local m=$WL_MQ_DIR
	wl_need_dirs "$m" "$WL_MQ_DIR2" "$WL_MQ_NSDIR" || return 1

	# The initial ipc namespace's superblock, shared with its internal mount.
	wl_do mount -t mqueue pdt-wl-mqueue "$m"
	wl_note_dev mqueue-init "$m"
	wl_do mount -t mqueue pdt-wl-mqueue "$WL_MQ_DIR2"
	wl_same_sb "$m" "$WL_MQ_DIR2"
	wl_do umount "$WL_MQ_DIR2"
	wl_do pdt-fsop mq-open /pdt-wl-a           # made 1
	wl_do touch "$m/pdt-wl-b"                  # 2
	wl_exists "$m/pdt-wl-a"
	wl_refused EPERM pdt-fsop mkdir "$m/d"
	wl_do pdt-fsop mq-unlink /pdt-wl-a         # discarded 1
	wl_do rm "$m/pdt-wl-b"                     # 2
	wl_do umount "$m"

	# A new ipc namespace, hence a new superblock, mounted where this namespace sees it.
	wl_do unshare -i sh -c ". /workloads/mqueue.sh && wl_mqueue_newns"
	# The namespace is gone; its superblock dies with whichever of its internal mount
	# (dropped from a workqueue) and this mount goes last.
	wl_do pdt-fsop umount-wait "$WL_MQ_NSDIR" 10
	wl_end
}

wl_mqueue_expect() {
	local out
	out=$(cat)
	echo "mqueue $(echo "$out" | wl_obs dev mqueue-init) $WL_MQ_INIT_MADE $WL_MQ_INIT_DISCARDED 0"
	echo "mqueue $(echo "$out" | wl_obs dev mqueue-ns) $WL_MQ_NS_MADE $WL_MQ_NS_DISCARDED $WL_MQ_NS_LEFT"
}
