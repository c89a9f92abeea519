#!/bin/sh
# Runs in the benchmark guest, chrooted into the sid root (see guest-init): every
# benchmark under every variant, interleaved round by round. One line per figure
# on stdout (the host's tests/bench/report.sh reads them):
#   @@R BENCH VARIANT ROUND OPS SECS USER_US SYS_US  a timed run, and the CPU time
#                                        of the benchmark's own processes
#   @@A VARIANT ROUND MS                 tracer start to attached
#   @@M VARIANT ROUND RSS_KB HWM_KB      tracer process memory at the end of the round
#   @@MAP VARIANT TYPE KEY VALUE MAX MEMLOCK   the tracer's BPF maps
#   @@PROG VARIANT ROUND NAME NS RUNS    each BPF program of the tracer over the round
#                                        (run.sh --bpf-stats)
#   @@VI VARIANT NAME INSNS              each BPF program's verified instructions (the
#                                        verifier's work at start, fdinfo verified_insns)
#   @@U VARIANT ROUND KB_BEFORE KB_AFTER ENTRIES  tracer RSS around the umount fill
#   @@L VARIANT ROUND LOST               pdtrace's lost events (its JSON summary)
#   @@C BENCH VARIANT ROUND UTICKS STICKS NS MINFLT BPF_NS BPF_RUNS
#                                        the tracer during a run and the 0.5 s after it:
#                                        CPU time (user, system ticks; ns on a CPU), minor
#                                        faults, its BPF programs' time and runs (bpf_stats)
#   @@E NAME OPS SECS EVENTS LOST        pdtrace check on a churn workload
#   @@I / @@W                            information, warnings
# Variants: base (untraced), pdt (pdtrace trace), dput (pdtrace trace --dput),
# bt (bpftrace tests/bench/pdtrace.bt), or NAME for /bench/pdtrace.NAME trace.
. /bench/params
B=/bench/pdtbench
P=/bench/pdtrace
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

ln -s /proc/self/fd /dev/fd 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mount -t configfs configfs /sys/kernel/config
mkdir -p /mnt/w /mnt/u
mount -t tmpfs bench /mnt/w
mkdir -p /mnt/w/s/a/b/c /mnt/w/c /mnt/w/m
for i in 0 1 2 3 4 5 6 7; do : >/mnt/w/s/a/b/c/f$i; done
tmpfs_paths=$(echo /mnt/w/s/a/b/c/f0 /mnt/w/s/a/b/c/f1 /mnt/w/s/a/b/c/f2 /mnt/w/s/a/b/c/f3 \
	/mnt/w/s/a/b/c/f4 /mnt/w/s/a/b/c/f5 /mnt/w/s/a/b/c/f6 /mnt/w/s/a/b/c/f7)
# Eight existing debugfs files two or three levels down (not the tracing automount).
debugfs_paths=$(find /sys/kernel/debug -mindepth 2 -maxdepth 3 -type f -path '*/debug/*/*' \
	! -path '*/tracing/*' 2>/dev/null | sort | head -n 8 | tr '\n' ' ')
echo "@@I debugfs_paths $debugfs_paths"
cfs=/sys/kernel/config/nvmet/subsystems
[ -d $cfs ] || echo "@@W no $cfs: the configfs benchmark will fail"

all="stat-tmpfs stat-debugfs create-1 create-2 mkdir-1 mkdir-2 umount configfs tracefs"
[ "$only" = all ] && only=$all

# run.sh --bpf-stats: the kernel times every BPF program run (run_time_ns in fdinfo),
# at a cost of its own on each run: for attribution, not for the ops/s figures.
[ "$bpfstats" != 1 ] || echo 1 >/proc/sys/kernel/bpf_stats_enabled
echo "@@I bpf_stats $(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null)"
echo "@@I rcu qhimark $(cat /sys/module/rcutree/parameters/qhimark 2>/dev/null) qovld $(cat /sys/module/rcutree/parameters/qovld 2>/dev/null)"
echo "@@I clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null) cmdline $(cat /proc/cmdline)"

ms() { echo $(($(date +%s%N) / 1000000)); }

tpid=
# Start variant $1's tracer; wait until it says it is attached.
start_tracer() {
	tpid=
	case $1 in
	base) return 0 ;;
	pdt) $P trace -f json >/tmp/tr.out 2>/tmp/tr.err & tpid=$!; pat='^pdtrace: tracing' ;;
	dput) $P trace -f json --dput >/tmp/tr.out 2>/tmp/tr.err & tpid=$!; pat='^pdtrace: tracing' ;;
	bt) BPFTRACE_MAX_MAP_KEYS=262144 bpftrace --traceable-functions /tmp/traceable \
		/bench/pdtrace.bt >/tmp/tr.out 2>/tmp/tr.err & tpid=$!; pat='^Attach' ;;
	*) # another pdtrace binary (run.sh --bin NAME=PATH)
		[ -x /bench/pdtrace.$1 ] || { echo "@@W $1: no such variant"; return 1; }
		/bench/pdtrace.$1 trace -f json >/tmp/tr.out 2>/tmp/tr.err & tpid=$!; pat='^pdtrace: tracing' ;;
	esac
	t0=$(ms)
	# bpftrace says "Attaching N probes..." (stdout or stderr, by version) just before
	# it attaches: its figure is a little short, by the attach itself.
	while ! grep -qs "$pat" /tmp/tr.out /tmp/tr.err; do
		if ! kill -0 $tpid 2>/dev/null; then
			echo "@@W $1: tracer died before attaching"; tail -n 20 /tmp/tr.out /tmp/tr.err
			tpid=; return 1
		fi
		sleep 0.05
	done
	echo "@@A $1 $round $(($(ms) - t0))"
}

rss() { awk '/^VmRSS/ { r = $2 } /^VmHWM/ { h = $2 } END { print r + 0, h + 0 }' /proc/$1/status; }

# A BPF program's name from kallsyms (bpf_prog_TAG_NAME, /tmp/bpfsyms). The tag is a
# hash of the instructions: programs that are the same code (a floor's, or one LSM mark
# on two hooks) share it, and are named together, joined by "/" (past two, the first
# and how many more: NAME+N_same).
prog_name() { # TAG
	awk -v p="bpf_prog_${1}_" 'index($3, p) == 1 {
			n = substr($3, length(p) + 1)
			if (!(n in seen)) { seen[n]; all[++k] = n }
		}
		END { if (k > 2) print all[1] "+" k - 1 "_same"; else if (k) print all[1] (k > 1 ? "/" all[2] : "") }' /tmp/bpfsyms
}

# The tracer's BPF programs, one line each: TAG and the fdinfo fields named. (A link's
# fdinfo names its program's tag too, but it is no program: prog_type says which are.)
prog_fds() { # FIELD...
	for fd in /proc/$tpid/fdinfo/*; do
		awk -v f="$*" 'BEGIN { n = split(f, want, " ") }
			/^prog_tag:/ { t = $2 } { k = $1; sub(/:$/, "", k); v[k] = $2 }
			END { if (t == "" || !("prog_type" in v)) exit
				o = t; for (i = 1; i <= n; i++) o = o " " v[want[i]] + 0; print o }' $fd 2>/dev/null
	done
}

stop_tracer() {
	[ -n "$tpid" ] || return 0
	echo "@@M $1 $round $(rss $tpid)"
	# The programs' names, for round 1's @@VI and --bpf-stats' @@PROG (kallsyms is long
	# to read under emulation: not in the other rounds).
	if [ "$round" = 1 ] || [ "$bpfstats" = 1 ]; then
		grep ' bpf_prog_' /proc/kallsyms >/tmp/bpfsyms
	fi
	if [ "$round" = 1 ]; then
		for fd in /proc/$tpid/fdinfo/*; do
			awk -v v=$1 '/^map_type/ { t = $2 } /^key_size/ { k = $2 } /^value_size/ { vs = $2 }
				/^max_entries/ { m = $2 } /^memlock/ { ml = $2 }
				END { if (t != "") print "@@MAP", v, t, k, vs, m, ml }' $fd 2>/dev/null
		done
		prog_fds verified_insns | while read -r tag n; do
			name=$(prog_name $tag)
			echo "@@VI $1 ${name:-$tag} $n"
		done
	fi
	if [ "$bpfstats" = 1 ]; then
		# Each BPF program of the tracer over the round: its run time and runs.
		prog_fds run_time_ns run_cnt | while read -r tag ns cnt; do
			name=$(prog_name $tag)
			echo "@@PROG $1 $round ${name:-$tag} $ns $cnt"
		done
	fi
	kill -INT $tpid
	wait $tpid
	case $1 in
	bt) ;;
	*) echo "@@L $1 $round $(sed -n 's/.*"lost_events":\([0-9]*\).*/\1/p' /tmp/tr.out | tail -n1)" ;;
	esac
	tpid=
}

# Wait until the CPUs are idle after a tracer stopped: the kernel frees its maps and
# programs in workers after the process is gone (bpftrace's map is 280 MB), and that
# work must not run in the next variant's timed runs. Idle means 95% of a 0.2 s window
# (/proc/stat's idle and iowait ticks); "@@I settle ROUND VARIANT MS" says how long it took.
idle_ticks() { awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
settle() {
	local t0 i=0
	t0=$(ms)
	while [ $i -lt 50 ]; do
		set -- $(idle_ticks)
		sleep 0.2
		set -- "$@" $(idle_ticks)
		[ $((($3 - $1) * 100)) -lt $((($4 - $2) * 95)) ] || break
		i=$((i + 1))
	done
	[ $i -lt 50 ] || echo "@@W round $round $v: the CPUs were still busy 10 s after the tracer stopped"
	echo "@@I settle $round $v $(($(ms) - t0))"
}

# The tracer's CPU time so far: user and system clock ticks (/proc/PID/stat fields
# 14 and 15: every thread of the process; its comm has no spaces), nanoseconds on a
# CPU (/proc/PID/schedstat: the main thread), minor faults (stat field 10); then,
# with bpf_stats on (run.sh --bpf-stats), its BPF programs' run_time_ns and run_cnt
# summed over its program fds.
cpu() {
	if [ -z "$tpid" ]; then
		echo 0 0 0 0 0 0
		return
	fi
	{
		cat /proc/$tpid/stat /proc/$tpid/schedstat
		[ "$bpfstats" != 1 ] || cat /proc/$tpid/fdinfo/* 2>/dev/null
	} | awk 'NR == 1 { u = $14; s = $15; f = $10 } NR == 2 { ns = $1 }
		/^run_time_ns:/ { bt += $2 } /^run_cnt:/ { bc += $2 }
		END { print u + 0, s + 0, ns + 0, f + 0, bt + 0, bc + 0 }'
}
# "@@C BENCH VARIANT ROUND UTICKS STICKS NS MINFLT BPF_NS BPF_RUNS": what cpu() counted
# since it printed $3...
cpu_since() { # bench variant utime0 stime0 ns0 flt0 bpfns0 bpfcnt0
	[ -n "$tpid" ] || return 0
	set -- "$@" $(cpu)
	echo "@@C $1 $2 $round $(($9 - $3)) $((${10} - $4)) $((${11} - $5)) $((${12} - $6)) $((${13} - $7)) $((${14} - $8))"
}

# One run of benchmark $1 under variant $2: "@@R" line from pdtbench's "ops= secs=".
emit() { # bench variant -- output of pdtbench
	sed -n "s/^ops=\([0-9]*\) secs=\([0-9.]*\) [^ ]* user_us=\([0-9]*\) sys_us=\([0-9]*\).*/@@R $1 $2 $round \1 \2 \3 \4/p"
}

run_bench() { # bench variant
	case $1 in
	stat-tmpfs) $B stat -t "$secs" $tmpfs_paths | emit "$@" ;;
	stat-debugfs) $B stat -t "$secs" $debugfs_paths | emit "$@" ;;
	create-1) $B create -t "$secs" /mnt/w/c | emit "$@" ;;
	create-2) $B create -t "$secs" -p 2 /mnt/w/c | emit "$@" ;;
	mkdir-1) $B mkdir -t "$secs" /mnt/w/m | emit "$@" ;;
	mkdir-2) $B mkdir -t "$secs" -p 2 /mnt/w/m | emit "$@" ;;
	umount)
		mount -t tmpfs fill /mnt/u
		before=0
		[ -z "$tpid" ] || before=$(rss $tpid | cut -d' ' -f1)
		c0=$(cpu)
		$B fill -n "$fill" /mnt/u | emit fill "$2"
		sleep 1 # let the tracer drain what the fill made
		cpu_since fill "$2" $c0
		[ -z "$tpid" ] || echo "@@U $2 $round $before $(rss $tpid | cut -d' ' -f1) $fill"
		c0=$(cpu)
		$B umount /mnt/u | emit umount "$2"
		sleep 0.5
		cpu_since umount "$2" $c0
		;;
	configfs) $B cycle -t "$secs" $cfs/pdtbench | emit "$@" ;;
	# An instance is ~100 times the work of a configfs group: run it longer.
	tracefs) $B cycle -t "$(awk "BEGIN { print 4 * $secs }")" /sys/kernel/tracing/instances/pdtbench | emit "$@" ;;
	esac
}

# bpftrace reads available_filter_functions at every start, which the kernel makes
# with a kallsyms lookup per function: under emulation that is most of its start-up.
# Its --traceable-functions FILE reads a copy instead, made once here and timed.
case " $variants " in
*" bt "*)
	t0=$(ms)
	cat /sys/kernel/tracing/available_filter_functions >/tmp/traceable
	echo "@@I traceable_functions $(($(ms) - t0)) ms $(wc -l </tmp/traceable) functions"
	;;
esac
echo "@@I clk_tck $(getconf CLK_TCK 2>/dev/null || echo 100)"
echo "@@I params rounds=$rounds secs=$secs ssecs=$ssecs fill=$fill variants=$variants"
round=1
while [ $round -le "$rounds" ]; do
	for v in $variants; do
		echo "@@I round $round $v"
		start_tracer $v || continue
		sleep 1
		for b in $only; do
			c0=$(cpu)
			run_bench $b $v
			sleep 0.5 # the tracer drains what the run made: its CPU time counts
			[ $b = umount ] || cpu_since $b $v $c0
		done
		stop_tracer $v
		settle
		echo "@@I round $round $v stopped"
	done
	round=$((round + 1))
done

# Events per second pdtrace sustains: the fastest churn the VM reaches, under check.
[ "$sustained" = 1 ] || set --
[ "$sustained" = 1 ] && set -- "create -p 2" "mkdir -p 2"
for w in "$@"; do
	$P check -f json -o /tmp/ck.json -- sh -c "$B $w -t $ssecs /mnt/w/c >/tmp/ck.ops" >/dev/null 2>&1
	ops=$(sed -n 's/^ops=\([0-9]*\) secs=\([0-9.]*\).*/\1 \2/p' /tmp/ck.ops)
	ev=$(grep -o '"\(made\|discarded\|unpinned_at_umount\)":[0-9]*' /tmp/ck.json | awk -F: '{ s += $2 } END { print s + 0 }')
	lost=$(sed -n 's/.*"lost_events":\([0-9]*\).*/\1/p' /tmp/ck.json)
	echo "@@E $(echo $w | cut -d' ' -f1)-2 $ops $ev ${lost:-?}"
done
echo "@@I done"
