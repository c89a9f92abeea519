# overlayfs with its upper layer on a tmpfs (and its lower one on another), driven by
# ordinary tools as users run them (GNU coreutils and tar from the sid root): the lower
# layer filled with cp -a, then in the merged tree cp -a (new entries in the upper layer),
# mv of a lower directory (a copy and removal: whiteouts), touch and chmod (copy-up),
# tar c and tar x, rm -r (whiteouts over the lower entries); three rounds under pdtrace
# check, the layers emptied between rounds with rm -rf and, after the last, unmounted as
# they are (the umount walk unpins the lower tree and the upper one's whiteouts). No
# finding, complete data, the self-check clean, the books of both tmpfs back to zero.
# suite: clients
# root: sid
# timeout: 900
# modules: overlay
. /lib.sh
need_sid cp tar
ROUNDS=3
! client_prep_only || ROUNDS=1
o=/mnt/ovl
mkdir -p "$SID$o/lower" "$SID$o/up" "$SID$o/merged"

# overlay_check JSON: after the run, what the tools said they did; its line of the table.
overlay_check() {
	local out=/tmp/client-overlay.out ops
	expect_no_grep '^@client .* failed\|^@client umount failed' $out "overlayfs: every tool succeeded"
	expect_eq "$(grep -c '^@client round ' $out)" "$ROUNDS" "overlayfs: every round ran"
	expect_eq "$(awk '$1 == "@client" && $2 == "round" && $5 > 0 && $7 > 0 && $9 > 0 && $11 > 0 && $13 > 0 && $15 > 0 && $17 == 0' $out | wc -l)" \
		"$ROUNDS" "overlayfs: each tool acted on entries, nothing left in the merged tree"
	ops=$(awk '$1 == "@client" && $2 == "round" { for (i = 4; i < 16; i += 2) { if (!($i in n)) k[++m] = $i; n[$i] += $(i + 1) } }
		END { for (i = 1; i <= m; i++) printf "%s%s %d", (i > 1 ? ", " : ""), k[i], n[k[i]] }' $out)
	client_summary "cp/mv/tar/rm" "overlayfs (tmpfs upper, tmpfs lower)" "$ROUNDS rounds, -v lines: $ops" \
		"$1" $(client_devs $out upper lower)
}

client_home_dir overlay
cat >/tmp/client-overlay.sh <<EOS
. /lib.sh
client_home overlay || exit 1
mount -t tmpfs ovl-lower $SID$o/lower && echo "@client dev lower \$(dev_of $SID$o/lower)" || exit 1
mount -t tmpfs ovl-up $SID$o/up && echo "@client dev upper \$(dev_of $SID$o/up)" || exit 1
set -o pipefail
v() { # what tool args...: the number of lines the tool says it did (its -v output)
	local w=\$1 n
	shift
	n=\$(sid "\$@" | wc -l) && echo "\$n" || { echo "@client \$w failed: \$*" >&2; echo 0; }
}
for r in \$(seq 1 $ROUNDS); do
	lo=\$(v cp-lower cp -av /etc /usr/lib/python3/dist-packages/rtslib /usr/lib/python3/dist-packages/configshell $o/lower/)
	sid mkdir $o/up/upper $o/up/work
	mount -t overlay "client-ovl\$r" -o lowerdir=$SID$o/lower,upperdir=$SID$o/up/upper,workdir=$SID$o/up/work $SID$o/merged ||
		echo "@client mount overlay failed"
	m=$o/merged
	cp=\$(v cp cp -av \$m/etc \$m/etc.copy)
	mv=\$(v mv mv -v \$m/rtslib \$m/rtslib.moved)
	sid touch \$m/etc/hostname \$m/configshell/__init__.py || echo "@client touch failed"
	sid chmod 600 \$m/etc/passwd \$m/etc.copy/group || echo "@client chmod failed"
	tc=\$(v tar-c tar -cvf tree.tar -C \$m etc.copy configshell rtslib.moved)
	sid mkdir \$m/untar
	tx=\$(v tar-x tar -xvf tree.tar -C \$m/untar)
	rm=\$(v rm rm -rv \$m/etc \$m/etc.copy \$m/configshell \$m/rtslib.moved \$m/untar)
	sid rm tree.tar
	echo "@client round \$r lower \$lo cp \$cp mv \$mv tar-c \$tc tar-x \$tx rm \$rm left \$(find $SID\$m -mindepth 1 | wc -l)"
	umount $SID$o/merged || echo "@client umount overlay failed"
	# The last round's layers are left to their umounts (which unpin what they hold).
	[ \$r -eq $ROUNDS ] || sid rm -rf $o/up/upper $o/up/work $o/lower/etc $o/lower/rtslib $o/lower/configshell
done
umount $SID$o/up && umount $SID$o/lower && client_home_down || echo "@client umount failed"
EOS
! client_prep_only || return 0
client_run client-overlay /tmp/client-overlay.sh
client_clean "overlayfs on tmpfs" /tmp/client-overlay.json
overlay_check /tmp/client-overlay.json
finish
