# Renames on tmpfs (tests/vm/workloads/rename_tmpfs.sh, rename.sh) under pdtrace stat and check:
# exact persist/discard counts; exchanges and moved subtrees removed with their old parents
# must leave no finding.
# timeout: 150
. /lib.sh
run_workload rename_tmpfs
run_workload_mounted rename_tmpfs 14
finish
