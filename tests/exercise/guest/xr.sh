# The exerciser in the guest (busybox sh), sourced by the scenario tests/exercise/run.sh
# writes. Under one `pdtrace trace -f json --dput` (every rule on), WORKERS workers pick
# operations on the tree-in-dcache interfaces with a seeded PRNG, from a model of what
# each interface accepts (the names it holds now, the names it may take), with module
# loads and unloads and mounts and umounts among them; then a teardown. /ci/xr/conf sets
# SEED, DURATION (seconds), WORKERS, and REPLAY=1 to run /ci/xr/replay.sh instead.
#
# Every operation is one shell line, printed on stdout (the results channel) before it
# runs, so the log of a run is its reproducer:
#   @xr op W N KIND :: COMMAND    worker W's Nth operation (W 0: setup and teardown)
#   @xr kmsg LINE                 a WARNING, BUG, Oops ... the kernel logged
#   @xr done OPS trace=RC         the end
# pdtrace's JSON findings come on the same channel, in order.
#
# Interfaces and their operations (KIND: interface.operation; hold: an attribute or
# file held open for a few seconds while the others go on):
#   nvmet    subsys+ subsys- ns+ ns- ns-on ns-off host+ host- allow+ allow- port+ port-
#            port-loop link+ link- ref+ ref- ana+ ana- hold
#   nullb    dev+ dev- size power-on power-off hold
#   target   hba+ hba- fileio+ fileio- fileio-on loop+ loop- tpg+ tpg- lun+ lun-
#            lunlink+ lunlink-
#   netcon   target+ target- attr hold
#   gadget   g+ g- fn+ fn- cfg+ cfg- bind+ bind- udc-on udc-off hold (functions acm,
#            ecm, SourceSink, ffs; UDC dummy_udc.0)
#   ffs      ffs-mount ffs-umount ffs-active (functionfs, descriptors written to ep0)
#            gfs-mount gfs-umount gfs-active (gadgetfs, a configuration written to ep0)
#   iio      trig+ trig- hold (hrtimer software triggers)
#   tracefs  inst+ inst- ev-on ev-off kp+ kp- kp-on kp-off hist+ hist- set-event hold
#   debugfs  read hold write-back (the directories of XR_DBG_DIRS)
#   bpffs    mount umount pin dir+ dir- unpin
#   mqueue   mount umount open unlink create
#   hugetlb  mount umount dir+ file+ rm
#   dlm      cluster+ cluster- space+ space- node+ node- comm+ comm- (dlm's configfs)
#   binderfs mount umount dev+ dev- hold
#   module   load unload (XR_MODULES)

XR=/ci/xr
CFS=/sys/kernel/config
DBG=/sys/kernel/debug
TRC=/sys/kernel/tracing
XR_IMG=/run/xr.img
# The modules the exerciser loads and unloads (dependencies come with modprobe), and
# those it loads once (binder_linux cannot unload).
XR_MODULES="configfs nvmet nvme-loop null_blk target_core_mod target_core_file tcm_loop netconsole dummy_hcd libcomposite usb_f_acm usb_f_ecm usb_f_ss_lb usb_f_fs gadgetfs industrialio-sw-trigger iio-trig-hrtimer dlm"
XR_MODULES_ONCE="binder_linux"

# ---- the PRNG: a 31-bit LCG per worker, in the shell's own arithmetic (no forks) ------
R=1
rnd() { # N: RV in [0, N)
	R=$(((R * 1103515245 + 12345) & 2147483647))
	RV=$(((R >> 8) % $1))
}
# pick WORD...: PK one of them
pick() {
	rnd $#
	shift $RV
	PK=$1
}
# Existing entries of DIR matching a glob (PK: one of them, empty when none).
pick_in() { # dir glob
	local e l=''
	for e in "$1"/$2; do [ -e "$e" ] || [ -L "$e" ] && l="$l $e"; done
	PK=
	# shellcheck disable=SC2086
	[ -n "$l" ] && pick $l
	return 0
}

# ---- running and logging one operation --------------------------------------------
W=0 N=0
op() { # kind command
	N=$((N + 1))
	echo "@xr op $W $N $1 :: $2"
	timeout 15 sh -c "$2" >/dev/null 2>&1 </dev/null
	return 0
}

# ---- the model: per interface, OPK (kind) and OPC (command), or OPK empty ------------
# Each operation also says what it expects of the tree: NEED, paths that must exist, and
# NOT, paths that must not (a mkdir needs its parent and no entry of that name). one_op()
# draws again when the tree does not fit, and now and then runs the operation anyway:
# what an interface refuses is exercised too.
mk() { OPK=$1 OPC="mkdir $2" NEED=${2%/*} NOT=$2; }
rd() { OPK=$1 OPC="rmdir $2" NEED=$2 NOT=; }
wr() { OPK=$1 OPC="echo $2 >$3" NEED=$3 NOT=; }
lk() { OPK=$1 OPC="ln -s $2 $3" NEED="$2 ${3%/*}" NOT=$3; }
rl() { OPK=$1 OPC="rm $2" NEED=$2 NOT=; }
# An attribute file held open across what the other workers do (an rmdir of its item,
# an unload of its module).
hold() { OPK=$1 OPC="sleep 2 <$2 &" NEED=$2 NOT=; }

fits() {
	local p
	for p in $NEED; do [ -e "$p" ] || [ -L "$p" ] || return 1; done
	for p in $NOT; do [ -e "$p" ] || [ -L "$p" ] && return 1; done
	return 0
}

# Small name pools, so that operations meet the same entries often.
m_nvmet() {
	local n=$CFS/nvmet s h p
	pick xr0 xr1 xr2; s=$n/subsystems/nqn.2026-01.org.xr:$PK
	pick h0 h1; h=$n/hosts/nqn.2026-01.org.xr:$PK
	pick 1 2; p=$n/ports/$PK
	rnd 20
	case $RV in
	0) mk subsys+ "$s" ;;
	1) rd subsys- "$s" ;;
	2) pick 1 2; mk ns+ "$s/namespaces/$PK" ;;
	3) pick 1 2; rd ns- "$s/namespaces/$PK" ;;
	4) pick 1 2; wr ns-on 1 "$s/namespaces/$PK/enable"
		OPC="echo $XR_IMG >$s/namespaces/$PK/device_path; $OPC" ;;
	5) pick 1 2; wr ns-off 0 "$s/namespaces/$PK/enable" ;;
	6) mk host+ "$h" ;;
	7) rd host- "$h" ;;
	8) lk allow+ "$h" "$s/allowed_hosts/${h##*/}" ;;
	9) rl allow- "$s/allowed_hosts/${h##*/}" ;;
	10) mk port+ "$p" ;;
	11) rd port- "$p" ;;
	12) wr port-loop loop "$p/addr_trtype" ;;
	13) lk link+ "$s" "$p/subsystems/${s##*/}" ;;
	14) rl link- "$p/subsystems/${s##*/}" ;;
	15) pick r1 r2; mk ref+ "$p/referrals/$PK" ;;
	16) pick r1 r2; rd ref- "$p/referrals/$PK" ;;
	17) pick 2 3; mk ana+ "$p/ana_groups/$PK" ;;
	18) pick 2 3; rd ana- "$p/ana_groups/$PK" ;;
	19) pick attr_model attr_serial attr_allow_any_host; hold hold "$s/$PK" ;;
	esac
}

m_nullb() {
	local d
	pick xr0 xr1; d=$CFS/nullb/$PK
	rnd 6
	case $RV in
	0) mk dev+ "$d" ;;
	1) rd dev- "$d" ;;
	2) wr size 16 "$d/size" ;;
	3) wr power-on 1 "$d/power" ;;
	4) wr power-off 0 "$d/power" ;;
	5) hold hold "$d/power" ;;
	esac
}

m_target() {
	local t=$CFS/target b w tp
	pick 0 1; b=$t/core/fileio_$PK/xr$PK
	pick 1 2; w=$t/loopback/naa.500140500000000$PK; tp=$w/tpgt_1
	rnd 13
	case $RV in
	0) mk hba+ "${b%/*}" ;;
	1) rd hba- "${b%/*}" ;;
	2) mk fileio+ "$b" ;;
	3) rd fileio- "$b" ;;
	4) wr fileio-on 1 "$b/enable"; OPC="echo fd_dev_name=$XR_IMG,fd_dev_size=1048576 >$b/control; $OPC" ;;
	5) mk loop+ "$w" ;;
	6) rd loop- "$w" ;;
	7) mk tpg+ "$tp" ;;
	8) rd tpg- "$tp" ;;
	9) mk lun+ "$tp/lun/lun_0" ;;
	10) rd lun- "$tp/lun/lun_0" ;;
	11) lk lunlink+ "$b" "$tp/lun/lun_0/xr" ;;
	12) rl lunlink- "$tp/lun/lun_0/xr" ;;
	esac
}

m_netcon() {
	local d
	pick xr0 xr1; d=$CFS/netconsole/$PK
	rnd 4
	case $RV in
	0) mk target+ "$d" ;;
	1) rd target- "$d" ;;
	2) wr attr lo "$d/dev_name" ;;
	3) hold hold "$d/dev_name" ;;
	esac
}

m_gadget() {
	local g f c
	pick g0 g1; g=$CFS/usb_gadget/$PK
	pick acm.xr ecm.xr SourceSink.xr ffs.xr; f=$g/functions/$PK
	c=$g/configs/c.1
	rnd 11
	case $RV in
	0) mk g+ "$g"; OPC="$OPC; echo 0x1d6b >$g/idVendor; echo 0x0104 >$g/idProduct" ;;
	1) rd g- "$g" ;;
	2) mk fn+ "$f" ;;
	3) rd fn- "$f" ;;
	4) mk cfg+ "$c" ;;
	5) rd cfg- "$c" ;;
	6) lk bind+ "$f" "$c/${f##*/}" ;;
	7) rl bind- "$c/${f##*/}" ;;
	8) wr udc-on dummy_udc.0 "$g/UDC" ;;
	9) wr udc-off '' "$g/UDC" ;;
	10) hold hold "$g/UDC" ;;
	esac
}

# functionfs on the gadgets' ffs.xr instance, gadgetfs on dummy_hcd's UDC.
m_ffs() {
	local m=/mnt/xr-ffs
	rnd 6
	case $RV in
	0) OPK=ffs-mount OPC="mount -t functionfs xr $m" NEED="$CFS/usb_gadget/g0/functions/ffs.xr" NOT=$m/ep0 ;;
	1) OPK=ffs-umount OPC="umount $m" NEED=$m/ep0 NOT= ;;
	2) OPK=ffs-active OPC="pdt-fsop ffs-hold $m/ep0 'sleep 2' &" NEED=$m/ep0 NOT=$m/ep1 ;;
	3) OPK=gfs-mount OPC="mount -t gadgetfs xr $m-g" NEED=/sys/module/gadgetfs NOT=$m-g/dummy_udc ;;
	4) OPK=gfs-umount OPC="umount $m-g" NEED=$m-g/dummy_udc NOT= ;;
	5) OPK=gfs-active OPC="pdt-fsop gadgetfs-hold $m-g/dummy_udc 'sleep 2' &" NEED=$m-g/dummy_udc NOT= ;;
	esac
}

m_iio() {
	local d=$CFS/iio/triggers/hrtimer
	pick t0 t1
	rnd 3
	case $RV in
	0) mk trig+ "$d/xr$PK" ;;
	1) rd trig- "$d/xr$PK" ;;
	2) hold hold "$d/xr$PK/sampling_frequency" ;;
	esac
}

m_tracefs() {
	local i e
	pick xr0 xr1; i=$TRC/instances/$PK
	pick "sched/sched_process_exec" "module/module_load" "kprobes/xr_kp0" "kprobes/xr_kp1"; e=$PK
	rnd 13
	case $RV in
	0|1) mk inst+ "$i" ;;
	2) rd inst- "$i" ;;
	3) wr ev-on 1 "$i/events/$e/enable" ;;
	4) wr ev-off 0 "$i/events/$e/enable" ;;
	5) pick 0 1; OPK=kp+ OPC="echo 'p:kprobes/xr_kp$PK do_sys_openat2 dfd=%di' >>$TRC/kprobe_events" NEED= NOT=$TRC/events/kprobes/xr_kp$PK ;;
	6) pick 0 1; OPK=kp- OPC="echo '-:kprobes/xr_kp$PK' >>$TRC/kprobe_events" NEED=$TRC/events/kprobes/xr_kp$PK NOT= ;;
	7) pick 0 1; wr kp-on 1 "$TRC/events/kprobes/xr_kp$PK/enable" ;;
	8) pick 0 1; wr kp-off 0 "$TRC/events/kprobes/xr_kp$PK/enable" ;;
	9) wr hist+ "'hist:keys=common_pid'" "$i/events/$e/trigger"; OPC="${OPC%%>*}>>${OPC#*>}" ;;
	10) wr hist- "'!hist:keys=common_pid'" "$i/events/$e/trigger"; OPC="${OPC%%>*}>>${OPC#*>}" ;;
	11) wr set-event "'$(echo "$e" | tr / :)'" "$i/set_event"; OPC="${OPC%%>*}>>${OPC#*>}" ;;
	12) hold hold "$i/trace" ;;
	esac
}

# debugfs: the directories of the modules the exerciser loads, and the kernel's own
# harmless ones; files are read, held open across what the other workers do (a module
# unloaded meanwhile), and written their own value back.
XR_DBG_DIRS="nvmet nullb block usb dummy_hcd bdi"
m_debugfs() {
	local d
	pick $XR_DBG_DIRS; d=$DBG/$PK
	[ -d "$d" ] || { OPK=; return; }
	pick_in "$d" '*'
	[ -n "$PK" ] || { OPK=; return; }
	# One or two levels down when it is a directory.
	if [ -d "$PK" ]; then pick_in "$PK" '*'; fi
	if [ -d "$PK" ]; then pick_in "$PK" '*'; fi
	[ -f "$PK" ] || { OPK=; return; }
	NEED=$PK NOT=
	rnd 3
	case $RV in
	0) OPK=read OPC="head -c 4096 '$PK'" ;;
	1) OPK=hold OPC="sleep 3 <'$PK' &" ;;
	2)
		[ -w "$PK" ] || { OPK=; return; }
		OPK=write-back OPC="v=\$(head -c 64 '$PK' | head -n1); echo \"\$v\" >'$PK'" ;;
	esac
}

m_bpffs() {
	local m=/mnt/xr-bpf
	pick a b c
	rnd 7
	case $RV in
	0) OPK=mount OPC="mount -t bpf xr-bpf $m" NEED= NOT=$m/xrmark ;;
	1) OPK=umount OPC="umount $m" NEED=$m/xrmark NOT= ;;
	2) OPK=pin OPC="pdt-bpfpin map $m/$PK" NEED=$m/xrmark NOT=$m/$PK ;;
	3) OPK=pin OPC="pdt-bpfpin map $m/d/$PK" NEED=$m/d NOT=$m/d/$PK ;;
	4) mk dir+ "$m/d" ;;
	5) rd dir- "$m/d" ;;
	6) rl unpin "$m/$PK" ;;
	esac
	# .xr: a mark made at each mount, that says bpffs is mounted there.
	[ "$OPK" != mount ] || OPC="$OPC && pdt-bpfpin map $m/xrmark"
}

m_mqueue() {
	local m=/mnt/xr-mq
	pick q0 q1 q2
	rnd 6
	case $RV in
	0) OPK=mount OPC="mount -t mqueue xr-mq $m" NEED= NOT=$m/xrmark ;;
	1) OPK=umount OPC="umount $m" NEED=$m/xrmark NOT= ;;
	2) OPK=open OPC="pdt-fsop mq-open /xr$PK" NEED= NOT=$m/xr$PK ;;
	3) OPK=unlink OPC="pdt-fsop mq-unlink /xr$PK" NEED= NOT= ;;
	4) OPK=create OPC="touch $m/xc$PK" NEED=$m/xrmark NOT=$m/xc$PK ;;
	5) rl unlink "$m/xc$PK" ;;
	esac
	[ "$OPK" != mount ] || OPC="$OPC && touch $m/xrmark"
}

m_hugetlb() {
	local m=/mnt/xr-huge
	pick a b
	rnd 5
	case $RV in
	0) OPK=mount OPC="mount -t hugetlbfs xr-huge $m && mkdir $m/xrmark" NEED= NOT=$m/xrmark ;;
	1) OPK=umount OPC="umount $m" NEED=$m/xrmark NOT= ;;
	2) mk dir+ "$m/d$PK" ;;
	3) OPK=file+ OPC="touch $m/d$PK/f" NEED=$m/d$PK NOT=$m/d$PK/f ;;
	4) OPK=rm OPC="rm -rf $m/d$PK" NEED=$m/d$PK NOT= ;;
	esac
}

# dlm's configfs: a cluster, its lockspaces and their nodes, its comms (no cluster
# manager: dlm_controld is not there, nothing joins).
m_dlm() {
	local c=$CFS/dlm/cluster
	pick xr0 xr1
	rnd 8
	case $RV in
	0) mk cluster+ "$c" ;;
	1) rd cluster- "$c" ;;
	2) mk space+ "$c/spaces/$PK" ;;
	3) rd space- "$c/spaces/$PK" ;;
	4) pick 1 2; mk node+ "$c/spaces/xr0/nodes/$PK" ;;
	5) pick 1 2; rd node- "$c/spaces/xr0/nodes/$PK" ;;
	6) pick 1 2; mk comm+ "$c/comms/$PK" ;;
	7) pick 1 2; rd comm- "$c/comms/$PK" ;;
	esac
}

# binderfs: binder devices made through binder-control, unlinked; mounts and umounts.
m_binderfs() {
	local m=/mnt/xr-binder
	pick b0 b1 b2
	rnd 5
	case $RV in
	0) OPK=mount OPC="mount -t binder xr-binder $m" NEED= NOT=$m/binder-control ;;
	1) OPK=umount OPC="umount $m" NEED=$m/binder-control NOT= ;;
	2) OPK=dev+ OPC="pdt-fsop binder-add $m/binder-control xr$PK" NEED=$m/binder-control NOT=$m/xr$PK ;;
	3) rl dev- "$m/xr$PK" ;;
	4) hold hold "$m/xr$PK" ;;
	esac
}

m_module() {
	# configfs stays: pdtrace hooked its configfs_rmdir() as it started.
	pick $(echo " $XR_MODULES " | sed 's/ configfs / /')
	NEED= NOT=
	rnd 2
	case $RV in
	0) OPK=load OPC="modprobe $PK" NOT=/sys/module/$(echo "$PK" | tr - _) ;;
	1) OPK=unload OPC="rmmod $PK" NEED=/sys/module/$(echo "$PK" | tr - _) ;;
	esac
}

# The interfaces and their weights (module loads and unloads the rarest).
XR_IFACES="nvmet nvmet nvmet nullb target target netcon gadget gadget ffs iio dlm tracefs tracefs debugfs bpffs mqueue hugetlb binderfs"

one_op() {
	local try
	for try in 1 2 3 4 5 6; do
		rnd 40
		if [ $RV -eq 0 ]; then IF=module; else pick $XR_IFACES; IF=$PK; fi
		OPK= NEED= NOT=
		"m_$IF"
		[ -n "$OPK" ] || continue
		fits && break
		# One draw in eight runs what the tree does not fit.
		rnd 8
		[ $RV -ne 0 ] || break
		OPK=
	done
	[ -n "$OPK" ] || return 0
	op "$IF.$OPK" "$OPC"
}

uptime_s() { local u; read -r u _ </proc/uptime; echo "${u%.*}"; }

worker() { # w seed end
	W=$1 R=$2 N=0
	local end=$3
	while [ "$(uptime_s)" -lt "$end" ]; do one_op; done
}

# ---- setup and teardown: logged the same way (worker 0) ---------------------------
xr_setup() {
	local m
	W=0
	op setup "mkdir -p /lib/modules /mnt/xr-bpf /mnt/xr-mq /mnt/xr-huge /mnt/xr-ffs /mnt/xr-ffs-g /mnt/xr-binder /sys/kernel/debug /sys/kernel/tracing; ln -sfn /ci/kmod /lib/modules/\$(uname -r)"
	op setup "mount -t debugfs debugfs $DBG; mount -t tracefs tracefs $TRC"
	op setup "truncate -s 1M $XR_IMG; echo 16 >/proc/sys/vm/nr_hugepages"
	for m in $XR_MODULES; do op module.load "modprobe $m"; done
	op setup "mount -t configfs configfs $CFS"
	op setup "modprobe binder_linux"
}

# configfs: links first, then the deepest directories first, each rmdir tried; what the
# kernel made itself refuses (EPERM) and stays.
cfs_teardown() {
	local pass l d
	for pass in 1 2 3 4; do
		for l in $(find $CFS -type l 2>/dev/null); do op teardown "rm $l"; done
		for d in $(find $CFS -mindepth 2 -type d 2>/dev/null | awk '{ print length($0), $0 }' | sort -rn | cut -d' ' -f2-); do
			case "${d##*/}" in xr*|nqn.2026*|naa.*|tpgt_1|lun_0|c.1|*.xr|g0|g1|1|2|3|r1|r2|fileio_0|fileio_1|cluster) ;; *) continue ;; esac
			[ -d "$d" ] && op teardown "rmdir $d"
		done
	done
}

xr_teardown() {
	local m i
	W=0
	# The files the last holds keep open (a few seconds) would refuse the rmdirs and
	# the umounts.
	op teardown "sleep 4"
	for i in /sys/kernel/config/usb_gadget/*/UDC; do [ -e "$i" ] && op teardown "echo >$i"; done
	for i in /sys/kernel/config/nvmet/subsystems/*/namespaces/*/enable; do [ -e "$i" ] && op teardown "echo 0 >$i"; done
	for i in /sys/kernel/config/nullb/*/power; do [ -e "$i" ] && op teardown "echo 0 >$i"; done
	for i in $TRC/events/kprobes/xr_kp*/enable; do [ -e "$i" ] && op teardown "echo 0 >$i"; done
	for i in $TRC/instances/xr*/events/sched/sched_process_exec/trigger $TRC/instances/xr*/events/module/module_load/trigger \
		$TRC/instances/xr*/events/kprobes/xr_kp*/trigger; do
		grep -q '^hist' "$i" 2>/dev/null && op teardown "echo '!hist:keys=common_pid' >>$i"
	done
	for i in $TRC/instances/xr*; do [ -d "$i" ] && op teardown "echo 0 >$i/events/enable; rmdir $i"; done
	op teardown "echo >$TRC/kprobe_events"
	cfs_teardown
	for m in /mnt/xr-binder /mnt/xr-ffs /mnt/xr-ffs-g /mnt/xr-bpf /mnt/xr-mq /mnt/xr-huge $CFS /mnt/xr-bpf /mnt/xr-mq /mnt/xr-huge; do
		grep -q " $m " /proc/mounts && op teardown "umount $m"
	done
	for i in 1 2 3; do
		for m in $(echo $XR_MODULES | tr ' ' '\n' | sed '1!G;h;$!d'); do
			grep -q "^$(echo $m | tr - _) " /proc/modules && op teardown "rmmod $m"
		done
	done
	# The dependencies modprobe brought (u_ether, nvme_core ...): every module loaded
	# since the start that nothing uses, until none is left.
	for i in 1 2 3 4 5; do
		for m in $(awk '$3 == 0 { print $1 }' /proc/modules); do
			case " $XR_MODULES_ONCE " in *" $m "*) continue ;; esac
			grep -qx "$m" /run/xr-modules-before || op teardown "rmmod $m"
		done
	done
}

# What the teardown could not remove: our configfs entries, mounts, modules.
xr_left() {
	echo "@xr left modules: $(for m in $XR_MODULES; do [ -d /sys/module/$(echo $m | tr - _) ] && echo $m; done | tr '\n' ' ')"
	echo "@xr left mounts: $(grep -E ' /mnt/xr|configfs' /proc/mounts | awk '{ print $2 }' | tr '\n' ' ')"
	echo "@xr left instances: $(ls $TRC/instances 2>/dev/null | tr '\n' ' ')"
	echo "@xr left lsmod: $(grep -E '^(configfs|libcomposite|usb_f|u_|target|nvme|null)' /proc/modules | awk '{ print $1 "=" $3 }' | tr '\n' ' ')"
	echo "@xr left configfs: $(mount -t configfs xr-left $CFS 2>/dev/null; find $CFS -mindepth 2 2>/dev/null | grep -E 'xr|g0|g1|naa' | tr '\n' ' '; umount $CFS 2>/dev/null)"
}

# The kernel's complaints, each with what follows it up to its end marker (its call trace),
# at most 40 lines each.
xr_kmsg() {
	dmesg | awk '
		/WARNING:|BUG:|kernel BUG at|Oops|general protection fault|Busy inodes|UBSAN:|KASAN:|kmemleak:|refcount_t:|list_(add|del) corruption|still in use/ { n = 40 }
		n > 0 { print "@xr kmsg " $0; n--; if ($0 ~ /---\[ end trace/) n = 0 }'
}

xr_trace() {
	local i
	pdtrace trace -f json --dput 2>/run/xr-trace.err &
	TRACE_PID=$!
	for i in $(seq 1 600); do
		grep -q 'tracing persistent dentries' /run/xr-trace.err && return 0
		sleep 0.1
	done
	echo "@xr note pdtrace did not start: $(cat /run/xr-trace.err)"
	return 1
}

xr_main() {
	local w end pids='' rc line k
	. $XR/conf
	echo 60 >/proc/sys/kernel/hung_task_timeout_secs
	echo 1 >/proc/sys/kernel/hung_task_panic
	echo 1 >/proc/sys/kernel/softlockup_panic
	dmesg -c >/dev/null
	awk '{ print $1 }' /proc/modules >/run/xr-modules-before
	echo "@xr begin seed=$SEED duration=$DURATION workers=$WORKERS replay=${REPLAY:-0}"
	# The trace starts after the setup (the mounts, the module loads): pdtrace hooks
	# configfs_rmdir() in configfs, a module here, only when it is loaded as it starts.
	TRACE_PID=
	if [ "${REPLAY:-0}" = 1 ]; then
		while IFS= read -r line; do
			case "$line" in ''|'#'*) continue ;; esac
			# "COMMAND  # KIND", as run.sh writes it; the kind carries over.
			k=${line##*  # }
			[ "$k" != "$line" ] || k=replay
			case "$k" in setup|module.load) ;; *) [ -n "$TRACE_PID" ] || xr_trace || exit 1 ;; esac
			op "$k" "${line%  # *}"
		done <$XR/replay.sh
		[ -n "$TRACE_PID" ] || xr_trace || exit 1
	else
		xr_setup
		xr_trace || exit 1
		end=$(($(uptime_s) + DURATION))
		for w in $(seq 1 "$WORKERS"); do
			worker "$w" $(((SEED * 7919 + w * 104729) & 2147483647)) "$end" &
			pids="$pids $!"
		done
		# shellcheck disable=SC2086
		wait $pids
		xr_teardown
	fi
	xr_left
	sleep 1
	kill -INT "$TRACE_PID"
	wait "$TRACE_PID"
	rc=$?
	xr_kmsg
	echo "@xr done trace=$rc $(tr '\n' ' ' </run/xr-trace.err)"
}
