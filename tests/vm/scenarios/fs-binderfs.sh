# binderfs (tests/vm/workloads/binderfs.sh): skipped on Debian's kernel, which has the
# binder driver but not binderfs; the skip is checked in the guest, never assumed.
# timeout: 30
# modules: binder_linux
. /lib.sh
run_workload binderfs
finish
