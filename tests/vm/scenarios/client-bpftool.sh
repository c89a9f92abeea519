# bpffs pins through bpftool, as its users run it: maps made and pinned (`map create`),
# pinned again by name (`map pin name`), a program pinned by id (`prog pin id`: one of
# pdtrace's own, the only programs loaded here), in the root and in a directory, listed
# with `bpftool -f`, then removed with rm; three rounds under pdtrace check on the bpffs
# at /sys/fs/bpf, which stays mounted. No finding, complete data, the self-check clean,
# and bpffs discarded every pin.
# suite: clients
# root: sid
# timeout: 600
. /lib.sh
need_sid bpftool
ROUNDS=3
! client_prep_only || ROUNDS=1
bfs=$SID/sys/fs/bpf
grep -q " $bfs " /proc/mounts || mount -t bpf bpf "$bfs" || { fail "mount bpffs"; finish; }

# bpftool_check JSON: after the run, what bpftool said it did; its line of the table.
bpftool_check() {
	local out=/tmp/client-bpftool.out pins
	expect_no_grep '^@client bpftool failed\|^@client umount failed' $out "bpftool: every command succeeded"
	pins=$(awk '$1 == "@client" && $2 == "pinned" { n += $4 } END { print n + 0 }' $out)
	# Each round: 2 maps with 2 pins each, a program with 2 pins, as bpftool -f lists them.
	expect_eq "$(grep -c '^@client pinned [0-9]* 6$' $out)" "$ROUNDS" "bpftool -f lists the 6 pins of each round"
	expect_eq "$(grep '^pin left: ' $out)" "" "bpftool: no pin left"
	client_summary bpftool bpffs "$ROUNDS x (2 map create, 2 map pin, 2 prog pin, mkdir; rm -r): $pins pins listed by bpftool -f" \
		"$1" "$(dev_of "$bfs")"
}

client_home_dir bpftool
cat >/tmp/client-bpftool.sh <<EOS
. /lib.sh
client_home bpftool || exit 1
bt() { sid bpftool "\$@" || echo "@client bpftool failed: \$*"; }
b=/sys/fs/bpf
prog=\$(sid bpftool prog show | awk -F: '\$1 ~ /^[0-9]+\$/ { print \$1; exit }')
[ -n "\$prog" ] || echo "@client bpftool failed: no program loaded"
for r in \$(seq 1 $ROUNDS); do
	sid mkdir \$b/pdt-d\$r
	bt map create \$b/pdt-m\$r type hash key 4 value 8 entries 16 name pdtm\$r
	bt map create \$b/pdt-d\$r/a type array key 4 value 4 entries 4 name pdta\$r
	bt map pin name pdtm\$r \$b/pdt-d\$r/m
	bt map pin name pdta\$r \$b/pdt-a\$r
	bt prog pin id \$prog \$b/pdt-p\$r
	bt prog pin id \$prog \$b/pdt-d\$r/p
	n=\$( { sid bpftool -f map show; sid bpftool -f prog show; } | grep -o 'pinned /sys/fs/bpf/pdt-[^ ]*' | wc -l)
	echo "@client pinned \$r \$n"
	sid rm \$b/pdt-m\$r \$b/pdt-a\$r \$b/pdt-p\$r
	sid rm -r \$b/pdt-d\$r
done
ls $bfs | sed 's/^/pin left: /'
client_home_down || echo "@client umount failed"
EOS
! client_prep_only || return 0
client_run client-bpftool /tmp/client-bpftool.sh
client_clean "bpftool on bpffs" /tmp/client-bpftool.json
bpftool_check /tmp/client-bpftool.json
finish
