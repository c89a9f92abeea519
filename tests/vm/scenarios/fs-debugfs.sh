# debugfs workload (tests/vm/workloads/debugfs.sh) under pdtrace stat: exact persist/discard counts.
# timeout: 60
# modules: zram
. /lib.sh
run_workload debugfs
finish
