# mqueue workload (tests/vm/workloads/mqueue.sh) under pdtrace stat: exact persist/discard counts.
# timeout: 60
. /lib.sh
run_workload mqueue
finish
