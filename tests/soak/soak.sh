# make soak: a compressed week of a test machine's life under pdtrace watch --prometheus,
# trace -o and a check around it all. Each "day": containers (a mount namespace with a
# tmpfs root, proc, mqueue, devpts, an overlay on tmpfs, a bind mount, files made and
# removed), a module loaded and unloaded with configfs groups made in it, tracefs
# instances, POSIX message queues, file churn on a tmpfs. After each day, each tracer's
# RSS and open files; at the end the slope after the first two days (the warm-up), per
# day and per thousand mounts. A benchmark, not a timed test: it fails only when
# something grows with the work done (more than 256 KiB or any open file after warm-up).
# Its figures go to /results (make soak prints them). SOAK_DAYS, SOAK_CONTAINERS: the size.
# timeout: 1800
# modules: nvmet overlay
. /lib.sh
DAYS=${SOAK_DAYS:-7} CONTAINERS=${SOAK_CONTAINERS:-40}
out=/results/soak.txt
mkdir -p /results /mnt/churn /c
: >$out
cfs=/sys/kernel/config trc=/sys/kernel/tracing
grep -qs " $cfs " /proc/self/mountinfo || mount -t configfs none $cfs
grep -qs " $trc " /proc/self/mountinfo || mount -t tracefs none $trc
mods_out nvmet 2>/dev/null
fds() { ls /proc/"$1"/fd | wc -l; }

# One container's life: its own mount namespace, its mounts gone with it.
cat >/tmp/container.sh <<'SH'
set -e
mount -t tmpfs root /c
mkdir -p /c/proc /c/dev/pts /c/dev/mqueue /c/lower /c/upper /c/merged /c/data /c/bind
mount -t proc proc /c/proc
mount -t devpts -o newinstance devpts /c/dev/pts
mount -t mqueue mqueue /c/dev/mqueue
mount -t tmpfs lower /c/lower && mkdir /c/lower/etc && echo x >/c/lower/etc/conf
mount -t tmpfs upper /c/upper && mkdir /c/upper/u /c/upper/w
mount -t overlay -o lowerdir=/c/lower,upperdir=/c/upper/u,workdir=/c/upper/w overlay /c/merged
mount --bind /c/data /c/bind
for i in 1 2 3 4 5 6 7 8 9 10; do echo $i >/c/merged/f$i; mkdir /c/bind/d$i; done
echo y >/c/merged/etc/conf
rm -f /c/merged/f*; rmdir /c/bind/d*
SH

# check's COMMAND: the week, one day at a time, each day's end in /tmp/day.
cat >/tmp/week.sh <<SH
for d in \$(seq 1 $DAYS); do
	for c in \$(seq 1 $CONTAINERS); do unshare -m sh /tmp/container.sh || exit 1; done
	insmod $(mods_ko nvmet) || exit 1
	for g in 1 2 3 4 5; do mkdir $cfs/nvmet/subsystems/soak\$g; done
	for g in 1 2 3 4 5; do rmdir $cfs/nvmet/subsystems/soak\$g; done
	rmmod nvmet || exit 1
	for i in 1 2 3; do mkdir $trc/instances/soak\$i; done
	for i in 1 2 3; do rmdir $trc/instances/soak\$i; done
	pdt-fsop mq-open /soak1 /soak2 /soak3 && pdt-fsop mq-unlink /soak1 /soak2 /soak3
	mount -t tmpfs churn /mnt/churn
	pdt-fsop cycle /mnt/churn/d 2000
	for i in \$(seq 1 200); do : >/mnt/churn/f\$i; done
	rm -f /mnt/churn/f*
	umount /mnt/churn
	pdt-fsop mount-cycle tmpfs /mnt/churn 200 3 || exit 1
	echo \$d >/tmp/day
	while [ ! -e /tmp/next.\$d ]; do sleep 0.1; done
done
SH

watch_trace_check /tmp/week.sh
start=$(date +%s)
echo "day mounts seconds watch_rss trace_rss check_rss watch_fds trace_fds check_fds" >>$out
for d in $(seq 1 $DAYS); do
	for i in $(seq 1 6000); do [ "$(cat /tmp/day 2>/dev/null)" = $d ] && break; sleep 0.1; done
	[ "$(cat /tmp/day 2>/dev/null)" = $d ] || { fail "day $d did not end"; break; }
	sleep 1.5 # a render of watch's and a few polls: what went is folded by now
	# Mounts by the day's end: per container 8 (tmpfs root, proc, devpts, mqueue, two
	# tmpfs, the overlay, the bind mount), and 200 tmpfs cycles and the churn tmpfs a day.
	echo "$d $((d * (CONTAINERS * 8 + 201))) $(($(date +%s) - start)) $(rss $wpid) $(rss $tpid) $(rss $cpid) $(fds $wpid) $(fds $tpid) $(fds $cpid)" >>$out
	touch /tmp/next.$d
done
# Each one's own status line, as read: what the table's columns come from.
for p in $wpid $tpid $cpid; do echo "# $(tr '\0' ' ' </proc/$p/cmdline | cut -c1-60): $(grep VmRSS /proc/$p/status)"; done >/tmp/raw
wait $cpid
expect_eq "$?" 0 "check around the week: exit 0 (no finding, data complete)"
kill -TERM $wpid $tpid
wait $wpid
expect_eq "$?" 0 "watch: exit 0 after SIGTERM"
wait $tpid
expect_eq "$?" 0 "trace: exit 0 after SIGTERM"
cat $out
# The slope after warm-up (days 3 on), least squares, per day and per 1,000 mounts,
# and the growth from day 3 to the last.
awk '
	NR == 1 { for (i = 1; i <= NF; i++) col[i] = $i; next }
	$1 == 3 { for (i = 4; i <= NF; i++) first[i] = $i; sb3 = $2 }
	$1 >= 3 { n++; sx += $1; sxx += $1 * $1; for (i = 4; i <= NF; i++) { sy[i] += $i; sxy[i] += $1 * $i; last[i] = $i }; sbl = $2; dl = $1 }
	END {
		if (n < 2) { print "slope: too few days after warm-up"; exit }
		per_day_sb = (sbl - sb3) / (dl - 3)
		for (i = 4; i <= NF; i++) {
			s = (n * sxy[i] - sx * sy[i]) / (n * sxx - sx * sx)
			printf "slope %s %.1f per day, %.2f per 1000 mounts; day 3 %d, day %d %d, grew %d\n", col[i], s, s * 1000 / per_day_sb, first[i], dl, last[i], last[i] - first[i]
		}
	}' $out | tee /tmp/slopes | tee -a $out
awk '{ lim = ($2 ~ /fds/) ? 0 : 256; if ($NF > lim) print $2 " grew " $NF " after warm-up" }' /tmp/slopes >/tmp/grew
[ -s /tmp/slopes ] && [ ! -s /tmp/grew ] && pass "RSS and open files flat after warm-up: watch, trace, check" || fail "$(cat /tmp/grew /tmp/slopes)"
expect_grep '"complete":true' /tmp/c.json "check: data complete"
tail -n 1 /tmp/t.json | grep -q '"complete":true,"lost_events":0' && pass "trace: complete, nothing lost" ||
	fail "trace: last line $(tail -n 1 /tmp/t.json)"
expect_grep '^pdtrace_lost_events_total 0$' /tmp/p.prom "watch: its last Prometheus file, nothing lost"
cat /tmp/raw
grep 'superblock slots:' /tmp/t.err | sed 's/^pdtrace: /BPF: /' | tee -a $out
echo "check folded $(sed -n 's/.*"retired_superblocks":{"superblocks":\([0-9]*\).*/\1/p' /tmp/c.json) superblocks gone clean into one count" | tee -a $out
finish
