# tmpfs workload (tests/vm/workloads/tmpfs.sh) under pdtrace stat: exact persist/discard counts.
# timeout: 60
. /lib.sh
run_workload tmpfs
finish
