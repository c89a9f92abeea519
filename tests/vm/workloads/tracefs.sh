# tracefs (fs/tracefs, kernel/trace): a tracing instance made and removed by mkdir/rmdir
# in instances/, its eventfs "events" directory looked into, refused operations, and a
# fresh mount and umount of tracefs.
#
# From the source:
# - instances/ has tracefs_syscall_mkdir(): it does not persist the VFS's dentry itself;
#   it calls instance_mkdir() -> trace_array_create(), which makes the instance directory
#   and everything in it with tracefs_create_dir()/tracefs_create_file() (each ->
#   d_make_persistent() on a dentry looked up by tracefs_start_creating()).
#   What one instance holds on this kernel: its directory; 31 entries at its top
#   (init_tracer_tracefs: 11 files, "options", "per_cpu", 6 more files, the function
#   filter files (2), snapshot, error_log, ftrace_init_tracefs (2); and
#   create_event_toplevel_files: set_event, events, set_event_pid, set_event_notrace_pid,
#   show_event_filters, show_event_triggers); options/: 44 files (create_trace_options_dir:
#   one per trace_options[] flag that is not top-level only, plus add_tracer_options() for
#   the tracers an instance may use); per_cpu/: per possible CPU (for_each_tracing_cpu)
#   "cpuN" and 7 files (tracing_init_tracefs_percpu). So 1 + 31 + 44 + 8 * CPUs.
# - "events" is eventfs: eventfs_create_events_dir() makes only that directory persistent;
#   everything below it is made on lookup (lookup_dir_entry/lookup_file ->
#   d_splice_alias) and is never persistent, so looking into it adds no calls.
# - rmdir: tracefs_syscall_rmdir() -> instance_rmdir() -> __remove_instance():
#   eventfs_remove_events_dir() discards "events" (d_invalidate, d_make_discardable), then
#   tracefs_remove() -> simple_recursive_removal() discards the rest, directory last:
#   as many discards as persists.
# - Directories other than instances/ have no ->mkdir: EPERM. tracefs_get_tree() ->
#   get_tree_single(): every mount is the kernel's one superblock; umount unpins nothing.

WL_TRACEFS_DIR=/mnt/wl-tracefs
WL_TRACEFS_DIR2=/mnt/wl-tracefs2

. /workloads/common.sh

# Possible CPUs ("0-1" -> 2): tracefs makes per_cpu/cpuN for each.
wl_tracefs_cpus() { awk -F- '{ print ($2 == "" ? 1 : $2 + 1) }' /sys/devices/system/cpu/possible; }
wl_tracefs_instance_entries() { echo $((1 + 31 + 44 + 8 * $(wl_tracefs_cpus))); }

# Entries below DIR, not looking below "events" (eventfs would make them on lookup).
wl_tracefs_count() {
	local e n=0
	for e in "$1"/*; do
		n=$((n + 1))
		[ -d "$e" ] && [ ! -L "$e" ] && [ "${e##*/}" != events ] && n=$((n + $(wl_tracefs_count "$e")))
	done
	echo "$n"
}

wl_tracefs_setup() { mkdir -p "$WL_TRACEFS_DIR" "$WL_TRACEFS_DIR2"; }

wl_tracefs_run() {
	local m=$WL_TRACEFS_DIR i n
	wl_need_dirs "$m" "$WL_TRACEFS_DIR2" || return 1
	# The guest mounts no tracefs, yet the first mount holds the kernel's files: the
	# superblock exists since boot. A second mount is the same one.
	wl_do mount -t tracefs pdt-wl-tracefs "$m"
	wl_note_dev tracefs "$m"
	wl_exists "$m/trace" "$m/events" "$m/instances"
	wl_do mount -t tracefs pdt-wl-tracefs "$WL_TRACEFS_DIR2"
	wl_same_sb "$m" "$WL_TRACEFS_DIR2"
	wl_do umount "$WL_TRACEFS_DIR2"
	i=$m/instances/pdt-wl
	wl_absent "$i"

	wl_do mkdir "$i"                              # made 1 + 31 + 44 + 8 * CPUs
	n=$(wl_tracefs_count "$i")
	echo "@wl present instance $n"
	[ "$n" -eq $(($(wl_tracefs_instance_entries) - 1)) ] ||
		wl_fail "the instance holds $n entries, want $(($(wl_tracefs_instance_entries) - 1))"
	wl_do ls "$i/events/sched/sched_switch" >/dev/null # eventfs: no call
	wl_do cat "$i/events/sched/sched_switch/format" >/dev/null
	wl_refused EEXIST pdt-fsop mkdir "$i"
	wl_refused EPERM pdt-fsop mkdir "$i/sub"
	wl_refused EPERM pdt-fsop mkdir "$m/sub"
	wl_do rmdir "$i"                              # discarded as many
	wl_absent "$i"

	wl_do umount "$m"
	wl_end
}

wl_tracefs_expect() {
	local n
	n=$(wl_tracefs_instance_entries)
	echo "tracefs $(wl_obs dev tracefs) $n $n 0"
}
