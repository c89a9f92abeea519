# binfmt_misc workload (tests/vm/workloads/binfmt_misc.sh) under pdtrace stat: exact persist/discard counts.
# timeout: 60
# modules: binfmt_misc
. /lib.sh
run_workload binfmt_misc
finish
