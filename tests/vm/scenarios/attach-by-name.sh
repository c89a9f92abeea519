# Where the kernel's addresses cannot be looked up (PDTRACE_TESTING=no-resolve stands in for a
# bpf_kallsyms_lookup_name() that fails), both dispatcher links attach by the functions'
# names, and the verdicts are those of the run by address: a clean workload (a tmpfs tree renamed into and removed, a tracefs
# instance made and removed whole, a tmpfs unmounted with entries left) exits 0 with
# complete data; with pdtfaultfs bugs injected (a discard of an unpersisted entry, an
# eaten persistence reference) it exits 1 with exactly those two findings. The hooked
# functions are still found by address in the programs: the links tell the addresses the
# kernel found for the names.
# timeout: 300
# kmods: pdt_faultfs
# The kernel's WARN in d_make_discardable() at each discard-unpersisted fault (tests/vm/run.sh).
# expect-kernel: WARNING: fs/dcache\.c:[0-9]+ at d_make_discardable\+
. /lib.sh
mkdir -p /mnt/bn /sys/kernel/tracing
grep -q ' /sys/kernel/tracing ' /proc/mounts || mount -t tracefs tracefs /sys/kernel/tracing
faultfs_mount /mnt/f || finish
cat >/tmp/bn.sh <<'EOS'
mount -t tmpfs bn /mnt/bn
mkdir -p /mnt/bn/d/a && echo x >/mnt/bn/d/f && mv /mnt/bn/d/f /mnt/bn/d/a/g && rm -r /mnt/bn/d
mkdir -p /mnt/bn/k/l && touch /mnt/bn/k/l/m
mkdir /sys/kernel/tracing/instances/bn && rmdir /sys/kernel/tracing/instances/bn
umount /mnt/bn
[ -z "${FAULTS:-}" ] || { echo discard-unpersisted bnx >/mnt/f/ctl && echo eat bne >/mnt/f/ctl; } ||
	echo "bn: a fault was refused"
EOS

# run MODE [FAULTS]: check -v around the workload; MODE addr or name.
run() {
	local out=/tmp/bn-$1${2:+-f} by=
	[ "$1" = addr ] || by=PDTRACE_TESTING=no-resolve
	env $by $PDTRACE -v check -f json -o $out.json -- env FAULTS=${2:-} sh /tmp/bn.sh >$out.out 2>&1
	echo $? >$out.rc
	cat $out.out
}

for mode in addr name; do
	run $mode
	run $mode 1
	o=/tmp/bn-$mode
	expect_eq "$(cat $o.rc) $(cat $o-f.rc)" "0 1" "$mode: clean run exits 0, faults run 1"
	expect_no_grep 'bn: a fault was refused' $o-f.out "$mode: both faults accepted"
	expect_grep '"complete":true,"lost_events":0,"map_full":0' $o.json "$mode: clean run complete"
	expect_grep '"findings":\[\]' $o.json "$mode: clean run, no findings"
	expect_grep '"complete":true,"lost_events":0,"map_full":0' $o-f.json "$mode: faults run complete"
	expect_eq "$(grep -o '"rule":"[a-z-]*","fs_type":"[^"]*","s_id":"[^"]*","dev":"[^"]*","path":"[^"]*"' $o-f.json |
		sed 's/,"fs_type".*,"path"/,"path"/' | sort | tr '\n' ';')" \
		'"rule":"discard-unpersisted","path":"/bnx";"rule":"eaten-persistence-ref","path":"/bne";' \
		"$mode: exactly the injected findings"
	ips=$(sed -n 's/^pdtrace: \([0-9]*\) of \([0-9]*\) hooked functions dispatched by address; .*/\1 \2/p' $o.out)
	expect_eq "$(echo "$ips" | awk 'NR == 1 && NF == 2 && $1 == $2 && $1 >= 6 { print "all" }')" all \
		"$mode: the programs find every hooked function by its address ($ips)"
done
expect_grep '^pdtrace: 2 of 2 dispatcher links attached by address$' /tmp/bn-addr.out "addr: both links by address"
expect_grep '^pdtrace: 0 of 2 dispatcher links attached by address$' /tmp/bn-name.out "name: both links by name"
faultfs_umount /mnt/f
finish
