# tracefs workload (tests/vm/workloads/tracefs.sh) under pdtrace stat: exact persist/discard counts.
# timeout: 60
. /lib.sh
run_workload tracefs
finish
