# Renames on ramfs (tests/vm/workloads/rename_ramfs.sh, rename.sh) under pdtrace stat and check:
# exact persist/discard counts; exchanges and moved subtrees removed with their old parents
# must leave no finding.
# timeout: 150
. /lib.sh
run_workload rename_ramfs
run_workload_mounted rename_ramfs 12
finish
