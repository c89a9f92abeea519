#!/usr/bin/env bash
# Which modules of a kernel's modules package the hunt loads: those that touch a
# tree-in-dcache filesystem (debugfs, tracefs, configfs, securityfs, or a filesystem of
# their own built with d_make_persistent()), found by their undefined symbols, plus the
# modules without hardware aliases that depend on one of those (protocols, virtual
# devices: mac80211_hwsim through mac80211, nvme-loop through nvmet), or that make
# device nodes or disks through the driver core (devtmpfs is a tmpfs; a disk gets
# debugfs directories from the block layer): loop, brd, tun, fuse, uinput ..., or a
# shrinker or an input handler (debugfs, devtmpfs).
#
# Usage: tests/hunt/select.sh MODULES_DIR OUT_DIR
#   MODULES_DIR: lib/modules/VERSION of the package (with modules.dep)
#   OUT_DIR gets:
#     scan.undef    "PATH SYMBOL" per undefined symbol of every module (cached: the scan
#                   decompresses all of them, about a minute on 2 cores)
#     scan.modinfo  "PATH KEY=VALUE" per .modinfo field
#     modules.tsv   the selection, dependencies first: NAME PATH CLASS APIS HW NDEPS
#                   (CLASS direct: APIS the families it calls; indirect: via:DEPENDENCY or
#                   via:driver-core)
#     left-out.tsv  every other module, the same way (CLASS no-api, or hw-indirect with
#                   APIS via:DEPENDENCY)
#     summary.txt   the counts
set -euo pipefail

mods=${1:?modules directory}
out=${2:?output directory}
mkdir -p "$out"

# The tree-in-dcache API, by family (the family is what the table says a module uses).
api_family() {
	awk '
	function fam(s) {
		if (s ~ /^debugfs_/) return "debugfs"
		if (s ~ /^tracefs_/ || s == "trace_array_get_by_name") return "tracefs"
		if (s ~ /^(configfs_|config_group_|config_item_)/) return "configfs"
		if (s ~ /^securityfs_/) return "securityfs"
		if (s ~ /^rpc_(mkpipe_dentry|pipefs_notifier_register)$/) return "rpc_pipefs"
		if (s ~ /^(d_make_persistent|d_make_discardable|simple_recursive_removal|locked_recursive_removal|simple_pin_fs|simple_fill_super|simple_start_creating)$/) return "own-fs"
		return ""
	}
	{ f = fam($2); if (f != "" && !seen[$1 SUBSEP f]++) fams[$1] = fams[$1] (fams[$1] == "" ? "" : ",") f }
	END { for (m in fams) print m, fams[m] }'
}

# Modules that make device nodes or disks through the driver core, or entries through
# another part of the kernel: a shrinker gets a debugfs directory (shrinker_debugfs_add),
# an input handler a device node per input device already there (evdev, joydev). The last
# two were found by hunting the modules left out (--set left-out): erofs and evdev made
# entries there.
driver_core() {
	awk '$2 ~ /^(misc_register|device_create|device_create_with_groups|__register_chrdev|cdev_device_add|device_add_disk|__device_add_disk|add_disk|__blk_alloc_disk|__blk_mq_alloc_disk|__alloc_disk_node|shrinker_register|input_register_handler)$/ { print $1 }' | sort -u
}

# Every module decompressed once into a scratch tree, then nm and readelf over all of
# them at once (one process per module for each would take several minutes).
scan() {
	local tmp
	[ -s "$out/scan.undef" ] && [ -s "$out/scan.modinfo" ] && return 0
	tmp=$(mktemp -d "$out/scan.XXXXXX")
	(cd "$mods" && find kernel -name '*.ko*' -print0) |
		xargs -0 -P"$(nproc)" -n 64 sh -c '
			t=$1; m=$2; shift 2
			for f; do
				o=$t/${f%.*}; mkdir -p "${o%/*}"
				case "$f" in
				*.xz) xz -dc "$m/$f" >"$o" ;;
				*.zst) zstd -dcq "$m/$f" >"$o" ;;
				*) cp "$m/$f" "$o.ko" ;;
				esac
			done' sh "$tmp" "$mods"
	(cd "$tmp" && find kernel -name '*.ko' -print0 | xargs -0 nm -u -A) |
		awk '{ sub(/:$/, "", $1); print $1, $NF }' >"$out/scan.undef.new"
	(cd "$tmp" && find kernel -name '*.ko' -print0 | xargs -0 readelf -p .modinfo 2>/dev/null) |
		awk '/^File: / { f = $2; next } /\]  / { sub(/^ *\[ *[0-9a-f]+\]  /, ""); print f, $0 }' \
			>"$out/scan.modinfo.new"
	rm -rf "$tmp"
	mv "$out/scan.undef.new" "$out/scan.undef"
	mv "$out/scan.modinfo.new" "$out/scan.modinfo"
}

# Modules with an alias that names hardware (a bus's device table): without the device
# they register a driver and make nothing.
hw_modules() {
	awk '$2 ~ /^alias=/ { a = substr($2, 7); sub(/:.*/, "", a)
		if (a ~ /^(pci|usb|of|acpi\*?|platform|i2c|spi|hid|serio|mdio|wmi|hdaudio|dmi\*?|pcmcia|sdw|sdio|ieee1394|pnp|dmi|xen|vmbus|mei|ssam|mhi|virtio|auxiliary|ishtp|ccw|ap|zorro|amba|hdaudio|input|ipack|rpmsg|fsl-mc|tee|cpu|eisa|isa|parport|scmi|spmi|slim|typec|vio|snd_ac97|gameport|serial|tbsvc|ulpi|fsi|mcb|nd|dfl|cxl|ism|bcma|ssb|mipi-dsi|greybus|wmi|pcmcia|hid|spi|sdw|ieee802154|net-pf-31|apr|mhi_ep|fw|hdaudio|ssb|sound)$/) print $1 }' \
		"$out/scan.modinfo" | sort -u
}

select_modules() {
	# Paths in the scan are PATH.ko; modules.dep names the package's files.
	api_family <"$out/scan.undef" | sort >"$out/apis"
	hw_modules >"$out/hw"
	driver_core <"$out/scan.undef" >"$out/devnodes"
	# name path: every module of the package.
	(cd "$mods" && find kernel -name '*.ko*') | sort |
		awk '{ p = $1; n = p; sub(/.*\//, "", n); sub(/\.ko.*/, "", n); print n, p }' >"$out/all"
	awk -v apis="$out/apis" -v hw="$out/hw" -v dn="$out/devnodes" -v dep="$mods/modules.dep" -v lo="$out/left-out.tsv" '
		function strip(p) { sub(/\.ko.*/, "", p); return p }
		BEGIN {
			while ((getline l < apis) > 0) { split(l, a, " "); api[strip(a[1])] = a[2] }
			while ((getline l < hw) > 0) ishw[strip(l)] = 1
			while ((getline l < dn) > 0) devn[strip(l)] = 1
			while ((getline l < dep) > 0) {
				split(l, a, ":"); m = strip(a[1]); n = split(a[2], d, " ")
				ndep[m] = n; deps[m] = ""
				for (i = 1; i <= n; i++) deps[m] = deps[m] " " strip(d[i])
			}
		}
		{
			p = strip($2)
			if (p in api) { print $1, $2, "direct", api[p], (p in ishw) ? "hw" : "-", ndep[p] + 0; next }
			# Indirect: one of its dependencies calls the API.
			via = ""
			n = split(deps[p], d, " ")
			for (i = 1; i <= n; i++) if (d[i] in api) { via = d[i]; sub(/.*\//, "", via); break }
			if (via == "" && (p in devn) && !(p in ishw)) { print $1, $2, "indirect", "via:driver-core", "-", ndep[p] + 0; next }
			if (via == "") { print $1, $2, "no-api", "-", (p in ishw) ? "hw" : "-", ndep[p] + 0 > lo; next }
			if (p in ishw) { print $1, $2, "hw-indirect", "via:" via, "hw", ndep[p] + 0 > lo; next }
			print $1, $2, "indirect", "via:" via, "-", ndep[p] + 0
		}' "$out/all" | sort -k6,6n -k1,1 -s >"$out/modules.tsv"
	sort -k6,6n -k1,1 -s -o "$out/left-out.tsv" "$out/left-out.tsv"
}

summary() {
	{
		echo "modules in the package: $(wc -l <"$out/all")"
		echo "selected: $(wc -l <"$out/modules.tsv")"
		echo "  calling the API themselves: $(awk '$3 == "direct"' "$out/modules.tsv" | wc -l)" \
			"(of which hardware drivers: $(awk '$3 == "direct" && $5 == "hw"' "$out/modules.tsv" | wc -l))"
		awk '$3 == "direct" { n = split($4, f, ","); for (i = 1; i <= n; i++) c[f[i]]++ }
			END { for (k in c) printf "    %s: %d\n", k, c[k] }' "$out/modules.tsv" | sort
		echo "  without hardware aliases, through a dependency that calls it: $(awk '$3 == "indirect" && $4 != "via:driver-core"' "$out/modules.tsv" | wc -l)"
		echo "  without hardware aliases, making device nodes, disks, shrinkers or input handlers (devtmpfs, debugfs): $(awk '$4 == "via:driver-core"' "$out/modules.tsv" | wc -l)"
		echo "left out: $(wc -l <"$out/left-out.tsv")"
		echo "  no-api (neither it nor any dependency calls the API, none of the above): $(awk '$3 == "no-api"' "$out/left-out.tsv" | wc -l)"
		echo "  hw-indirect (hardware drivers; only a dependency calls it): $(awk '$3 == "hw-indirect"' "$out/left-out.tsv" | wc -l)"
	} >"$out/summary.txt"
}

scan
select_modules
summary
cat "$out/summary.txt"
