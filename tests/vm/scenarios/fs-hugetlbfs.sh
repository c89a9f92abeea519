# hugetlbfs workload (tests/vm/workloads/hugetlbfs.sh) under pdtrace stat: exact persist/discard counts.
# timeout: 60
. /lib.sh
run_workload hugetlbfs
finish
