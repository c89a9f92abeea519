# ramfs workload (tests/vm/workloads/ramfs.sh) under pdtrace stat: exact persist/discard counts.
# timeout: 60
. /lib.sh
run_workload ramfs
finish
