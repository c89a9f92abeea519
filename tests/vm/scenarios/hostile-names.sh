# Names are whatever their makers chose. Entries named with every byte 0x01-0x1f and
# 0x7f, quotes, a backslash, <&>, bytes that are not UTF-8 and 255 bytes, on a tmpfs
# mounted at a directory whose own name holds an escape sequence and a tab: every
# line of trace -e's JSON and check's JSON pass a strict parser (pdt-jsonck), and no
# control byte or non-ASCII byte reaches a terminal from the text outputs; the same for
# watch (lines, JSON, the Prometheus file) and for record + report.
# timeout: 240
. /lib.sh
m=$(printf '/mnt/h\033[31mred\ttab')
mkdir -p "$m" && mount -t tmpfs hn "$m" || { fail "mount tmpfs"; finish; }
# The workload: one file per hostile name, each created and left, then removed.
cat >/tmp/hn.sh <<'WL'
m=$1
for b in 001 002 003 004 005 006 007 010 011 012 013 014 015 016 017 020 021 022 023 \
	024 025 026 027 030 031 032 033 034 035 036 037 177; do
	: >"$m/$(printf "n\\${b}x")"
done
: >"$m/q\"b\\s" && : >"$m/<&>" && : >"$m/$(printf '\377\376bad')" && : >"$m/$(printf '\302\233csi')"
: >"$m/$(printf '%0255d' 0)"
mkdir "$m/$(printf 'd\033]0;title\007')" && : >"$m/$(printf 'd\033]0;title\007')/$(printf 'f\nx')"
rm -rf "$m"/*
WL
n_made=39
raw() { LC_ALL=C tr -d '\040-\176\n' <"$1" | wc -c; } # bytes a terminal could obey

$PDTRACE check -f json -o /tmp/hn.json -- sh /tmp/hn.sh "$m" >/tmp/hn.out 2>&1
expect_eq "$?" 0 "check: no findings, exit 0"
pdt-jsonck /tmp/hn.json && pass "check JSON: valid" || fail "check JSON: not valid"
expect_grep "\"made\":$n_made,\"discarded\":$n_made," /tmp/hn.json "check JSON: exact books"
expect_grep '"mountpoint":"/mnt/h\\u001b\[31mred\\u0009tab"' /tmp/hn.json "check JSON: the mountpoint escaped"
$PDTRACE check -o /tmp/hn.txt -- sh /tmp/hn.sh "$m" >/dev/null 2>&1
expect_eq "$?" 0 "check text: exit 0"
expect_eq "$(raw /tmp/hn.txt)" 0 "check text: no control byte reaches the terminal"
expect_grep '/mnt/h\\x1b\[31mred\\x09tab' /tmp/hn.txt "check text: the mountpoint escaped"

# trace -e (--events): every lifecycle event with its path, in JSON and in text.
for fmt in json text; do
	$PDTRACE trace -e -f $fmt >/tmp/hn-trace.$fmt 2>/tmp/hn-trace.$fmt.err &
	pid=$!
	i=0
	while ! grep -q 'tracing persistent dentries' /tmp/hn-trace.$fmt.err && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
	sh /tmp/hn.sh "$m"
	kill -INT $pid
	wait $pid
	echo "trace $fmt: exit $?"
done
pdt-jsonck --lines /tmp/hn-trace.json && pass "trace -e JSON: every line valid" ||
	fail "trace -e JSON: a line is not valid"
expect_eq "$(grep -c '"event":"persist"' /tmp/hn-trace.json)" $n_made "trace -e JSON: every persist, one line each"
expect_grep '"path":"/n\\u001bx"' /tmp/hn-trace.json "trace -e JSON: ESC escaped in a path"
expect_grep '"path":"/n\\nx"' /tmp/hn-trace.json "trace -e JSON: a newline escaped"
expect_grep '"path":"/q\\"b\\\\s"' /tmp/hn-trace.json "trace -e JSON: quote and backslash escaped"
expect_eq "$(raw /tmp/hn-trace.text)" 0 "trace -e text: no control byte reaches the terminal"
expect_eq "$(grep -c '^persist ' /tmp/hn-trace.text)" $n_made "trace -e text: one line per persist"
expect_grep '/d\\x1b\]0;title\\x07/f\\x0ax' /tmp/hn-trace.text "trace -e text: a nested path escaped"
# watch: lines, JSON and the Prometheus file, with the hostile mountpoint in each.
for mode in lines json; do
	opt="-f text"; [ $mode = json ] && opt=--json
	$PDTRACE watch -i 0.3 -n 3 $opt --prometheus /tmp/hn.prom >/tmp/hn-watch.$mode 2>/dev/null
	echo "watch $mode: exit $?"
done
pdt-jsonck --lines /tmp/hn-watch.json && pass "watch --json: every line valid" ||
	fail "watch --json: a line is not valid"
expect_grep '"mountpoint":"/mnt/h\\u001b\[31mred\\u0009tab"' /tmp/hn-watch.json "watch --json: the mountpoint escaped"
expect_eq "$(raw /tmp/hn-watch.lines)" 0 "watch lines: no control byte reaches the terminal"
expect_grep ' /mnt/h\\x1b\[31mred\\x09tab ' /tmp/hn-watch.lines "watch lines: the mountpoint escaped"
# Prometheus: UTF-8, and a tab or escape inside a label value is legal there, a newline is not.
expect_grep 'mountpoint="/mnt/h.\[31mred	tab"' /tmp/hn.prom "Prometheus: the mountpoint in its label"
expect_eq "$(grep -c '^pdtrace_' /tmp/hn.prom)" "$(grep -c '^pdtrace_[a-z_]*\({[^}]*}\)\? [0-9]*$' /tmp/hn.prom)" \
	"Prometheus: every sample line is one line, labels closed"

# record and report: the recording carries the names; report prints them safely.
$PDTRACE record -o /tmp/hn.pdtrec -- sh /tmp/hn.sh "$m" >/dev/null 2>&1
expect_eq "$?" 0 "record: exit 0"
$PDTRACE report /tmp/hn.pdtrec >/tmp/hn-rep.txt 2>&1
expect_eq "$?" 0 "report text: exit 0"
expect_eq "$(raw /tmp/hn-rep.txt)" 0 "report text: no control byte reaches the terminal"
$PDTRACE report -f json /tmp/hn.pdtrec >/tmp/hn-rep.json 2>&1
pdt-jsonck /tmp/hn-rep.json && pass "report JSON: valid" || fail "report JSON: not valid"
expect_grep "\"made\":$n_made,\"discarded\":$n_made," /tmp/hn-rep.json "report JSON: the same books as check"
umount "$m"
finish
