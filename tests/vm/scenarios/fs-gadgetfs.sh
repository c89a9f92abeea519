# gadgetfs on dummy_hcd (tests/vm/workloads/gadgetfs.sh) under pdtrace stat: exact
# persist/discard counts, the ep0 file left for the umount walk.
# timeout: 60
# modules: dummy_hcd gadgetfs
. /lib.sh
run_workload gadgetfs
finish
