# The demo run by `make demo`: pdtrace in Debian's packaged kernel, on a small workload.
# timeout: 120
. /lib.sh
echo "== pdtrace doctor (inside the guest)"
$PDTRACE doctor
rc=$?
echo
echo "== pdtrace stat -- <tmpfs workload: 3 dirs, 2 files, a symlink; remove one dir; umount>"
mkdir -p /mnt/demo
$PDTRACE stat -- sh -c '
	mount -t tmpfs demo /mnt/demo &&
	mkdir -p /mnt/demo/a/b /mnt/demo/c && touch /mnt/demo/a/f /mnt/demo/c/g &&
	ln -s a /mnt/demo/l && rm -r /mnt/demo/c && umount /mnt/demo'
echo "(entries left at umount are unpinned by the umount itself, not by d_make_discardable())"
exit $rc
