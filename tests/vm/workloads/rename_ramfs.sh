# Renames of every kind on a fresh ramfs superblock: the workload is rename.sh (the counts
# and where they come from are there).

WL_RENAME_RAMFS_DIR=/mnt/wl-rename-ramfs

. /workloads/rename.sh

wl_rename_ramfs_setup() { mkdir -p "$WL_RENAME_RAMFS_DIR"; }
wl_rename_ramfs_run() { wl_rn_run ramfs "$WL_RENAME_RAMFS_DIR"; }
wl_rename_ramfs_expect() { wl_rn_expect ramfs; }
