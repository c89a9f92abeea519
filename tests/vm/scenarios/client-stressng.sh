# stress-ng's filesystem stressors (those that create, link, rename and remove names) on
# tmpfs, ramfs and hugetlbfs, as its users run them: one instance of each stressor at
# once, bounded by operation counts (--STRESSOR-ops), --temp-path on the filesystem under
# test, --metrics-brief; then a dozen workers at once for 15 s on tmpfs and ramfs. Each
# filesystem is mounted and unmounted under pdtrace check, with its default buffers: no
# finding, complete data (no event lost), the self-check clean, the books back to zero.
# suite: clients
# root: sid
# timeout: 1500
. /lib.sh
need_sid stress-ng
# STRESSOR:OPS. dentry makes --dentries entries per operation, dirmany keeps adding
# entries in one directory for a whole operation, dirdeep adds a level per operation, one
# operation of link, symlink or unlink is a batch of thousands of names (8192 for link).
ALL="dir:200 dirdeep:100 dirmany:20 dentry:10 link:1 symlink:1 rename:200 mknod:100 filename:100"
# hugetlbfs has no symlinks (hugetlbfs_symlink() fails: page_symlink() writes through
# hugetlbfs_write_begin(), which is -EINVAL) and no write(2), so only the stressors that
# make names of empty files, directories and nodes.
HUGE="dir:200 dirdeep:100 dentry:10 link:1 rename:200 mknod:100 filename:100"
# touch and unlink end every other stressor of their stress-ng run when they reach their
# operation count (stress-ng 0.22 does so, on any filesystem): each runs on its own after.
ALONE="touch:200 unlink:2"

# stress_script FSTYPE MOUNT-OPTIONS STRESSOR:OPS...: /tmp/client-stress-FSTYPE.sh, a run
# that mounts FSTYPE, runs the stressors on it and takes it down.
stress_script() {
	local fs=$1 opts=$2 m=/mnt/$1 args= s
	shift 2
	for s in "$@"; do args="$args --${s%%:*} 1 --${s%%:*}-ops ${s#*:}"; done
	mkdir -p "$SID$m"
	client_home_dir "stress-$fs"
	cat >/tmp/client-stress-$fs.sh <<EOS
. /lib.sh
client_home stress-$fs || exit 1
mount -t $fs $opts client-$fs $SID$m || exit 1
echo "@client dev fs \$(dev_of $SID$m)"
ng() { sid stress-ng --temp-path $m --metrics-brief --dentries 64 --dirdeep-inodes 400 "\$@"; echo "@client stress-ng exit \$?"; }
ng $args
for s in $ALONE; do ng --\${s%%:*} 1 --\${s%%:*}-ops \${s#*:}; done
find $SID$m -mindepth 1 | sed 's/^/left: /'
umount $SID$m && client_home_down || echo "@client umount failed"
EOS
}

# stress_check JSON FSTYPE STRESSOR:OPS...: after the run of /tmp/client-stress-FSTYPE.sh,
# what stress-ng said it did; its line of the table.
stress_check() {
	local json=$1 fs=$2 out=/tmp/client-stress-$2.out ops s n short
	shift 2
	set -- "$@" $ALONE
	# Its own count of each stressor's operations (--metrics-brief), every one reported.
	ops=$(awk '$2 == "metrc:" && $4 != "stressor" && $5 ~ /^[0-9]+$/ { printf "%s%s %s", sep, $4, $5; sep = ", " }' "$out")
	short=
	for s in "$@"; do
		n=$(echo ", $ops," | sed -n "s/.*, ${s%%:*} \([0-9]*\),.*/\1/p")
		[ "${n:-0}" -ge "${s#*:}" ] || short="$short ${s%%:*} (${n:-no} of ${s#*:})"
	done
	expect_eq "$short" "" "stress-ng on $fs: every stressor did the operations it was asked (short:)"
	expect_eq "$(grep -c '^@client stress-ng exit 0$' "$out")" 3 "stress-ng on $fs: its 3 runs exit 0"
	expect_eq "$(grep -c 'info: .* failed: 0$' "$out")" 3 "stress-ng on $fs: no stressor failed"
	expect_no_grep '^left: \|^@client umount failed' "$out" "stress-ng on $fs: it removed all it made, the umounts went through"
	client_summary stress-ng "$fs" "$ops" "$json" "$(client_devs "$out" fs)"
}

stress_fs() { # FSTYPE MOUNT-OPTIONS STRESSOR:OPS...
	local fs=$1
	stress_script "$@"
	shift 2
	echo "== stress-ng on $fs: $* $ALONE"
	client_run client-stress-$fs /tmp/client-stress-$fs.sh
	client_clean "stress-ng on $fs" /tmp/client-stress-$fs.json
	stress_check /tmp/client-stress-$fs.json "$fs" "$@"
}

if client_prep_only; then
	stress_script tmpfs "" $ALL
	return 0
fi
stress_fs tmpfs "" $ALL
stress_fs ramfs "" $ALL
stress_fs hugetlbfs "-o pagesize=2M" $HUGE

# Then as a stress run is mostly given: a dozen workers at once (two of each stressor that
# makes and removes names in bulk) for 15 seconds, on tmpfs and on ramfs. Streamed, their
# events would outrun the reader through the default ring buffer many times over.
WORKERS="--dir 2 --dentry 2 --link 2 --symlink 2 --rename 2 --mknod 2 --timeout 15s"
workers_fs() { # FSTYPE
	local fs=$1 m=/mnt/w-$1 out=/tmp/client-workers-$1.out ops
	mkdir -p "$SID$m"
	cat >/tmp/client-workers-$fs.sh <<EOS
. /lib.sh
mount -t $fs workers-$fs $SID$m || exit 1
echo "@client dev fs \$(dev_of $SID$m)"
sid stress-ng --temp-path $m --metrics-brief $WORKERS; echo "@client stress-ng exit \$?"
find $SID$m -mindepth 1 | sed 's/^/left: /'
umount $SID$m || echo "@client umount failed"
EOS
	echo "== stress-ng on $fs: $WORKERS"
	client_run client-workers-$fs /tmp/client-workers-$fs.sh
	client_clean "stress-ng workers on $fs" /tmp/client-workers-$fs.json
	expect_eq "$(grep -c '^@client stress-ng exit 0$' "$out")" 1 "stress-ng workers on $fs: exit 0"
	expect_no_grep '^left: \|^@client umount failed' "$out" "stress-ng workers on $fs: all removed, unmounted"
	ops=$(awk '$2 == "metrc:" && $4 != "stressor" && $5 ~ /^[0-9]+$/ { printf "%s%s %s", sep, $4, $5; sep = ", " }' "$out")
	client_summary "stress-ng, 12 workers, 15 s" "$fs" "$ops" /tmp/client-workers-$fs.json \
		"$(client_devs "$out" fs)"
}
workers_fs tmpfs
workers_fs ramfs
finish
