# Superblocks come and go by the hundred thousand: nothing of one gone clean stays in
# pdtrace. First 5,000 tmpfs mount/umount cycles (three files made in each) under
# watch --prometheus, trace -o and a check around them; then trace alone through 95,000
# more (ramfs, one file each: the cheapest cycle, for the time software emulation takes;
# about two minutes in all on an idle host, three tracers cost 4 ms a cycle, one 1.2 ms).
# Each one's RSS once warm (2,000 cycles) is its RSS at the end, the data is complete (no
# map full, no event lost), and the BPF side hands the slots of gone superblocks to the
# next ones.
# timeout: 420
. /lib.sh
mkdir -p /mnt/c
# flat NAME BEFORE AFTER CYCLES: a leak of a few bytes per superblock shows as hundreds of
# KiB over tens of thousands; the heap's own slack stays well below.
flat() {
	[ $(($3 - $2)) -le 256 ] && pass "$1: RSS flat from 2,000 to $4 cycles ($2 -> $3 KiB)" ||
		fail "$1: RSS grew from $2 to $3 KiB between 2,000 and $4 cycles"
}

# check's COMMAND: 5 rounds of 1,000 cycles, each round's end in /tmp/round.
cat >/tmp/cycles.sh <<'EOF'
for r in 1 2 3 4 5; do
	pdt-fsop mount-cycle tmpfs /mnt/c 1000 3 || exit 1
	echo $r >/tmp/round
	while [ ! -e /tmp/go.$r ]; do sleep 0.1; done
done
EOF
watch_trace_check /tmp/cycles.sh
start=$(date +%s)
for r in 1 2 3 4 5; do
	for i in $(seq 1 1200); do [ "$(cat /tmp/round 2>/dev/null)" = $r ] && break; sleep 0.1; done
	sleep 1.2 # a render of watch's, a few polls: what went is folded by now
	echo "# ${r},000 cycles, RSS KiB: watch $(rss $wpid) trace $(rss $tpid) check $(rss $cpid)"
	[ $r = 2 ] && w2=$(rss $wpid) t2=$(rss $tpid) c2=$(rss $cpid)
	[ $r = 5 ] && w5=$(rss $wpid) c5=$(rss $cpid)
	touch /tmp/go.$r
done
echo "# 5,000 cycles under three tracers in $(($(date +%s) - start)) s"
wait $cpid
expect_eq "$?" 0 "check: exit 0 (no finding, data complete)"
flat watch "$w2" "$w5" 5,000
flat check "$c2" "$c5" 5,000
grep -q 'mountpoint="/mnt/c"' /tmp/p.prom && fail "gone tmpfs still in the Prometheus file" ||
	pass "Prometheus file: no gone superblock"
kill -TERM $wpid
wait $wpid
expect_eq "$?" 0 "watch: exit 0 after SIGTERM"
expect_grep '^pdtrace_lost_events_total 0$' /tmp/p.prom "watch: its last Prometheus file, nothing lost"
expect_grep '"complete":true' /tmp/c.json "check: data complete"
expect_grep '"lost_events":0' /tmp/c.json "check: no event lost"
expect_grep '"map_full":0' /tmp/c.json "check: no map full"
retired=$(sed -n 's/.*"retired_superblocks":{"superblocks":\([0-9]*\).*/\1/p' /tmp/c.json)
[ "${retired:-0}" -ge 4500 ] && pass "check: $retired superblocks folded into one count" ||
	fail "check: ${retired:-none} superblocks folded, 5,000 came and went"
made=$(sed -n 's/.*"retired_superblocks":{[^}]*"made":\([0-9]*\).*/\1/p' /tmp/c.json)
expect_eq "$made" $((3 * retired)) "check: the folded superblocks made three entries each"

start=$(date +%s)
for r in 1 2 3 4 5; do
	pdt-fsop mount-cycle ramfs /mnt/c 19000 1 || fail "mount-cycle ramfs"
	sleep 0.5
	echo "# trace alone: $((5000 + r * 19000)) cycles, RSS $(rss $tpid) KiB"
done
echo "# 95,000 cycles under trace in $(($(date +%s) - start)) s"
flat trace "$t2" "$(rss $tpid)" 100,000
kill -TERM $tpid
wait $tpid
expect_eq "$?" 0 "trace: exit 0 after SIGTERM"
tail -n 1 /tmp/t.json | grep -q '"complete":true,"lost_events":0' && pass "trace: its -o file ends with the summary: complete, nothing lost" ||
	fail "trace: last line $(tail -n 1 /tmp/t.json)"
slots=$(grep 'superblock slots:' /tmp/t.err)
echo "# trace: $slots"
taken=$(echo "$slots" | sed -n 's/.* \([0-9]*\) of those taken again/\1/p')
[ "${taken:-0}" -ge 99000 ] && pass "BPF slots of gone superblocks taken again ($taken)" ||
	fail "BPF slots reused ${taken:-0} times over 100,000 superblocks"
finish
