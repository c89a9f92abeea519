# bpffs workload (tests/vm/workloads/bpffs.sh) under pdtrace stat: exact persist/discard counts.
# timeout: 60
. /lib.sh
run_workload bpffs
finish
