# configfs with the NVMe target (tests/vm/workloads/nvmet.sh) under pdtrace stat: exact
# persist/discard counts, refused rmdirs, the right teardown order.
# timeout: 60
# modules: nvmet nvme-loop
. /lib.sh
run_workload nvmet
finish
