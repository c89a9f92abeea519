# binderfs (tests/vm/workloads/binderfs.sh) under pdtrace stat and check: exact
# persist/discard counts and books, no finding. Skipped on Debian's kernel, which has
# the binder driver but not binderfs; the skip is checked in the guest, never assumed.
# timeout: 60
# modules: binder_linux?
. /lib.sh
run_workload binderfs
# Left in the stats=global mount: binder-control, the driver's 3 default devices,
# features/ (5), binder_logs/ (9) and the device the run adds.
run_workload_mounted binderfs 19
finish
