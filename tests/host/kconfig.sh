#!/usr/bin/env bash
# Host tests of the kernel configuration make kernel builds (kconfig/): every module a VM
# scenario loads ("# modules:" headers, and the 9p modules tests/vm/run.sh adds for a
# "# root: sid" scenario) has its line in kconfig/modules.map, and that line's symbol is
# set, y or m, by kconfig/base.config and kconfig/pdtrace.config; the map has no line
# that no scenario needs. TAP output.
# --kernel KDIR (make kerneltest): also the kernel make kernel built in KDIR has every
# module of the map, in its modules.order (or modules.builtin, built in), so that a line
# naming a symbol that does not build its module fails here and not in the middle of a run.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
kdir=
case "${1:-}" in
'') ;;
--kernel) kdir=${2:?--kernel needs a directory} ;;
*) echo "usage: tests/host/kconfig.sh [--kernel KDIR]" >&2; exit 2 ;;
esac
map=$top/kconfig/modules.map
frags=("$top/kconfig/base.config" "$top/kconfig/pdtrace.config")
scen=$top/tests/vm/scenarios

# The map without its comments: MODULE SYMBOL, one a line.
entries=$(sed 's/#.*//' "$map" | awk 'NF')
bad=$(awk 'NF != 2 || seen[$1]++ { print NR ": " $0 }' <<<"$entries")
[ -n "$entries" ] && [ -z "$bad" ]
check $? "kconfig/modules.map: every line is MODULE SYMBOL, each module once" "$bad"
symbol_of() { awk -v m="$1" '$1 == m { print $2 }' <<<"$entries"; }

# MODULE SCENARIO for every module a scenario loads, read as run.sh reads its headers
# (the first "# modules:" line; "name?" is a module where the kernel has one).
needed=$(
	for s in "$scen"/*.sh; do
		sed -n 's/^# modules: *//p' "$s" | head -n1 | tr ' ' '\n' | sed 's/?$//' |
			awk -v s="$(basename "$s" .sh)" 'NF { print $1, s }'
	done
)
# The 9p modules, as run.sh lists them for a scenario that shares the sid root.
sid=$(grep -l '^# root: sid$' "$scen"/*.sh)
if [ -n "$sid" ]; then
	sid_mods=$(sed -n 's/^[[:space:]]*sid_mods=(\([^)]*\))$/\1/p' "$top/tests/vm/run.sh")
	[ -n "$sid_mods" ]
	check $? "tests/vm/run.sh lists the 9p modules of a '# root: sid' scenario (sid_mods=(...))"
	needed+=$'\n'$(for m in $sid_mods; do echo "$m root:sid"; done)
fi
[ "$(awk 'NF' <<<"$needed" | wc -l)" -ge 20 ]
check $? "the scenarios' headers name their modules" "$needed"

# The value the fragments leave SYMBOL at: the last line about it, merged in their order.
frag_value() {
	grep -hE "^(CONFIG_$1=|# CONFIG_$1 is not set)" "${frags[@]}" | tail -n1 | sed -n "s/^CONFIG_$1=//p"
}
for m in $(awk '{ print $1 }' <<<"$needed" | sort -u); do
	who=$(awk -v m="$m" '$1 == m { print $2 }' <<<"$needed" | sort -u | tr '\n' ' ')
	name="module $m (${who% }): in kconfig/modules.map, its symbol set by the fragments"
	sym=$(symbol_of "$m")
	if [ -z "$sym" ]; then
		not_ok "$name" "kconfig/modules.map has no line for $m: add 'MODULE SYMBOL' (the obj-\$(CONFIG_SYMBOL) line of its Makefile)"
		continue
	fi
	v=$(frag_value "$sym")
	[ "$v" = y ] || [ "$v" = m ]
	check $? "$name" "CONFIG_$sym is ${v:-not set} in kconfig/base.config + kconfig/pdtrace.config: set it (y or m) with what it depends on"
done
# Only what the scenarios need: a line no scenario needs any more goes, with its option.
extra=$(awk '{ print $1 }' <<<"$entries" | while read -r m; do
	awk -v m="$m" '$1 == m { f = 1 } END { exit !f }' <<<"$needed" || echo "$m"
done)
[ -z "$extra" ]
check $? "kconfig/modules.map has no module that no scenario loads" "not loaded by any scenario: $(echo $extra)"

# The kernel make kernel built from the fragments: every module of the map in it.
if [ -n "$kdir" ]; then
	rel=$(cat "$kdir/RELEASE" 2>/dev/null)
	mdir=$kdir/modules/lib/modules/$rel
	[ -n "$rel" ] && [ -f "$mdir/modules.order" ] && [ -f "$kdir/config" ]
	check $? "$kdir is a kernel make kernel built (RELEASE, config, modules.order)" ||
		{ echo "1..$n"; exit 1; }
	# MODULE.ko, or its name with - and _ swapped (kbuild keeps the Makefile's spelling).
	has_module() { # list module
		local u=${2//-/_} d=${2//_/-}
		grep -qE "(^|/)($2|$u|$d)\.ko$" "$1"
	}
	while read -r m sym; do
		v=$(sed -n "s/^CONFIG_$sym=//p" "$kdir/config")
		if has_module "$mdir/modules.order" "$m"; then
			where="a module"
		elif [ -f "$mdir/modules.builtin" ] && has_module "$mdir/modules.builtin" "$m"; then
			where="built in"
		else
			where=
		fi
		[ -n "$where" ] && { [ "$v" = y ] || [ "$v" = m ]; }
		check $? "the kernel built has $m (${where:-missing}), CONFIG_$sym=${v:-unset}" \
			"kconfig/modules.map says CONFIG_$sym builds $m, but $mdir has no $m.ko in modules.order or modules.builtin: the map line is wrong, or the fragments lack what $m depends on"
	done <<<"$entries"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
