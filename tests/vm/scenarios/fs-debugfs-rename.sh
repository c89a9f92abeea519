# debugfs_change_name() driven by renaming an HSR network device
# (tests/vm/workloads/debugfs_rename.sh) under pdtrace stat and check: exact persist/discard
# counts, and the renamed entries removed with no finding.
# timeout: 60
# modules: hsr dummy
. /lib.sh
run_workload debugfs_rename
finish
