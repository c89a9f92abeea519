# securityfs workload (tests/vm/workloads/securityfs.sh) under pdtrace stat: exact persist/discard counts.
# timeout: 60
# boot: own
. /lib.sh
run_workload securityfs
finish
