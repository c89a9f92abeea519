#!/usr/bin/env bash
# Boot a kernel that has d_make_persistent() in qemu (software emulation) and run
# pdtrace's scenarios inside it. Prints one TAP line per scenario and a summary.
#
# Usage: tests/vm/run.sh [--kernel BZIMAGE [--modules DIR] | --kernel KDIR] [--timeout S] [-v]
#                        [--scenarios DIR] [--results DIR] [--demo] [SCENARIO...]
#   default kernel: Debian's packaged one (tests/vm/fetch-kernel.sh, cached)
#   KDIR: a kernel built by make kernel (tests/vm/build-kernel.sh), its modules with it
#   --scenarios DIR: your own scenarios, DIR/*.sh (run alone when no SCENARIO is named);
#     all of DIR is /ci in the guest
#   --results DIR: what the scenarios leave in the guest's /results comes back there
#   SCENARIO: names under tests/vm/scenarios (default: all)
#   --demo: run tests/vm/demo.sh in the guest and print what it prints
#   PDTRACE_ARCH=arm64: Debian's arm64 kernel in qemu-system-aarch64 (virt machine), the
#     binaries of make ARCH=arm64 (build/arm64, or OUTPUT), results in OUTPUT/vm
# A scenario whose header has "# boot: own" gets a boot of its own (deliberate
# leaks kill the umount task, so they must not share a guest with others).
# "# kmods: pdt_faultfs" names modules built from this tree (tests/kmod/build.sh),
# loaded after the "# modules:" ones.
# "# kernel: SUITE" boots Debian's packaged kernel of another suite for that scenario.
# "# console: tmux" puts the guest's console on a tmux pane, driven by NAME.host.
# "# root: sid" shares the cached Debian sid userland (tests/bench/mkroot.sh, the bench's
# root) read-only over 9p; the guest's init mounts it at /sid (see sid_root below).
# A scenario during which the kernel logs a WARNING, BUG, Oops, panic ... fails
# ("not ok N - vm/x # the kernel complained: LINE"), unless each such line matches the
# extended regular expression of its header "# expect-kernel: ERE" (see report below).
# A scenario that exits 77 is skipped ("ok N - vm/x # SKIP why", why from its last
# "SKIP: why" line): it could not run in this guest, which is never a pass.
# On a kernel of your own (an image with --modules, or make kernel's from another source
# tree than Debian's), a scenario that names a module the kernel lacks is skipped the same
# way ("# SKIP no module M in this kernel"); Debian's packaged kernel and make kernel's from
# Debian's source have every one (kconfig/modules.map), so there a missing one stops the run.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUTPUT:-$top/build}/vm
kernel= modules= kver= verbose=0 demo=0 extra_timeout=${PDTRACE_VM_TIMEOUT:-0} user_dir= results=
results_arg=
scenarios=()

die() { echo "vm: $*" >&2; exit 2; }

# The guest's architecture. amd64: qemu-system-x86_64, build/pdtrace, two serial ports
# (console, results). arm64 (make vmtest-arm64): qemu-system-aarch64's virt machine, whose
# one UART (ttyAMA0) is the console, the results on a virtio console (hvc0), busybox
# from Debian's arm64 busybox-static, the binaries of make ARCH=arm64.
arch=${PDTRACE_ARCH:-amd64}
case "$arch" in
amd64)
	bin=$top/build busybox=/bin/busybox qemu=qemu-system-x86_64 tap=vm
	qemu_args=(-accel tcg,thread=single -cpu max -m 1024 -smp 2 -no-reboot
		-display none -monitor none -nodefaults)
	append_con="console=ttyS0"
	;;
arm64)
	export OUTPUT=${OUTPUT:-$top/build/arm64}
	bin=$OUTPUT out=$OUTPUT/vm qemu=qemu-system-aarch64 tap=vm-arm64
	busybox=$(PDTRACE_ARCH=arm64 "$top/tests/vm/fetch-kernel.sh" --busybox) || die "cannot get Debian's arm64 busybox-static"
	# pauth-impdef: the same pointer authentication with a cheap algorithm instead of
	# QARMA, which software emulation computes slowly.
	qemu_args=(-M virt -accel tcg,thread=single -cpu max,pauth-impdef=on -m 1024 -smp 2 -no-reboot
		-display none -monitor none -nodefaults)
	append_con="console=ttyAMA0 pdtrace.out=hvc0"
	;;
*) die "unsupported PDTRACE_ARCH '$arch' (amd64, arm64)" ;;
esac

# The results port on the host, written to FILE: the second serial port, or arm64's
# virtio console.
results_port() { # file
	if [ "$arch" = arm64 ]; then
		res_args=(-device virtio-serial-pci -chardev "file,id=results,path=$1" -device virtconsole,chardev=results)
	else
		res_args=(-serial "file:$1")
	fi
}

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=${2:?--kernel needs a path}; shift 2 ;;
	--modules) modules=${2:?--modules needs a directory}; shift 2 ;;
	--timeout) extra_timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--demo) demo=1; shift ;;
	--scenarios) user_dir=${2:?--scenarios needs a directory}; shift 2 ;;
	--results) results=${2:?--results needs a directory}; shift 2 ;;
	-v) verbose=1; shift ;;
	-h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option '$1'" ;;
	*) scenarios+=("$1"); shift ;;
	esac
done

# "# kernel: SUITE": the scenario boots Debian's packaged kernel from that suite (e.g.
# trixie's 6.12, which lacks the API) in a boot of its own; empty for the default kernel.
kernel_of() {
	local suite kdir
	suite=$(header "$1" kernel)
	[ -n "$suite" ] || return 0
	kdir=$(PDTRACE_SUITE=$suite PDTRACE_KERNEL_VER= "$top/tests/vm/fetch-kernel.sh") ||
		die "cannot get Debian's packaged kernel from $suite"
	echo "$kdir/vmlinuz"
}

pick_kernel() {
	# Whether the kernel may lack a module a scenario names (then the scenario is skipped).
	may_lack=1
	if [ -n "$kernel" ] && [ -d "$kernel" ]; then
		[ -f "$kernel/RELEASE" ] && [ -r "$kernel/bzImage" ] ||
			die "'$kernel' is not a kernel built by make kernel (no bzImage, RELEASE)"
		[ -z "$modules" ] || die "--modules goes with a kernel image, not with a make kernel directory"
		modules=$kernel/modules/lib/modules/$(cat "$kernel/RELEASE")
		# kbuild links the build tree to its source; build-kernel.sh marks Debian's.
		[ ! -f "$kernel/obj/source/.pdtrace-unpacked" ] || may_lack=0
		kernel=$kernel/bzImage
	fi
	if [ -n "$kernel" ]; then
		[ -r "$kernel" ] || die "cannot read kernel image '$kernel'"
		[ -z "$modules" ] || [ -d "$modules" ] || die "no modules directory '$modules'"
		return
	fi
	local kdir
	kdir=$("$top/tests/vm/fetch-kernel.sh") || die "cannot get Debian's packaged kernel"
	kernel=$kdir/vmlinuz
	modules=$kdir/modules
	kver=$(cat "$kdir/VERSION")
	may_lack=0
}

# Header value of a scenario: field NAME of "# NAME: value".
script_of() {
	if [ "$1" = demo ]; then
		echo "$top/tests/vm/demo.sh"
	elif [ -n "$user_dir" ] && [ -f "$user_dir/$1.sh" ]; then
		echo "$user_dir/$1.sh"
	else
		echo "$top/tests/vm/scenarios/$1.sh"
	fi
}
header() { sed -n "s/^# $2: *//p" "$(script_of "$1")" | head -n1; }

# Modules named by the scenarios ("# modules: a b?"), with their dependencies, in load
# order, decompressed into the initramfs; built-in ones need nothing, and "b?" is loaded
# only where the kernel has it as a module (the scenario checks in the guest what it
# needs). Debian's package has no modules.dep: make one.
add_modules() { # root names...
	local root=$1; shift
	[ $# -gt 0 ] || return 0
	[ -n "$modules" ] || die "scenarios need modules ($*) but no modules directory was given"
	local ver tmp=$out/modroot
	rm -rf "$tmp"
	ver=$(basename "$(readlink -f "$modules")")
	# fetch-kernel.sh keeps the tree as KDIR/modules, its version in KDIR/VERSION.
	[ ! -f "$modules/../VERSION" ] || ver=$(cat "$modules/../VERSION")
	mkdir -p "$tmp/lib/modules"
	ln -s "$(readlink -f "$modules")" "$tmp/lib/modules/$ver"
	depmod -b "$tmp" "$ver" 2>/dev/null || die "depmod failed on $modules"
	mkdir -p "$root/lib/modules"
	: >"$root/lib/modules/load-order"
	local m dep f opt deps
	for m in "$@"; do
		opt=0
		case "$m" in *\?) opt=1 m=${m%\?} ;; esac
		# modprobe --show-depends lists "insmod PATH" lines, dependencies first, and
		# "builtin NAME" for what the kernel has built in: nothing to load.
		deps=$(modprobe -d "$tmp" -S "$ver" --show-depends "$m" 2>/dev/null) || deps=
		if [ -z "$deps" ] && [ $opt -eq 1 ]; then
			continue
		fi
		grep -q '^builtin ' <<<"$deps" && continue
		awk '$1 == "insmod" { print $2 }' <<<"$deps" |
			while read -r f; do
				dep=$(basename "$f"); dep=${dep%.xz}; dep=${dep%.zst}
				grep -qx "$dep" "$root/lib/modules/load-order" && continue
				case "$f" in
				*.xz) xz -dc "$f" >"$root/lib/modules/$dep" ;;
				*.zst) zstd -dcq "$f" >"$root/lib/modules/$dep" ;;
				*) cp "$f" "$root/lib/modules/$dep" ;;
				esac
				echo "$dep" >>"$root/lib/modules/load-order"
			done
		grep -q "^$m.ko$" "$root/lib/modules/load-order" 2>/dev/null ||
			grep -q "^${m//-/_}.ko$" "$root/lib/modules/load-order" 2>/dev/null ||
			die "module '$m' not found under $modules"
	done
}

# Whether the kernel has neither as a module nor built in a module of the scenario's
# "# modules:" ("b?" ones never count); lacked: the first such. modules.dep made once a run.
modcheck_ver= lacked=
missing_module() { # name
	local m tmp=$out/modcheck
	if [ -z "$modcheck_ver" ]; then
		modcheck_ver=$(basename "$(readlink -f "$modules")")
		[ ! -f "$modules/../VERSION" ] || modcheck_ver=$(cat "$modules/../VERSION")
		rm -rf "$tmp"
		mkdir -p "$tmp/lib/modules"
		ln -s "$(readlink -f "$modules")" "$tmp/lib/modules/$modcheck_ver"
		depmod -b "$tmp" "$modcheck_ver" 2>/dev/null || die "depmod failed on $modules"
	fi
	for m in $(header "$1" modules); do
		case "$m" in *\?) continue ;; esac
		modprobe -d "$tmp" -S "$modcheck_ver" --show-depends "$m" >/dev/null 2>&1 || { lacked=$m; return 0; }
	done
	return 1
}

# Modules built from this tree ("# kmods: pdt_faultfs"), for the kernel being booted:
# Debian's packaged one in a sid chroot, or another one against its modules' build tree.
add_kmods() { # root names...
	local root=$1 m ko; shift
	[ $# -gt 0 ] || return 0
	if [ -n "$kver" ]; then
		ko=$("$top/tests/kmod/build.sh" "$kver") || die "cannot build the test modules for $kver"
	else
		[ -n "$modules" ] && [ -d "$modules/build" ] ||
			die "scenarios need modules built here ($*) but no kernel build tree (--modules DIR/build)"
		ko=$("$top/tests/kmod/build.sh" --kdir "$modules/build") || die "cannot build the test modules"
	fi
	mkdir -p "$root/lib/modules"
	for m in "$@"; do
		[ "$m" = pdt_faultfs ] || die "no module '$m' in tests/kmod"
		grep -qx "$m.ko" "$root/lib/modules/load-order" 2>/dev/null && continue
		cp "$ko" "$root/lib/modules/$m.ko"
		echo "$m.ko" >>"$root/lib/modules/load-order"
	done
}

# "# root: sid": when a scenario asks for it, the cached sid root (made once) is shared
# read-only over 9p with tag sidroot, and the 9p modules go first into the initramfs;
# init mounts the root at /sid when 9p is there.
sid_mods=()
sid_root() { # names...
	local s want=0 ver dir
	for s in "$@"; do [ "$(header "$s" root)" != sid ] || want=1; done
	[ $want -eq 1 ] || return 0
	[ "$arch" = amd64 ] || die "'# root: sid' scenarios run on amd64 only (the sid root is amd64's)"
	ver=$kver
	[ -n "$ver" ] || ver=$(cat "$("$top/tests/vm/fetch-kernel.sh")/VERSION") || die "no kernel version for the sid root"
	dir=$("$top/tests/bench/mkroot.sh" "$ver") || die "cannot make the sid root"
	sid_mods=(netfs 9pnet 9pnet_virtio 9p)
	qemu_args+=(-virtfs "local,path=$dir,mount_tag=sidroot,security_model=none,readonly=on")
}

build_initramfs() { # names...
	local root=$out/root mods=() kmods=() s
	rm -rf "$root"
	mkdir -p "$root"/{bin,scenarios,lib}
	cp "$busybox" "$root/bin/busybox"
	cp "$bin/pdtrace" "$root/bin/pdtrace"
	cp "$top/tests/vm/guest/init" "$root/init"
	cp "$top/tests/vm/guest/lib.sh" "$root/lib.sh"
	cp "$top"/tests/vm/scenarios/*.sh "$root/scenarios/"
	# Filesystem workloads and the static helpers they run (make guest-tools).
	mkdir -p "$root/workloads"
	cp "$top"/tests/vm/workloads/*.sh "$root/workloads/"
	cp "$bin"/guest-tools/* "$root/bin/"
	[ $demo -eq 0 ] || cp "$top/tests/vm/demo.sh" "$root/scenarios/demo.sh"
	if [ -n "$user_dir" ]; then
		cp -r "$user_dir" "$root/ci"
		cp "$user_dir"/*.sh "$root/scenarios/"
	fi
	for s in "$@"; do
		# shellcheck disable=SC2207
		mods+=($(header "$s" modules))
		# shellcheck disable=SC2207
		kmods+=($(header "$s" kmods))
	done
	sid_root "$@"
	add_modules "$root" "${sid_mods[@]}" "${mods[@]}"
	add_kmods "$root" "${kmods[@]}"
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out/initrd.gz"
}

# Boot once, running the given scenarios; leaves results in $out/boot-N.{results,console}.

# "# console: tmux": the guest's console is a terminal. qemu runs in a detached tmux
# session, its first serial port on the pane; tests/vm/scenarios/NAME.host then drives
# it from the host (tmux send-keys, capture-pane) while the guest part runs. The host
# part's "ok:"/"FAIL:" lines join the scenario's output, and a failure fails it.
boot_tmux() { # index name limit
	local idx=$1 name=$2 limit=$3 sock=$out/tmux-$1.sock hostrc=0 res=$out/boot-$1.results
	command -v tmux >/dev/null || die "scenario $name needs tmux"
	rm -f "$sock"
	results_port "$res"
	tmux -S "$sock" new-session -d -s pdt -x 100 -y 30 \
		"timeout --foreground --kill-after=10 $limit $qemu ${qemu_args[*]} \
		-chardev stdio,id=con,signal=off -serial chardev:con ${res_args[*]} \
		-kernel '${boot_kernel:-$kernel}' -initrd '$out/initrd.gz' \
		-append '$append_con panic=-1 oops=panic quiet pdtrace.run=$name$results_arg' 2>'$out/boot-$idx.qemu'"
	PDT_TMUX="tmux -S $sock" PDT_PANE=pdt bash "$top/tests/vm/scenarios/$name.host" \
		>"$out/boot-$idx.host" 2>&1 || hostrc=$?
	# Wait for the guest to power off (the host part ends it, or the timeout does).
	while tmux -S "$sock" has-session -t pdt 2>/dev/null; do sleep 0.5; done
	[ -f "$res" ] || return 0
	sed -i 's/\r$//' "$res"
	# Fold the host part into the guest's report of the scenario.
	awk -v s="$name" -v rc="$hostrc" -v f="$out/boot-$idx.host" '
		$1 == "@@PDT" && $2 == "END" && $3 == s {
			while ((getline l < f) > 0) print "host: " l
			if (rc != 0 && $4 == 0) $4 = 1
		}
		{ print }' "$res" >"$res.new" && mv "$res.new" "$res"
}

boot() { # index names...
	local idx=$1; shift
	local list t limit=60 s
	list=$(IFS=,; echo "$*")
	for s in "$@"; do
		t=$(header "$s" timeout); limit=$((limit + ${t:-60}))
	done
	limit=$((limit + extra_timeout))
	rm -f "$out/boot-$idx.results" "$out/boot-$idx.console"
	if [ $# -eq 1 ] && [ "$(header "$1" console)" = tmux ]; then
		boot_tmux "$idx" "$1" "$limit"
	else
		results_port "$out/boot-$idx.results"
		timeout --kill-after=10 "$limit" "$qemu" "${qemu_args[@]}" \
			-kernel "${boot_kernel:-$kernel}" -initrd "$out/initrd.gz" \
			-serial "file:$out/boot-$idx.console" "${res_args[@]}" \
			-append "$append_con panic=-1 oops=panic quiet pdtrace.run=$list$results_arg" \
			</dev/null >/dev/null 2>"$out/boot-$idx.qemu" || true
	fi
	# The guest's tty turns \n into \r\n.
	[ -f "$out/boot-$idx.results" ] && sed -i 's/\r$//' "$out/boot-$idx.results"
	[ -z "$results" ] || fetch_results "$out/boot-$idx.results"
	return 0
}

# boot, and once more when the guest never reached init: nothing of pdtrace or of the
# scenarios ran then (an emulated boot on a loaded host has hung before init, silent, until
# the timeout), so a second boot says what they do. Said on the TAP stream; the first
# boot's console is kept as boot-N.console.1.
boot_to_init() { # index names...
	local idx=$1
	boot "$@"
	grep -qs '^@@PDT BOOTED' "$out/boot-$idx.results" && return 0
	[ -f "$out/boot-$idx.console" ] && mv "$out/boot-$idx.console" "$out/boot-$idx.console.1"
	echo "# vm: boot $idx never reached init ($(tail -n1 "$out/boot-$idx.qemu" 2>/dev/null)); booting it again"
	boot "$@"
}

# The guest's /results, sent as a base64 tar between "@@PDT RESULTS" and "@@PDT RESULTS
# END" after the last scenario, unpacked into --results DIR.
fetch_results() { # results-file
	awk '$0 == "@@PDT RESULTS" { on = 1; next } $0 == "@@PDT RESULTS END" { on = 0 } on' "$1" |
		base64 -d | tar -xzf - -C "$results" 2>/dev/null ||
		echo "vm: no results came back from the guest (see $1)" >&2
}

# Emit TAP for the scenarios of one boot; counts into pass/fail.
report() { # index names...
	local idx=$1; shift
	local res=$out/boot-$idx.results s rc
	touch "$res"
	for s in "$@"; do
		n=$((n + 1))
		rc=$(awk -v s="$s" '$1 == "@@PDT" && $2 == "END" && $3 == s { print $4 }' "$res")
		kern=$(unexpected_kernel_lines "$res" "$s")
		if [ -n "$kern" ] && { [ "$rc" = 0 ] || [ "$rc" = 77 ]; }; then
			rc=kernel
		fi
		if [ "$rc" = 0 ]; then
			echo "ok $n - $tap/$s"
			pass=$((pass + 1))
			[ $verbose -eq 0 ] || scenario_output "$res" "$s"
			continue
		fi
		if [ "$rc" = 77 ]; then
			echo "ok $n - $tap/$s # SKIP $(scenario_output "$res" "$s" | sed -n 's/^#   SKIP: //p' | tail -n1)"
			skip=$((skip + 1))
			[ $verbose -eq 0 ] || scenario_output "$res" "$s"
			continue
		fi
		fail=$((fail + 1))
		if ! grep -q '^@@PDT BOOTED' "$res"; then
			echo "not ok $n - $tap/$s # the guest never reached init (boot failed; see $out/boot-$idx.console)"
		elif [ -z "$rc" ]; then
			echo "not ok $n - $tap/$s # did not finish: guest hung, crashed or timed out (see $out/boot-$idx.console)"
		elif [ "$rc" = 143 ]; then
			echo "not ok $n - $tap/$s # timed out after $(header "$s" timeout)s in the guest"
		elif [ "$rc" = kernel ]; then
			echo "not ok $n - $tap/$s # the kernel complained: $(head -n1 <<<"$kern" | cut -c1-160)"
		else
			echo "not ok $n - $tap/$s # exit status $rc"
		fi
		scenario_output "$res" "$s"
	done
}

# What the kernel logged during scenario NAME that its header does not expect: the guest's
# init sends each WARNING, BUG, Oops, panic ... it logs during a scenario ("@@PDT
# KERNEL NAME LINE"); any such line fails a scenario that passed (or skipped), unless it
# matches the extended regular expression of the scenario's "# expect-kernel: ERE" (a
# scenario that provokes the kernel on purpose, e.g. a pdtfaultfs fault with a WARN).
unexpected_kernel_lines() { # results name
	local want
	want=$(header "$2" expect-kernel)
	awk -v s="$2" '$1 == "@@PDT" && $2 == "KERNEL" && $3 == s { sub(/^@@PDT KERNEL [^ ]* /, ""); print }' "$1" |
		if [ -n "$want" ]; then grep -Ev -- "$want" || true; else cat; fi
}

scenario_output() { # results name
	awk -v s="$2" '$1 == "@@PDT" && $2 == "BEGIN" && $3 == s { on = 1; next }
		$1 == "@@PDT" && $2 == "END" && $3 == s { on = 0 }
		on { print "#   " $0 }' "$1"
}

main() {
	[ -x "$bin/pdtrace" ] || die "${bin#"$top"/}/pdtrace is missing: run make first"
	[ -x "$bin/guest-tools/pdt-fsop" ] && [ -x "$bin/guest-tools/pdt-bpfpin" ] ||
		die "${bin#"$top"/}/guest-tools is missing: run make guest-tools first"
	mkdir -p "$out"
	pick_kernel
	if [ $demo -eq 1 ]; then
		build_initramfs demo
		boot demo demo
		awk '$1 == "@@PDT" && $2 == "BEGIN" { on = 1; next } $1 == "@@PDT" && $2 == "END" { on = 0 } on' \
			"$out/boot-demo.results"
		grep -q '^@@PDT END demo 0$' "$out/boot-demo.results" || die "the demo failed (see $out/boot-demo.console)"
		return
	fi
	local user_scenarios=()
	if [ -n "$user_dir" ]; then
		[ -d "$user_dir" ] && ls "$user_dir"/*.sh >/dev/null 2>&1 || die "no scenarios (*.sh) in '$user_dir'"
		user_dir=$(readlink -f "$user_dir")
		for s in "$user_dir"/*.sh; do
			[ ! -f "$top/tests/vm/scenarios/$(basename "$s")" ] ||
				die "$s: pdtrace has a scenario of that name; rename yours"
			user_scenarios+=("$(basename "$s" .sh)")
		done
		[ ${#scenarios[@]} -gt 0 ] || scenarios=("${user_scenarios[@]}")
	fi
	if [ -n "$results" ]; then
		mkdir -p "$results" || die "cannot make '$results'"
		results=$(readlink -f "$results")
		results_arg=" pdtrace.results=1"
	fi
	if [ ${#scenarios[@]} -eq 0 ]; then
		for s in "$top"/tests/vm/scenarios/*.sh; do
			s=$(basename "$s" .sh)
			# "# suite: NAME": a longer scenario run by its own make target only.
			[ -n "$(header "$s" suite)" ] || scenarios+=("$s")
		done
	fi
	local shared=() own=() runnable=() lacking=() lacks=() s
	for s in "${scenarios[@]}"; do
		[ -f "$(script_of "$s")" ] || die "no scenario '$s'"
		if [ "$may_lack" = 1 ] && [ -n "$modules" ] && missing_module "$s"; then
			lacking+=("$s") lacks+=("$lacked")
			continue
		fi
		runnable+=("$s")
		if [ "$(header "$s" boot)" = own ] || [ -n "$(header "$s" kernel)" ] ||
			[ -n "$(header "$s" console)" ]; then
			own+=("$s")
		else
			shared+=("$s")
		fi
	done
	build_initramfs "${runnable[@]}"
	echo "# vm: kernel $(basename "$(dirname "$kernel")")/$(basename "$kernel"), ${#scenarios[@]} scenarios"
	echo "1..${#scenarios[@]}"
	n=0 pass=0 fail=0 skip=0
	if [ ${#shared[@]} -gt 0 ]; then
		boot_to_init 0 "${shared[@]}"
		report 0 "${shared[@]}"
	fi
	local i=1
	for s in "${own[@]}"; do
		boot_kernel=$(kernel_of "$s")
		boot_to_init "$i" "$s"
		report "$i" "$s"
		i=$((i + 1))
	done
	for i in "${!lacking[@]}"; do
		n=$((n + 1)) skip=$((skip + 1))
		echo "ok $n - $tap/${lacking[i]} # SKIP no module ${lacks[i]} in this kernel"
	done
	if [ "$skip" -gt 0 ]; then
		echo "vm: $pass passed, $fail failed, $skip skipped"
	else
		echo "vm: $pass passed, $fail failed"
	fi
	[ "$fail" -eq 0 ]
}

main
