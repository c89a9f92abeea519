# An example of a driver's tests under pdtrace: NVMe target subsystems, namespaces and
# hosts made and removed through configfs, as a test suite of the nvmet driver would, under
# `pdtrace check -f junit`; the JUnit report goes to /results, which the harness hands
# back (tests/vm/run.sh --results DIR). Your scenarios are shell scripts like this one:
# header lines, then anything the guest's busybox can run; /ci is your scenarios'
# directory, /lib.sh the harness's helpers.
# timeout: 120
# modules: nvmet
. /lib.sh
mount | grep -q ' /sys/kernel/config ' || mount -t configfs configfs /sys/kernel/config
cat >/tmp/driver-tests.sh <<'EOS'
set -e
s=/sys/kernel/config/nvmet/subsystems h=/sys/kernel/config/nvmet/hosts
for i in 1 2 3; do
	mkdir "$s/ci-$i" "$s/ci-$i/namespaces/1" "$h/ci-host-$i"
	ln -s "$h/ci-host-$i" "$s/ci-$i/allowed_hosts/ci-host-$i"
done
for i in 1 2 3; do
	rm "$s/ci-$i/allowed_hosts/ci-host-$i"
	rmdir "$s/ci-$i/namespaces/1" "$s/ci-$i" "$h/ci-host-$i"
done
EOS
$PDTRACE check -f junit -o /results/pdtrace-nvmet.xml -- sh /tmp/driver-tests.sh
rc=$?
echo "pdtrace check exited $rc"
exit "$rc"
