# Concurrency: several processes create, rename and remove entries in one tmpfs, in
# tracefs instances and in configfs (nvmet subsystems with namespaces) at once, while
# another mounts and unmounts tmpfs instances in a loop; all under check, on 2 vCPUs.
# Clean: no findings, complete data, every superblock's books back to zero. Then the
# same with pdtfaultfs bugs injected from a concurrent process: exactly those findings.
# timeout: 420
# modules: nvmet
# kmods: pdt_faultfs
# The kernel's WARN in d_make_discardable() at each discard-unpersisted fault (tests/vm/run.sh).
# expect-kernel: WARNING: fs/dcache\.c:[0-9]+ at d_make_discardable\+
. /lib.sh
N=${STRESS_N:-40}
mkdir -p /mnt/s /mnt/m /sys/kernel/tracing /sys/kernel/config
grep -q ' /sys/kernel/tracing ' /proc/mounts || mount -t tracefs tracefs /sys/kernel/tracing
grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs configfs /sys/kernel/config
cat >/tmp/stress.sh <<EOS
tmpfs_worker() { for i in \$(seq 1 $N); do d=/mnt/s/w\$1.\$i; mkdir -p \$d/a && echo x >\$d/f && ln -s f \$d/l && mv \$d/f \$d/a/g && rm -r \$d || echo "tmpfs worker \$1 failed at \$i"; done; }
tracefs_worker() { for i in \$(seq 1 $((N / 4))); do mkdir /sys/kernel/tracing/instances/st\$i && rmdir /sys/kernel/tracing/instances/st\$i || echo "tracefs worker failed at \$i"; done; }
configfs_worker() { s=/sys/kernel/config/nvmet/subsystems; for i in \$(seq 1 $((N / 4))); do mkdir \$s/st\$i && mkdir \$s/st\$i/namespaces/1 && rmdir \$s/st\$i/namespaces/1 && rmdir \$s/st\$i || echo "configfs worker failed at \$i"; done; }
mount_worker() { for i in \$(seq 1 $((N / 2))); do mount -t tmpfs m\$i /mnt/m && mkdir /mnt/m/x /mnt/m/y && touch /mnt/m/x/f && umount /mnt/m || echo "mount worker failed at \$i"; done; }
mount -t tmpfs s /mnt/s
tmpfs_worker 1 & tmpfs_worker 2 & tmpfs_worker 3 & tracefs_worker & configfs_worker & mount_worker &
[ -n "\${FAULTS:-}" ] && { for i in 1 2 3; do echo discard-unpersisted nx\$i >/mnt/f/ctl; done; for i in 1 2; do echo eat xd\$i >/mnt/f/ctl; done; } &
wait
umount /mnt/s
EOS

start=$(date +%s)
$PDTRACE -v check -f json -o /tmp/st.json -- sh /tmp/stress.sh >/tmp/st.out 2>&1
rc=$?
echo "clean run: $(($(date +%s) - start)) s"
cat /tmp/st.out
expect_eq "$rc" 0 "clean stress: check exits 0"
expect_eq "$(grep -c 'failed at' /tmp/st.out)" 0 "every worker step succeeded"
# The run is exact with every hook found by its address, not by the link's cookie, and
# the origin marks made by the BPF LSM where it is active (Debian's kernels).
ips=$(sed -n 's/^pdtrace: \([0-9]*\) of \([0-9]*\) hooked functions dispatched by address; .*/\1 \2/p' /tmp/st.out)
expect_eq "$(echo "$ips" | awk 'NR == 1 && NF == 2 && $1 == $2 && $1 >= 6 { print "all" }')" all \
	"the dispatchers find every hooked function by its address ($ips)"
# Both dispatcher links by the addresses the kernel looked up: no pass over kallsyms.
expect_grep '^pdtrace: 2 of 2 dispatcher links attached by address$' /tmp/st.out \
	"both dispatcher links attached by address"
if grep -qw bpf /sys/kernel/security/lsm 2>/dev/null; then
	expect_grep 'origin marks by the BPF LSM$' /tmp/st.out "the origin marks by the BPF LSM, which is active"
else
	expect_grep 'origin marks by kprobe.multi$' /tmp/st.out "the origin marks by kprobe.multi: no BPF LSM"
fi
expect_grep '"complete":true,"lost_events":0,"map_full":0' /tmp/st.json "clean stress: complete data"
expect_grep '"findings":\[\]' /tmp/st.json "clean stress: no findings"
sbs /tmp/st.json >/tmp/st.sbs
cat /tmp/st.sbs
expect_eq "$(awk '$1 == "tmpfs" && $8 == "true"' /tmp/st.sbs | wc -l)" $((N / 2 + 1)) "every tmpfs mounted during the run was seen unmounted"
bad=$(awk '$7 != 0 { print "persistent_now " $7 ": " $0 }
	$8 == "true" && $3 + $6 != $4 + $5 { print "unbalanced at umount: " $0 }' /tmp/st.sbs)
[ -z "$bad" ] && pass "every superblock's books are back to zero" || fail "books: $bad"
expect_eq "$(awk '$1 == "tmpfs" && $3 == 4 * '"$N"' * 3' /tmp/st.sbs | wc -l)" 1 "the shared tmpfs: 4 entries (d, d/a, d/f, d/l) x $N x 3 workers"
expect_eq "$(awk '$1 == "tracefs" && $3 == 92 * '"$((N / 4))"' && $4 == $3' /tmp/st.sbs | wc -l)" 1 "tracefs: 92 entries per instance, all discarded"

faultfs_mount /mnt/f || finish
FAULTS=1 $PDTRACE check -f json -o /tmp/sf.json -- env FAULTS=1 sh /tmp/stress.sh >/tmp/sf.out 2>&1
expect_eq "$?" 1 "stress with faults: check exits 1"
expect_eq "$(grep -c 'failed at' /tmp/sf.out)" 0 "every worker step succeeded"
expect_grep '"complete":true,"lost_events":0,"map_full":0' /tmp/sf.json "stress with faults: complete data"
expect_eq "$(grep -o '"rule":"[a-z-]*"' /tmp/sf.json | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
	' 3 "rule":"discard-unpersisted"; 2 "rule":"eaten-persistence-ref";' "exactly the injected findings"
expect_grep '"summary":{"leak":0,"imbalance":5,"illegal-removal":0}' /tmp/sf.json "summary: 5 imbalance"
umount /mnt/f
finish
