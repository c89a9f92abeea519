# Renames of every kind on a fresh tmpfs superblock: the workload is rename.sh (the counts
# and where they come from are there).

WL_RENAME_TMPFS_DIR=/mnt/wl-rename-tmpfs

. /workloads/rename.sh

wl_rename_tmpfs_setup() { mkdir -p "$WL_RENAME_TMPFS_DIR"; }
wl_rename_tmpfs_run() { wl_rn_run tmpfs "$WL_RENAME_TMPFS_DIR"; }
wl_rename_tmpfs_expect() { wl_rn_expect tmpfs; }
