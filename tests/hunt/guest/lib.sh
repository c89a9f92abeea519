# The hunt in the guest (busybox sh), sourced by campaign.sh. /ci/hunt/list holds this
# boot's modules, one "IDX NAME [DEP...]" a line (DEP: its dependencies in load order,
# from modules.dep); /ci/kmod is the modules tree, with modules.dep.
#
# Everything goes to stdout, the results channel, which the host reads as it comes (a
# module that takes the guest down leaves its "@hunt begin" without its "@hunt end"):
#   pdtrace trace --events -f json: one JSON object a line per lifecycle event and finding
#   @hunt boot RELEASE DEV...   the tmpfs superblocks of the guest itself, not counted
#   @hunt begin IDX NAME        before the module's turn
#   @hunt note IDX WHAT...      what happened on the way (a dependency that did not load,
#                               an exercise step, a configfs directory made)
#   @hunt kmsg IDX LINE         the kernel's notable lines during the turn
#   @hunt end IDX NAME load=RC unload=RC cs=CENTISECONDS
# Each turn is cut in three by directories made on a tmpfs of its own (/hm), which
# pdtrace sees as persist events in the same ordered stream as the module's: IDX.pre
# (then the dependencies and helpers are loaded), IDX.b (the module is loaded,
# exercised, unloaded), IDX.e.
H=/ci/hunt
PDTRACE=/bin/pdtrace
MARK=/hm
CFS=/sys/kernel/config

. $H/exercise.sh

say() { echo "@hunt $*"; }

now_cs() {
	local u
	read -r u _ </proc/uptime
	echo "${u%.*}${u#*.}"
}

dev_of() { awk -v m="$1" '$5 == m { print $3; exit }' /proc/self/mountinfo; }

# NAME as /proc/modules has it.
kname() { echo "$1" | tr - _; }
loaded() { grep -q "^$(kname "$1") " /proc/modules; }

# The kernel's own voice during the turn (the ring buffer since the last call, which
# clears it): its first 60 lines, but for busybox's first try at each compressed module
# (finit_module without MODULE_INIT_COMPRESSED_FILE, before it decompresses it itself).
kmsg_turn() { # idx
	dmesg -c | grep -v 'Invalid ELF header magic' | head -n 60 | sed "s/^/@hunt kmsg $1 /"
}

# modprobe, with the module's parameters (exercise.sh: hx_params_NAME).
load() { # name
	local p
	p=$(hx_call params "$1")
	# shellcheck disable=SC2086
	modprobe "$1" $p 2>&1
}

# rmmod, again while the module is busy for a moment (a device being released, an RCU
# callback): up to 5 tries a second apart.
unload() { # name
	local i out
	for i in 1 2 3 4 5; do
		out=$(rmmod "$(kname "$1")" 2>&1) && return 0
		loaded "$1" || return 0
		sleep 1
	done
	echo "$out"
	return 1
}

# A module an earlier turn left loaded (a helper, a dependency), with the modules that
# hold it first.
unload_tree() { # name
	local h
	for h in /sys/module/"$(kname "$1")"/holders/*; do
		[ -e "$h" ] && unload_tree "${h##*/}"
	done
	unload "$1"
}

# Before the turn: the module itself if an earlier turn left it loaded, then its
# dependencies and helpers, so that the turn shows the module's own entries only.
prepare() { # idx name deps...
	local idx=$1 name=$2 d out
	shift 2
	hx_call pre "$name"
	if loaded "$name"; then
		out=$(unload_tree "$name") || say note "$idx" "was loaded and does not unload: $out"
	fi
	for d in "$@" $(hx_call helpers "$name"); do
		loaded "$d" && continue
		out=$(load "$d") || say note "$idx" "dependency $d does not load: $out"
	done
	cfs_mount
}

cfs_mount() {
	grep -q " $CFS configfs " /proc/mounts && return 0
	grep -qw configfs /proc/filesystems || return 0
	mount -t configfs configfs "$CFS"
}

hunt_one() { # idx name deps...
	local idx=$1 name=$2 t0 t1 lrc urc out fsb cfsb
	say begin "$idx" "$name"
	t0=$(now_cs)
	mkdir "$MARK/$idx.pre"
	prepare "$@"
	fsb=$(fs_types)
	cfsb=$(cfs_top)
	mkdir "$MARK/$idx.b"
	t1=$(now_cs)
	out=$(load "$name")
	lrc=$?
	[ -z "$out" ] || say note "$idx" "load: $(echo "$out" | tr '\n' ' ')"
	# run.sh --crash-test: the guest takes itself down, as a module that crashes it would.
	[ "$name" != "$(cat $H/crash 2>/dev/null)" ] || echo c >/proc/sysrq-trigger
	if [ $lrc -eq 0 ]; then
		exercise "$idx" "$name" "$fsb" "$cfsb"
		out=$(unload "$name")
		urc=$?
		[ -z "$out" ] || say note "$idx" "unload: $(echo "$out" | tr '\n' ' ')"
	else
		urc=-
	fi
	mkdir "$MARK/$idx.e"
	kmsg_turn "$idx"
	say end "$idx" "$name" "load=$lrc" "unload=$urc" "cs=$(($(now_cs) - t1))" "pre_cs=$((t1 - t0))"
}

# A hang becomes a panic (the host then sees the guest stop and records the module as
# crashed): a task stuck for 60 s, a soft lockup; oops=panic is on the command line.
hunt_watchdogs() {
	echo 60 >/proc/sys/kernel/hung_task_timeout_secs
	echo 1 >/proc/sys/kernel/hung_task_panic
	echo 1 >/proc/sys/kernel/softlockup_panic
}

hunt_setup() {
	mkdir -p /lib/modules "$MARK" /sys/kernel/debug /sys/kernel/tracing /mnt/hunt-fs
	ln -sfn /ci/kmod "/lib/modules/$(uname -r)"
	mount -t debugfs debugfs /sys/kernel/debug
	mount -t tracefs tracefs /sys/kernel/tracing
	mount -t tmpfs hunt-mark "$MARK"
	hunt_watchdogs
	dmesg -c >/dev/null
	# The guest's own tmpfs superblocks, the marker one last: not the modules' doing.
	say boot "$(uname -r)" "$(dev_of /)" "$(dev_of /tmp)" "$(dev_of /run)" "$(dev_of "$MARK")"
}

# pdtrace on the results channel (a tty: one line at a time, in order), every rule on.
hunt_trace() {
	local i
	$PDTRACE trace --events -f json --dput 2>/run/hunt-trace.err &
	TRACE_PID=$!
	for i in $(seq 1 300); do
		grep -q 'tracing persistent dentries' /run/hunt-trace.err && return 0
		sleep 0.1
	done
	say note 0 "pdtrace did not start: $(cat /run/hunt-trace.err)"
	return 1
}

hunt_main() {
	local line deadline
	hunt_setup
	hunt_trace || exit 1
	deadline=$(($(cat $H/deadline) * 100))
	while read -r line; do
		# The host resumes in a new boot where this one stopped.
		[ "$(now_cs)" -lt "$deadline" ] || { say note 0 "deadline: no more modules in this boot"; break; }
		# shellcheck disable=SC2086
		hunt_one $line
	done <$H/list
	kill -INT "$TRACE_PID"
	wait "$TRACE_PID"
	say done "trace=$?" "$(cat /run/hunt-trace.err | tr '\n' ' ')"
}
