# functionfs through a configfs USB gadget on dummy_hcd (tests/vm/workloads/functionfs.sh)
# under pdtrace stat: exact persist/discard counts on configfs, functionfs and devtmpfs.
# timeout: 90
# modules: dummy_hcd libcomposite usb_f_fs
. /lib.sh
run_workload functionfs
finish
