# overlayfs with its upper and work directories on a tmpfs (tests/vm/workloads/overlayfs.sh)
# under pdtrace stat and check: exact persist/discard counts on the upper tmpfs from what
# overlayfs does there (work directory, copy-up, whiteouts, RENAME_EXCHANGE, cleanup),
# none on the lower one, and no finding.
# timeout: 200
# modules: overlay
. /lib.sh
run_workload overlayfs
run_workload_mounted overlayfs 28
finish
