# The demo run by `make demo`: pdtrace in Debian's packaged kernel, on a clean real
# workload and on pdtfaultfs (tests/kmod) with one bug of each kind injected.
# timeout: 240
# kmods: pdt_faultfs
. /lib.sh
echo "== pdtrace doctor"
$PDTRACE doctor || exit 1

echo
echo "== pdtrace check -- <tmpfs: mkdir, files, symlink, hard link, rename, rm, umount>"
mkdir -p /mnt/demo /mnt/faulty
$PDTRACE check -- sh -c '
	mount -t tmpfs demo /mnt/demo && mkdir -p /mnt/demo/a/b && echo x >/mnt/demo/a/f &&
	ln -s f /mnt/demo/a/l && ln /mnt/demo/a/f /mnt/demo/h && mv /mnt/demo/a/f /mnt/demo/g &&
	rm -r /mnt/demo/a && umount /mnt/demo'
echo "(exit status $?)"

echo
echo "== pdtrace check -- <pdtfaultfs: a user directory under the kernel's kdir, then four bugs>"
echo "   orphan od            discards od while od/child stays persistent     -> leak"
echo "   discard-unpersisted  d_make_discardable() on a non-persistent dentry -> imbalance"
echo "   eat ea               a dput() eats ea's persistence reference         -> imbalance"
echo "   remove kdir          a recursive removal destroys /kdir/u            -> illegal-removal"
mount -t pdtfaultfs demo /mnt/faulty || exit 1
$PDTRACE check -- sh -c '
	mkdir /mnt/faulty/kdir/u &&
	echo orphan od >/mnt/faulty/ctl &&
	echo discard-unpersisted nx >/mnt/faulty/ctl &&
	echo eat ea >/mnt/faulty/ctl &&
	echo remove kdir >/mnt/faulty/ctl'
rc=$?
echo "(exit status $rc)"
umount /mnt/faulty
[ "$rc" -eq 1 ]
