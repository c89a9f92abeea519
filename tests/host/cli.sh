#!/usr/bin/env bash
# Host tests of the pdtrace binary's command line: exit statuses, one-line errors,
# the static link, make install, and doctor on the host's own kernel. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
bin=$top/build/pdtrace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME WANT_STATUS ARGS...: runs pdtrace, keeps stdout/stderr in $tmp/{out,err}
run() {
	local name=$1 want=$2; shift 2
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -eq "$want" ]; then ok "$name: exit $want"; else not_ok "$name: exit $rc, want $want" "$(cat "$tmp/err")"; fi
}

# The error contract: exactly one line on stderr, starting "pdtrace: ", matching PATTERN.
one_line_error() { # name pattern
	local lines
	lines=$(wc -l <"$tmp/err")
	if [ "$lines" -eq 1 ] && grep -q "^pdtrace: .*$2" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "$1: one-line error"
	else
		not_ok "$1: want one stderr line matching '$2', nothing on stdout" "stderr: $(cat "$tmp/err")" "stdout: $(cat "$tmp/out")"
	fi
}

run "--version" 0 --version
grep -qx 'pdtrace 0\.1\.0' "$tmp/out" && ok "--version prints the version" || not_ok "--version prints the version" "$(cat "$tmp/out")"
grep -qx 'using libbpf v1\.[0-9]* (linked statically)' "$tmp/out" && grep -q '^BPF programs for x86_64: ' "$tmp/out" &&
	ok "--version names libbpf's version and the BPF side, as bpftool -V" ||
	not_ok "--version names libbpf's version and the BPF side, as bpftool -V" "$(cat "$tmp/out")"
run "--help" 0 --help
# Every command of the dispatch table (src/main.c) has its line under "Commands:", and
# every line there is a command that answers --help.
cp "$tmp/out" "$tmp/help"
table=$(sed -n 's/^[[:space:]]*{ "\([a-z]*\)", cmd_[a-z]*,.*/\1/p' "$top/src/main.c")
listed=$(sed -n '/^Commands:/,/^$/s/^  \([a-z]\{1,\}\)  *[A-Z].*/\1/p' "$tmp/help")
[ "$(echo "$table" | wc -l)" -ge 7 ] && [ "$(echo "$table" | sort)" = "$(echo "$listed" | sort)" ] &&
	ok "--help lists every command of the table, one line each" ||
	not_ok "--help lists every command of the table, one line each" "table: $table" "listed: $listed"
for c in $listed; do
	"$bin" $c --help >"$tmp/out" 2>&1 && grep -q "^Usage: pdtrace $c " "$tmp/out" &&
		ok "--help's '$c' answers '$c --help'" || not_ok "--help's '$c' answers '$c --help'" "$(head -3 "$tmp/out")"
done
# The findings table (docs/findings.md) is the rule table (src/core/rules.c), row for row.
rules_src=$(sed -n 's/^#define PDT_RULE_[A-Z_]* "\([a-z-]*\)"$/\1/p' "$top/src/core/rules.h" | sort)
rules_doc=$(sed -n 's/^| [a-z-]* | `\([a-z-]*\)` | .*/\1/p' "$top/docs/findings.md" | sort)
[ "$(echo "$rules_src" | wc -l)" -ge 11 ] && [ "$rules_src" = "$rules_doc" ] &&
	ok "docs/findings.md documents every rule of the table, and no other" ||
	not_ok "docs/findings.md documents every rule of the table, and no other" "table: $rules_src" "docs: $rules_doc"
run "doctor --help" 0 doctor --help

# doctor --config: a kernel configuration, before anyone boots it.
frag=$top/kconfig/pdtrace.config
run "doctor --config on the fragment" 0 doctor --config "$frag"
grep -q '^verdict: this configuration lets pdtrace trace$' "$tmp/out" && ! grep -qE ' (MISSING|absent) ' "$tmp/out" &&
	ok "the fragment in the tree has every option doctor looks for" ||
	not_ok "the fragment in the tree has every option doctor looks for" "$(cat "$tmp/out")"
sed 's/^CONFIG_DEBUG_INFO_BTF=y$/# CONFIG_DEBUG_INFO_BTF is not set/; /^CONFIG_ANDROID_BINDERFS=/d' "$frag" >"$tmp/nobtf.config"
gzip -c "$tmp/nobtf.config" >"$tmp/nobtf.config.gz"
for f in "$tmp/nobtf.config" "$tmp/nobtf.config.gz"; do
	run "doctor --config $(basename "$f") without BTF" 2 doctor --config "$f"
	grep -q '^CONFIG_DEBUG_INFO_BTF  *MISSING  *no kernel BTF' "$tmp/out" &&
		grep -q '^CONFIG_ANDROID_BINDERFS  *absent  *the binderfs workload$' "$tmp/out" &&
		grep -q '^problem: 1 required option missing' "$tmp/out" &&
		grep -q '^CONFIG_FPROBE  *y$' "$tmp/out" &&
		ok "doctor --config $(basename "$f"): names what is missing and what it costs" ||
		not_ok "doctor --config $(basename "$f"): names what is missing and what it costs" "$(cat "$tmp/out")"
done
# As kconfig reads a .config: the last line about an option wins; CRLF lines read the same.
{ cat "$frag"; echo '# CONFIG_FPROBE is not set'; } >"$tmp/last.config"
run "doctor --config: the last line about an option wins" 2 doctor --config "$tmp/last.config"
grep -q '^CONFIG_FPROBE  *MISSING' "$tmp/out" && ok "doctor --config: FPROBE unset by its last line" ||
	not_ok "doctor --config: FPROBE unset by its last line" "$(cat "$tmp/out")"
sed 's/$/\r/' "$frag" >"$tmp/crlf.config"
run "doctor --config of a CRLF file" 0 doctor --config "$tmp/crlf.config"
# A gzip'd configuration cut short is refused, not read as far as it goes.
gzip -c "$frag" | head -c 200 >"$tmp/cut.config.gz"
run "doctor --config of a truncated .gz" 2 doctor --config "$tmp/cut.config.gz"
one_line_error "doctor --config of a truncated .gz" "is truncated"
# The release in its header: older than the kernels pdtrace is checked on, no "lets trace".
{ echo '# Linux/x86 6.18.0 Kernel Configuration'; cat "$frag"; } >"$tmp/old.config"
run "doctor --config of a 6.18 configuration" 2 doctor --config "$tmp/old.config"
grep -q '^pdtrace doctor: kernel configuration .* (Linux 6.18.0)$' "$tmp/out" &&
	grep -q '^problem: Linux 6.18.0 is older than the kernels pdtrace is checked on' "$tmp/out" &&
	! grep -q 'lets pdtrace trace' "$tmp/out" &&
	ok "doctor --config: a 6.18 configuration is not said to let pdtrace trace" ||
	not_ok "doctor --config: a 6.18 configuration is not said to let pdtrace trace" "$(cat "$tmp/out")"
# doctor -j: the same verdict as one JSON object.
run "doctor -j --config on the fragment" 0 doctor -j --config "$frag"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["can_trace"] is True and d["problems"] == [] and d["config"] == sys.argv[2]
	and all(o["status"] == "ok" for o in d["options"]) and len(d["options"]) >= 10))' "$tmp/out" "$frag" &&
	ok "doctor -j --config: every option ok, can_trace" || not_ok "doctor -j --config: every option ok, can_trace" "$(cat "$tmp/out")"
run "doctor -p --config without BTF" 2 doctor -p --config "$tmp/nobtf.config"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
o = {x["option"]: x for x in d["options"]}
sys.exit(not (d["can_trace"] is False and len(d["problems"]) == 1
	and o["CONFIG_DEBUG_INFO_BTF"]["status"] == "missing" and o["CONFIG_ANDROID_BINDERFS"]["status"] == "absent"))' "$tmp/out" &&
	[ "$(wc -l <"$tmp/out")" -gt 10 ] &&
	ok "doctor -p --config without BTF: indented, the missing option, cannot trace" ||
	not_ok "doctor -p --config without BTF: indented, the missing option, cannot trace" "$(cat "$tmp/out")"
"$bin" doctor -j >"$tmp/out" 2>/dev/null
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["kernel"] and d["requirements"] and isinstance(d["can_trace"], bool)))' "$tmp/out" &&
	ok "doctor -j on this kernel: one object, its requirements and verdict" ||
	not_ok "doctor -j on this kernel: one object, its requirements and verdict" "$(cat "$tmp/out")"
run "doctor --config of a missing file" 2 doctor --config "$tmp/nonexistent"
one_line_error "doctor --config of a missing file" "doctor: cannot read '$tmp/nonexistent'"
run "doctor --config of something else" 2 doctor --config "$top/README.md"
one_line_error "doctor --config of something else" "is not a kernel configuration (no CONFIG_ line)"

run "unknown option" 2 --bogus
one_line_error "unknown option" "unknown option '--bogus'"
run "unknown command" 2 frobnicate
one_line_error "unknown command" "unknown command 'frobnicate'"
run "no command" 2
one_line_error "no command" "no command given"
run "doctor unknown option" 2 doctor -x
one_line_error "doctor unknown option" "doctor: unknown option '-x'"
run "doctor extra argument" 2 doctor extra
one_line_error "doctor extra argument" "doctor: unexpected argument 'extra'"
run "stat missing value" 2 stat --duration
one_line_error "stat missing value" "stat: option '--duration' needs a value"
for bad in abc -1 0 1e99 5x '' 0x10 1e-300 1e3 inf nan 0.0001 . +5; do
	run "stat --duration '$bad'" 2 stat --duration "$bad"
	one_line_error "stat --duration '$bad'" "stat: --duration expects a positive number of seconds"
done
for good in 5 '5 ' ' 2.5' 0.01; do
	"$bin" stat --duration "$good" >"$tmp/out" 2>"$tmp/err"
	! grep -q 'expects a positive number' "$tmp/err" && ok "stat --duration '$good' is a number of seconds" ||
		not_ok "stat --duration '$good' is a number of seconds" "$(cat "$tmp/err")"
done
run "stat with both" 2 stat -d 1 -- true
one_line_error "stat with both" "give either --duration or COMMAND"

run "check without command" 2 check
one_line_error "check without command" "check: no COMMAND given"
run "check bad format" 2 check -f yaml -- true
one_line_error "check bad format" "check: unknown format 'yaml'"
run "check bad --fail-on" 2 check --fail-on leak,bogus -- true
one_line_error "check bad --fail-on" "check: --fail-on: unknown kind 'bogus'"
run "check empty --fail-on" 2 check --fail-on , -- true
one_line_error "check empty --fail-on" "check: --fail-on needs at least one kind"
run "check unwritable output" 2 check -o /nonexistent/dir/report.json -- true
one_line_error "check unwritable output" "check: cannot write '/nonexistent/dir/report.json'"
ln -s "$tmp/target" "$tmp/link"
run "check output through a symlink" 2 check -o "$tmp/link" -- true
one_line_error "check output through a symlink" "check: cannot write '$tmp/link': Too many levels of symbolic links"
[ ! -e "$tmp/target" ] && ok "check did not follow the symlink" || not_ok "check did not follow the symlink"
run "trace junit" 2 trace -f junit
one_line_error "trace junit" "trace: unknown format 'junit'"
run "trace kcidb" 2 trace -f kcidb
one_line_error "trace kcidb" "trace: unknown format 'kcidb'"
run "trace extra argument" 2 trace foo
one_line_error "trace extra argument" "trace: unexpected argument 'foo'"
# One meaning of -v everywhere: libbpf's messages (--debug, bpftool's name, too), before
# the command or after it; every command takes it, and the parser goes on past it.
for cmd in check trace watch record report stat doctor; do
	for v in -v --verbose --debug -vv; do
		run "$cmd $v" 2 $cmd $v --bogus
		one_line_error "$cmd $v" "$cmd: unknown option '--bogus'"
	done
done
run "-v before the command" 2 -v -v doctor --bogus
one_line_error "-v before the command" "doctor: unknown option '--bogus'"
run "--usage is gone" 2 --usage
one_line_error "--usage is gone" "unknown option '--usage'"
run "check --usage is gone" 2 check --usage -- true
one_line_error "check --usage is gone" "check: unknown option '--usage'"
# trace's every-event mode is -e, --events.
for e in -e --events; do
	run "trace $e" 2 trace $e --bogus
	one_line_error "trace $e" "trace: unknown option '--bogus'"
done
# JSON as bpftool spells it: -j (-f json), -p (indented); watch takes -f json, --json too.
for cmd in check trace watch report stat doctor; do
	for j in -j --json -p --pretty "-f json" --format=json; do
		run "$cmd $j" 2 $cmd $j --bogus
		one_line_error "$cmd $j" "$cmd: unknown option '--bogus'"
	done
done
for cmd in watch stat doctor; do
	run "$cmd -f junit" 2 $cmd -f junit
	one_line_error "$cmd -f junit" "$cmd: unknown format 'junit' (text, json)$"
done
for cmd in record; do
	run "$cmd has no -j" 2 $cmd -j
	one_line_error "$cmd has no -j" "$cmd: unknown option '-j'"
done
rec=$top/tests/fuzz/corpus/rec-faultfs-orphan.pdtrec
"$bin" report -f json "$rec" >"$tmp/f.json" 2>/dev/null
"$bin" report -j "$rec" >"$tmp/j.json" 2>/dev/null
cmp -s "$tmp/f.json" "$tmp/j.json" && [ "$(wc -l <"$tmp/j.json")" -eq 1 ] &&
	ok "report -j: the report of -f json, one line" || not_ok "report -j: the report of -f json, one line" "$(head -c 300 "$tmp/j.json")"
"$bin" report -p "$rec" >"$tmp/p.json" 2>/dev/null
python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(a != b)' "$tmp/f.json" "$tmp/p.json" && [ "$(wc -l <"$tmp/p.json")" -gt 50 ] &&
	grep -q '^  "summary": {$' "$tmp/p.json" && grep -q '^      "kind": "leak",$' "$tmp/p.json" &&
	ok "report -p: the same JSON, indented two spaces a level" ||
	not_ok "report -p: the same JSON, indented two spaces a level" "$(head -20 "$tmp/p.json")"
"$bin" report -p -f text "$rec" >"$tmp/pt.txt" 2>/dev/null
"$bin" report "$rec" >"$tmp/t.txt" 2>/dev/null
cmp -s "$tmp/pt.txt" "$tmp/t.txt" && ok "report -p -f text: the last format given wins" ||
	not_ok "report -p -f text: the last format given wins" "$(head -5 "$tmp/pt.txt")"
# watch's sort field is fs, as --fs and the suppressions' fs: say; fstype still works.
for f in fs fstype; do
	run "watch --sort $f" 2 watch --sort $f --bogus
	one_line_error "watch --sort $f" "watch: unknown option '--bogus'"
done
run "watch --sort bogus" 2 watch --sort bogus
one_line_error "watch --sort bogus" "watch: unknown sort field 'bogus' (persistent, made, discarded, fs, mountpoint)$"
# --help: no line of blanks alone (argp leaves one when a description fills the line).
for cmd in "" check trace watch record report stat doctor; do
	"$bin" $cmd --help >"$tmp/out" 2>&1
	! grep -qn '^ \+$' "$tmp/out" && ok "${cmd:-pdtrace} --help: no line of blanks" ||
		not_ok "${cmd:-pdtrace} --help: no line of blanks" "$(grep -n '^ \+$' "$tmp/out")"
done
# Plain words in --help: the jargon the glossary (docs/findings.md) explains stays there.
for cmd in check trace watch record report stat doctor; do
	"$bin" $cmd --help
done >"$tmp/allhelp" 2>&1
! grep -qiw 'books\|eaten\|adopted' "$tmp/allhelp" && ok "--help speaks without books, eaten, adopted" ||
	not_ok "--help speaks without books, eaten, adopted" "$(grep -iw 'books\|eaten\|adopted' "$tmp/allhelp")"

# The tracing options, one parser shared by every command that traces.
for cmd in check trace watch record; do
	case $cmd in check) tail=(-- true) ;; record) tail=(-o "$tmp/r" -- true) ;; *) tail=() ;; esac
	for bad in abc -1 '' 1.5 0x10 ' 4'; do
		run "$cmd --ringbuf-pages '$bad'" 2 $cmd --ringbuf-pages "$bad" "${tail[@]}"
		one_line_error "$cmd --ringbuf-pages '$bad'" "$cmd: --ringbuf-pages expects a number of pages, got '$bad'$"
	done
	for bad in 0 3 6 1000; do
		run "$cmd --ringbuf-pages $bad" 2 $cmd --ringbuf-pages $bad "${tail[@]}"
		one_line_error "$cmd --ringbuf-pages $bad" "$cmd: --ringbuf-pages must be a power of two (1, 2, 4 ... 262144), got '$bad'$"
	done
	for bad in 524288 262145 99999999999999999999999; do
		run "$cmd --ringbuf-pages $bad" 2 $cmd --ringbuf-pages=$bad "${tail[@]}"
		one_line_error "$cmd --ringbuf-pages $bad" "$cmd: --ringbuf-pages must be at most 262144 (1 GiB), got '$bad'$"
	done
	run "$cmd --ringbuf-pages without a value" 2 $cmd --ringbuf-pages
	one_line_error "$cmd --ringbuf-pages without a value" "$cmd: option '--ringbuf-pages' needs a value N"
	"$bin" $cmd --help >"$tmp/out" 2>&1
	grep -q '^ Tracing options:$' "$tmp/out" &&
		[ "$(grep -c -- '--dput \|--no-dput \|--user-stacks\|--no-self-check\|--ringbuf-pages=N' "$tmp/out")" -eq 5 ] &&
		ok "$cmd --help lists the tracing options once" || not_ok "$cmd --help lists the tracing options once" "$(cat "$tmp/out")"
done
for cmd in check trace watch record report stat doctor; do
	"$bin" $cmd --help >"$tmp/out" 2>&1
	[ "$(head -n 1 "$tmp/out" | grep -o 'OPTION' | wc -l)" -eq 1 ] && ok "$cmd --help: one [OPTION...] in the usage line" ||
		not_ok "$cmd --help: one [OPTION...] in the usage line" "$(head -n 1 "$tmp/out")"
done
for cmd in stat report doctor; do
	run "$cmd has no --ringbuf-pages" 2 $cmd --ringbuf-pages 4
	one_line_error "$cmd has no --ringbuf-pages" "$cmd: unknown option '--ringbuf-pages'"
done
if ! grep -qw d_make_persistent /proc/kallsyms 2>/dev/null; then
	run "check on a kernel without the API" 2 check -- true
	one_line_error "check on a kernel without the API" "check: kernel .* lacks the persistent-dentry API (missing from its BTF: d_make_persistent(), "
	# Good values get past the parser (and then to the kernel, which lacks the API).
	run "check with good tracing options" 2 check --ringbuf-pages 1 --dput --no-self-check --user-stacks -- true
	one_line_error "check with good tracing options" "check: kernel .* lacks the persistent-dentry API"
	run "watch with the largest values" 2 watch --ringbuf-pages 262144
	one_line_error "watch with the largest values" "watch: kernel .* lacks the persistent-dentry API"
fi

# record and report. report needs no privileges and no BPF: it runs here, on the
# recordings made in the VM (tests/fuzz/corpus).
corpus=$top/tests/fuzz/corpus
run "record without -o" 2 record -- true
one_line_error "record without -o" "record: no output file given (-o FILE)"
run "record with both" 2 record -o "$tmp/r" -d 1 -- true
one_line_error "record with both" "record: give either --duration or COMMAND, not both"
run "record bad --duration" 2 record -o "$tmp/r" -d x
one_line_error "record bad --duration" "record: --duration expects a positive number of seconds"
run "record unwritable output" 2 record -o /nonexistent/dir/r.pdtrec -- true
one_line_error "record unwritable output" "record: cannot write '/nonexistent/dir/r.pdtrec'"
if ! grep -qw d_make_persistent /proc/kallsyms 2>/dev/null; then
	run "record on a kernel without the API" 2 record -o "$tmp/r.pdtrec" -- true
	one_line_error "record on a kernel without the API" "record: kernel .* lacks the persistent-dentry API"
	[ ! -e "$tmp/r.pdtrec" ] && ok "record leaves no file when it cannot trace" || not_ok "record leaves no file when it cannot trace"
fi
# record -o over an existing file makes a new file (mode 0600: kernel addresses), never
# truncates the old one: a hard link to it keeps its bytes and its mode 0644.
printf 'precious\n' >"$tmp/keep"
chmod 644 "$tmp/keep"
ln "$tmp/keep" "$tmp/r.pdtrec"
"$bin" record -o "$tmp/r.pdtrec" -- true >/dev/null 2>&1
[ "$(cat "$tmp/keep")" = precious ] && [ "$(stat -c %a "$tmp/keep")" = 644 ] &&
	ok "record -o over a file replaces it: its other link keeps its bytes and mode" ||
	not_ok "record -o over a file replaces it: its other link keeps its bytes and mode" "$(stat -c '%a %s' "$tmp/keep")"
if [ -e "$tmp/r.pdtrec" ] && ! cmp -s "$tmp/keep" "$tmp/r.pdtrec"; then # it could trace here
	[ "$(stat -c %a "$tmp/r.pdtrec")" = 600 ] && ok "record -o makes its file 0600" ||
		not_ok "record -o makes its file 0600" "$(stat -c %a "$tmp/r.pdtrec")"
fi
rm -f "$tmp/keep" "$tmp/r.pdtrec"
ln -s "$tmp/keep" "$tmp/r.pdtrec"
run "record -o through a symlink" 2 record -o "$tmp/r.pdtrec" -- true
one_line_error "record -o through a symlink" "record: cannot write '$tmp/r.pdtrec': Too many levels of symbolic links"
rm -f "$tmp/r.pdtrec"
run "report without file" 2 report
one_line_error "report without file" "report: no recording given"
run "report missing file" 2 report "$tmp/nope.pdtrec"
one_line_error "report missing file" "report: cannot read '$tmp/nope.pdtrec': No such file or directory"
mkdir "$tmp/norec"
run "report of a directory without recordings" 2 report "$tmp/norec"
one_line_error "report of a directory without recordings" "report: no recording (\*.pdtrec) in '$tmp/norec'"
run "report of a file and a missing one" 2 report "$corpus/rec-tmpfs-clean.pdtrec" extra
one_line_error "report of a file and a missing one" "report: cannot read 'extra': No such file or directory"
run "report bad format" 2 report -f yaml "$corpus/rec-tmpfs-clean.pdtrec"
one_line_error "report bad format" "report: unknown format 'yaml'"
run "report bad --fail-on" 2 report --fail-on bogus "$corpus/rec-tmpfs-clean.pdtrec"
one_line_error "report bad --fail-on" "report: --fail-on: unknown kind 'bogus'"
: >"$tmp/empty"
run "report of an empty file" 2 report "$tmp/empty"
one_line_error "report of an empty file" "report: $tmp/empty: byte 0: the file ends inside its 16-byte header"
run "report of a text file" 2 report "$top/README.md"
one_line_error "report of a text file" "report: $top/README.md: byte 0: not a pdtrace recording (bad magic number)"
# One byte flipped in the middle: the CRC of its block says where.
cp "$corpus/rec-tmpfs-clean.pdtrec" "$tmp/bad.pdtrec"
printf '\377' | dd of="$tmp/bad.pdtrec" bs=1 seek=5000 conv=notrunc 2>/dev/null
run "report of a damaged file" 2 report "$tmp/bad.pdtrec"
one_line_error "report of a damaged file" "report: $tmp/bad.pdtrec: byte [0-9]*: block [0-9]* ([A-Z_]*, [0-9]* bytes): CRC mismatch"
# A recording's first blocks, then endless zeros, from a pipe: an error, not a wait for
# the end of /dev/zero (timeout's 124 is the old hang).
meta_len=$(od -An -tu4 -j24 -N4 "$corpus/rec-tmpfs-clean.pdtrec") # the file header, META
head -c $((16 + 16 + meta_len)) "$corpus/rec-tmpfs-clean.pdtrec" >"$tmp/prefix"
cat "$tmp/prefix" /dev/zero | timeout 60 "$bin" report - >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && ok "report - of a recording then /dev/zero: exit 2" || not_ok "report - of a recording then /dev/zero: exit $rc, want 2" "$(cat "$tmp/err")"
one_line_error "report - of a recording then /dev/zero" "report: -: byte [0-9]*: a zeroed block header, then more than 67108864 bytes of zeros"
# A FIFO named *.pdtrec in a directory is skipped with a warning, never opened to block:
# the other recordings are reported; with none left, the directory has no recording.
mkdir "$tmp/fifodir"
cp "$corpus/rec-tmpfs-clean.pdtrec" "$tmp/fifodir/a.pdtrec"
mkfifo "$tmp/fifodir/b.pdtrec"
timeout 60 "$bin" report "$tmp/fifodir" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -qx "pdtrace: report: skipping '$tmp/fifodir/b.pdtrec': a FIFO, not a recording" "$tmp/err" &&
	grep -q '^summary: 1 recording, 0 findings' "$tmp/out" &&
	ok "report DIR with a FIFO named *.pdtrec: skipped with one warning, the rest reported" ||
	not_ok "report DIR with a FIFO named *.pdtrec: skipped with one warning, the rest reported" "exit $rc" "$(cat "$tmp/err")"
rm "$tmp/fifodir/a.pdtrec"
timeout 60 "$bin" report "$tmp/fifodir" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -qx "pdtrace: report: no recording (\*.pdtrec) in '$tmp/fifodir' (skipped '$tmp/fifodir/b.pdtrec': a FIFO)" "$tmp/err" &&
	ok "report DIR of only a FIFO: no recording, one line, exit 2" ||
	not_ok "report DIR of only a FIFO: no recording, one line, exit 2" "exit $rc" "$(cat "$tmp/err")"
# A --baseline that never ends (/dev/zero) is refused at the size limit, not read until
# memory runs out.
timeout 60 "$bin" report --baseline /dev/zero "$corpus/rec-tmpfs-clean.pdtrec" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && ok "report --baseline /dev/zero: exit 2" || not_ok "report --baseline /dev/zero: exit $rc, want 2" "$(cat "$tmp/err")"
one_line_error "report --baseline /dev/zero" "report: /dev/zero: more than 268435456 bytes: too large for a baseline"
# The kernel's own KTAP parser (tools/testing/kunit of Debian's linux-source-7.2, cached).
kunit=$("$top/tests/vm/fetch-kernel.sh" --kunit 2>"$tmp/kf") ||
	not_ok "the kernel's KTAP parser (tests/vm/fetch-kernel.sh --kunit)" "$(cat "$tmp/kf")"
for f in "$corpus"/rec-*.pdtrec; do
	name=$(basename "$f")
	case "$name" in *truncated*) want=3 ;; rec-faultfs-*) want=1 ;; *) want=0 ;; esac
	for fmt in text json junit ktap kcidb; do
		run "report -f $fmt $name" "$want" report -f "$fmt" "$f"
	done
	"$bin" report -f json "$f" >"$tmp/k.json" 2>/dev/null
	# KCIDB I/O v5.3 (tests/host/kcidb.schema.json), saying what the JSON report says.
	"$bin" report -f kcidb "$f" >"$tmp/k.kcidb" 2>/dev/null
	/usr/bin/python3 "$top/tests/host/kcidb_check.py" "$tmp/k.kcidb" "$tmp/k.json" >"$tmp/kc" 2>&1 &&
		ok "report -f kcidb $name: valid KCIDB data, a test per superblock and finding" ||
		not_ok "report -f kcidb $name: valid KCIDB data, a test per superblock and finding" "$(cat "$tmp/kc")"
	"$bin" report -f ktap "$f" >"$tmp/k.ktap" 2>/dev/null
	/usr/bin/python3 "$top/tests/host/ktap_check.py" "$kunit" "$tmp/k.ktap" "$tmp/k.json" >"$tmp/kc" 2>&1 &&
		ok "report -f ktap $name: the kernel's KTAP parser reads the tests the JSON report has" ||
		not_ok "report -f ktap $name: the kernel's KTAP parser reads the tests the JSON report has" "$(cat "$tmp/kc")"
	if command -v python3 >/dev/null; then
		"$bin" report -f json "$f" 2>/dev/null | python3 -m json.tool >/dev/null 2>&1 &&
			ok "report -f json $name: valid JSON" || not_ok "report -f json $name: valid JSON"
		"$bin" report -f junit "$f" 2>/dev/null >"$tmp/j.xml"
		python3 "$top/tests/host/junit_counts.py" "$tmp/j.xml" >"$tmp/jc" 2>&1 &&
			ok "report -f junit $name: well-formed, one failure per case, counts right" ||
			not_ok "report -f junit $name: well-formed, one failure per case, counts right" "$(cat "$tmp/jc")"
		xmllint --noout --schema "$top/tests/host/junit.xsd" "$tmp/j.xml" >"$tmp/jx" 2>&1 &&
			ok "report -f junit $name: valid against the Ant JUnit schema" ||
			not_ok "report -f junit $name: valid against the Ant JUnit schema" "$(cat "$tmp/jx")"
	fi
done
# Signatures (docs/findings.md): the recordings were made in the VM, on another boot of
# another machine; their signatures here are the digests that boot's check printed, the
# same in every format. A change of scheme must change these on purpose.
sigs() { # FORMAT FILE: the digests a report shows, sorted
	case "$1" in
	json) "$bin" report -f json "$2" 2>/dev/null | grep -o '"signature":"[0-9a-f]*"' | cut -d'"' -f4 ;;
	*) "$bin" report -f "$1" "$2" 2>/dev/null | sed -n 's/^[# ]*signature: \([0-9a-f]\{16\}\) .*/\1/p' ;;
	esac | sort
}
while read -r name want; do
	f=$corpus/rec-faultfs-$name.pdtrec
	for fmt in json text junit ktap; do
		got=$(sigs "$fmt" "$f" | tr '\n' ' ')
		[ "$got" = "$want " ] && ok "signature of $name in $fmt: $want" ||
			not_ok "signature of $name in $fmt: $want" "got: $got"
	done
done <<'SIGS'
dead b5054cc6d9a4015d
discard 73c62ff6354bbeda
dput 361eaa8dea1dcd57
leak da5f516501d27f72
orphan 6ef505e98603fe00
removal 7c80ee0883b984d6 fe644022e95417b3
twice 837bbfe182a96148
SIGS
"$bin" report "$corpus/rec-faultfs-orphan.pdtrec" >"$tmp/o.txt" 2>&1
grep -qx '  signature: 6ef505e98603fe00 leak/orphaned pdtfaultfs /od/child | at pdt_orphan \[pdt_faultfs\], pdt_ctl_write \[pdt_faultfs\], vfs_write | made at pdt_pin \[pdt_faultfs\], pdt_kcreate_locked \[pdt_faultfs\], pdt_orphan \[pdt_faultfs\], pdt_ctl_write \[pdt_faultfs\]' "$tmp/o.txt" &&
	ok "signature key: kind/rule, fs type, path, frames below the hook without offsets or .cold" ||
	not_ok "signature key: kind/rule, fs type, path, frames below the hook without offsets or .cold" "$(grep signature "$tmp/o.txt")"
! grep -q 'signature:.*+0x' "$tmp/o.txt" && "$bin" report --show-addresses "$corpus/rec-faultfs-orphan.pdtrec" 2>/dev/null | grep -q '^  signature: 6ef505e98603fe00 ' &&
	ok "signature: no offsets, and the same with --show-addresses" ||
	not_ok "signature: no offsets, and the same with --show-addresses"
# Suppressions (docs/findings.md): --gen-suppressions prints an entry per finding; one
# of the two entries of the removal recording silences its finding and not the other.
rm_rec=$corpus/rec-faultfs-removal.pdtrec
run "report --gen-suppressions" 1 report --gen-suppressions "$rm_rec"
sed -n '/^{$/,/^}$/p' "$tmp/out" >"$tmp/all.supp"
awk '/^{$/ { n++ } n == 1' "$tmp/all.supp" >"$tmp/one.supp"
[ "$(grep -c '^{$' "$tmp/all.supp")" = 2 ] && grep -qx '   path:/kdir/u/f' "$tmp/one.supp" &&
	grep -qx '   frame:pdt_ctl_write \[pdt_faultfs\]' "$tmp/one.supp" &&
	ok "--gen-suppressions: one entry per finding, frames without offsets" ||
	not_ok "--gen-suppressions: one entry per finding, frames without offsets" "$(cat "$tmp/out")"
run "report --suppressions (one of two findings)" 1 report --suppressions "$tmp/one.supp" "$rm_rec"
grep -q "^suppressed by 'user-entry-removed-fe644022e95417b3': illegal-removal: user-entry-removed: pdtfaultfs 0:27 /kdir/u/f (signature fe644022e95417b3)$" "$tmp/out" &&
	grep -q '^illegal-removal: user-entry-removed: pdtfaultfs 0:27 /kdir/u$' "$tmp/out" &&
	grep -q "^suppression 'user-entry-removed-fe644022e95417b3' ($tmp/one.supp:1) matched 1 finding$" "$tmp/out" &&
	grep -q '^suppressed: 1 finding (they do not fail the gate)$' "$tmp/out" &&
	ok "--suppressions: the entry silences its finding, names itself, the other still fails" ||
	not_ok "--suppressions: the entry silences its finding, names itself, the other still fails" "$(cat "$tmp/out")"
{ cat "$tmp/all.supp"; printf '{\n   stale entry\n   leak:*\n   fs:nosuchfs\n}\n'; } >"$tmp/both.supp"
for fmt in text json junit ktap kcidb; do
	run "report -f $fmt --suppressions (both findings)" 0 report -f "$fmt" --suppressions "$tmp/both.supp" "$rm_rec"
	cp "$tmp/out" "$tmp/sup.$fmt"
done
grep -q "^suppression 'stale entry' ($tmp/both.supp:23) matched nothing$" "$tmp/sup.text" &&
	ok "--suppressions: an entry that matched nothing is reported" ||
	not_ok "--suppressions: an entry that matched nothing is reported" "$(cat "$tmp/sup.text")"
grep -q '"suppressed_by":"user-entry-removed-7c80ee0883b984d6","known":false' "$tmp/sup.json" &&
	grep -q '"suppressed":2,"suppressions":\[{"name":"user-entry-removed-fe644022e95417b3","file":"[^"]*","line":1,"matched":1},{"name":"user-entry-removed-7c80ee0883b984d6","file":"[^"]*","line":12,"matched":1},{"name":"stale entry","file":"[^"]*","line":23,"matched":0}\]' "$tmp/sup.json" &&
	ok "--suppressions -f json: suppressed_by per finding, the entries and their counts" ||
	not_ok "--suppressions -f json: suppressed_by per finding, the entries and their counts" "$(cat "$tmp/sup.json")"
python3 "$top/tests/host/junit_counts.py" "$tmp/sup.junit" >"$tmp/jc" 2>&1 &&
	xmllint --noout --schema "$top/tests/host/junit.xsd" "$tmp/sup.junit" >>"$tmp/jc" 2>&1 &&
	grep -q 'failures="0"' "$tmp/sup.junit" && grep -q "<system-out>suppressed by 'user-entry-removed-fe644022e95417b3'" "$tmp/sup.junit" &&
	grep -q "^suppression 'stale entry' ($tmp/both.supp:23) matched nothing$" "$tmp/sup.junit" &&
	ok "--suppressions -f junit: no failure, the suppressed findings and the stale entry in system-out, valid" ||
	not_ok "--suppressions -f junit: no failure, the suppressed findings and the stale entry in system-out, valid" "$(cat "$tmp/jc" "$tmp/sup.junit")"
/usr/bin/python3 "$top/tests/host/ktap_check.py" "$kunit" "$tmp/sup.ktap" "$tmp/sup.json" >"$tmp/kc" 2>&1 &&
	grep -q '^ok 2 pdtfaultfs /mnt/frf$' "$tmp/sup.ktap" &&
	ok "--suppressions -f ktap: the superblock passes, read by the kernel's parser" ||
	not_ok "--suppressions -f ktap: the superblock passes, read by the kernel's parser" "$(cat "$tmp/kc" "$tmp/sup.ktap")"
grep -q '^summary: 0 leak, 0 imbalance, 0 illegal-removal (2 suppressed)$' "$tmp/sup.text" &&
	ok "--suppressions: summary counts no finding, and the 2 suppressed apart" ||
	not_ok "--suppressions: summary counts no finding, and the 2 suppressed apart" "$(grep '^summary' "$tmp/sup.text")"
/usr/bin/python3 "$top/tests/host/kcidb_check.py" "$tmp/sup.kcidb" "$tmp/sup.json" >"$tmp/kc" 2>&1 &&
	grep -q '"path":"pdtrace.pdtfaultfs.illegal-removal.user-entry-removed","status":"DONE"' "$tmp/sup.kcidb" &&
	grep -q '"fate":"suppressed","suppressed_by":"user-entry-removed-fe644022e95417b3"' "$tmp/sup.kcidb" &&
	ok "--suppressions -f kcidb: suppressed findings DONE, not FAIL, with their entry" ||
	not_ok "--suppressions -f kcidb: suppressed findings DONE, not FAIL, with their entry" "$(cat "$tmp/kc" "$tmp/sup.kcidb")"
"$bin" report -f json --gen-suppressions "$corpus/rec-faultfs-orphan.pdtrec" 2>/dev/null | grep -q '"suppressed_by":null,"known":false,"suppression":"{\\n   orphaned-6ef505e98603fe00\\n   leak:orphaned\\n   fs:pdtfaultfs\\n   path:/od/child\\n   frame:d_make_discardable\\n' &&
	ok "--gen-suppressions -f json: the entry as the finding's \"suppression\"" ||
	not_ok "--gen-suppressions -f json: the entry as the finding's \"suppression\""
# Entries for every corpus finding read back and silence their recording.
for f in "$corpus"/rec-faultfs-*.pdtrec; do
	"$bin" report --gen-suppressions "$f" 2>/dev/null | sed -n '/^{$/,/^}$/p' >"$tmp/gen.supp"
	run "report --suppressions of its own entries: $(basename "$f")" 0 report --suppressions "$tmp/gen.supp" "$f"
done
# A bad file: one line naming FILE:LINE, exit 2, before anything is traced or read.
printf '# ok\n{\n   x\n   leak:orphan\n}\n' >"$tmp/bad.supp"
run "report --suppressions with an unknown rule" 2 report --suppressions "$tmp/bad.supp" "$rm_rec"
one_line_error "report --suppressions with an unknown rule" "report: $tmp/bad.supp:4: unknown rule 'orphan'"
grep -q "unknown rule 'orphan' (.*orphaned, .*outlives-module.*, or a pattern)" "$tmp/err" &&
	ok "an unknown rule's error lists the rules" || not_ok "an unknown rule's error lists the rules" "$(cat "$tmp/err")"
run "check --suppressions with an unknown rule" 2 check --suppressions "$tmp/bad.supp" -- true
one_line_error "check --suppressions with an unknown rule" "check: $tmp/bad.supp:4: unknown rule 'orphan'"
run "trace --suppressions with an unknown rule" 2 trace --suppressions "$tmp/bad.supp"
one_line_error "trace --suppressions with an unknown rule" "trace: $tmp/bad.supp:4: unknown rule 'orphan'"
run "report --suppressions of a missing file" 2 report --suppressions "$tmp/nope.supp" "$rm_rec"
one_line_error "report --suppressions of a missing file" "report: $tmp/nope.supp: cannot read: No such file or directory"
# One line of 200 MB under a 200 MB address-space limit: getline() failed with ENOMEM,
# taken for the end of the file, and the empty file passed (exit 1, no word). The limit
# of a line holds before it is read.
(ulimit -v 200000 && exec "$bin" report --suppressions <(head -c 200000000 /dev/zero | tr '\0' a) "$rm_rec") >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && ok "report --suppressions of one endless line: exit 2" || not_ok "report --suppressions of one endless line: exit $rc, want 2" "$(cat "$tmp/err")"
one_line_error "report --suppressions of one endless line" "report: /dev/fd/[0-9]*:1: a line longer than 8192 bytes"
run "report --suppressions of a directory" 2 report --suppressions "$tmp" "$rm_rec"
one_line_error "report --suppressions of a directory" "report: $tmp:1: read error: Is a directory"
run "report --suppressions without a value" 2 report "$rm_rec" --suppressions
one_line_error "report --suppressions without a value" "report: option '--suppressions' needs a value FILE"
# Baselines: an earlier -f json report; only findings whose signature is not in it fail.
"$bin" report -f json -o "$tmp/base.json" "$rm_rec" 2>/dev/null
for fmt in text json junit ktap; do
	run "report -f $fmt --baseline of the same recording" 0 report -f "$fmt" --baseline "$tmp/base.json" "$rm_rec"
	cp "$tmp/out" "$tmp/base.$fmt"
done
grep -q "^baseline: $tmp/base.json: 2 known, 0 new, 0 gone$" "$tmp/base.text" &&
	grep -q "^known (in the baseline): illegal-removal: user-entry-removed: pdtfaultfs 0:27 /kdir/u (signature 7c80ee0883b984d6)$" "$tmp/base.text" &&
	grep -q '^summary: 0 leak, 0 imbalance, 0 illegal-removal (2 known)$' "$tmp/base.text" &&
	ok "--baseline: the findings known, none new, none gone; summary counts them apart" ||
	not_ok "--baseline: the findings known, none new, none gone; summary counts them apart" "$(cat "$tmp/base.text")"
grep -q '"known":true' "$tmp/base.json" && grep -q '"baseline":{"file":"[^"]*","known":2,"new":0,"gone":0,"gone_signatures":\[\]}' "$tmp/base.json" &&
	ok "--baseline -f json: known per finding, the counts" || not_ok "--baseline -f json: known per finding, the counts" "$(cat "$tmp/base.json")"
python3 "$top/tests/host/junit_counts.py" "$tmp/base.junit" >"$tmp/jc" 2>&1 && grep -q 'failures="0"' "$tmp/base.junit" &&
	/usr/bin/python3 "$top/tests/host/ktap_check.py" "$kunit" "$tmp/base.ktap" "$tmp/base.json" >>"$tmp/jc" 2>&1 &&
	ok "--baseline -f junit, -f ktap: known findings pass" || not_ok "--baseline -f junit, -f ktap: known findings pass" "$(cat "$tmp/jc")"
run "report --baseline of another bug" 1 report --baseline "$tmp/base.json" "$corpus/rec-faultfs-orphan.pdtrec"
grep -q "^baseline: $tmp/base.json: 0 known, 1 new, 2 gone$" "$tmp/out" &&
	grep -q '^baseline: gone: fe644022e95417b3 illegal-removal/user-entry-removed pdtfaultfs /kdir/u/f | at ' "$tmp/out" &&
	grep -q '^leak: orphaned: pdtfaultfs 0:27 /od/child$' "$tmp/out" &&
	ok "--baseline: a new bug fails, shown in full; the baseline's are gone" ||
	not_ok "--baseline: a new bug fails, shown in full; the baseline's are gone" "$(cat "$tmp/out")"
# A report made with --suppressions and --baseline is a baseline too: it lists every finding.
"$bin" report -f json --suppressions "$tmp/both.supp" --baseline "$tmp/base.json" -o "$tmp/base2.json" "$corpus/rec-faultfs-orphan.pdtrec" 2>/dev/null
run "report --baseline of a gated report" 0 report --baseline "$tmp/base2.json" "$corpus/rec-faultfs-orphan.pdtrec"
run "report --baseline of a missing file" 2 report --baseline "$tmp/nope.json" "$rm_rec"
one_line_error "report --baseline of a missing file" "report: $tmp/nope.json: cannot read: No such file or directory"
run "report --baseline of a text report" 2 report --baseline "$tmp/sup.text" "$rm_rec"
one_line_error "report --baseline of a text report" "report: $tmp/sup.text: byte 0: not a pdtrace JSON report (not an object)"
sed 's/"signature":"7c80ee0883b984d6"/"signature":"7c80"/' "$tmp/base.json" >"$tmp/badsig.json"
run "report --baseline with a bad signature" 2 report --baseline "$tmp/badsig.json" "$rm_rec"
one_line_error "report --baseline with a bad signature" "report: $tmp/badsig.json: byte [0-9]*: a finding's \"signature\" is not 16 hex digits"
run "trace --baseline of a text report" 2 trace --baseline "$tmp/sup.text"
one_line_error "trace --baseline of a text report" "trace: $tmp/sup.text: byte 0: not a pdtrace JSON report"
run "check --baseline twice" 2 check --baseline "$tmp/base.json" --baseline "$tmp/base.json" -- true
one_line_error "check --baseline twice" "check: --baseline given twice"
# Several recordings, or a directory of them: one report, findings deduplicated by
# signature, with their counts and recordings.
run "report of the corpus directory" 1 report "$corpus"
grep -q '^summary: 14 recordings, 8 findings, 8 distinct signatures, 0 suppressed, 0 known$' "$tmp/out" &&
	grep -q "^recording: $corpus/rec-killed-truncated.pdtrec: 0 findings, INCOMPLETE" "$tmp/out" &&
	ok "report DIR: every recording, each finding once" || not_ok "report DIR: every recording, each finding once" "$(tail -20 "$tmp/out")"
o=$corpus/rec-faultfs-orphan.pdtrec
run "report of one recording twice and another" 1 report "$o" "$rm_rec" "$o"
grep -qx "  seen 2 times in 2 recordings: $o (1), $o (1)" "$tmp/out" &&
	[ "$(grep -c '^leak: orphaned: ' "$tmp/out")" = 1 ] &&
	grep -q '^summary: 3 recordings, 4 findings, 3 distinct signatures' "$tmp/out" &&
	ok "report A B A: the same bug once, seen twice" || not_ok "report A B A: the same bug once, seen twice" "$(cat "$tmp/out")"
"$bin" report --gen-suppressions "$o" 2>/dev/null | sed -n '/^{$/,/^}$/p' >"$tmp/orphan.supp"
run "report -f json of several, all suppressed" 0 report -f json --suppressions "$tmp/both.supp" --suppressions "$tmp/orphan.supp" "$o" "$rm_rec" "$o"
python3 -m json.tool "$tmp/out" >/dev/null 2>&1 && grep -q '"distinct":3,"suppressed":4,"known":0}' "$tmp/out" &&
	grep -q '"signature":"6ef505e98603fe00",[^{]*"count":2,' "$tmp/out" &&
	ok "report -f json of several: valid, counted, suppressed" || not_ok "report -f json of several: valid, counted, suppressed" "$(cat "$tmp/out")"
# A thousand recordings of one bug: counted once each, and memory follows the distinct
# findings, not the recordings' events (peak RSS against ten of them, through getrusage).
mkdir -p "$tmp/fleet10" "$tmp/fleet1000"
for i in $(seq 1 1000); do ln -s "$o" "$tmp/fleet1000/r$i.pdtrec"; done
for i in $(seq 1 10); do ln -s "$o" "$tmp/fleet10/r$i.pdtrec"; done
fleet_rss() { # dir count: prints the peak RSS in KiB when the count is right
	/usr/bin/python3 -c 'import resource, subprocess, sys
p = subprocess.run([sys.argv[1], "report", "-f", "json", sys.argv[2]], capture_output=True)
ok = p.returncode == 1 and (b"\"count\":" + sys.argv[3].encode() + b",") in p.stdout
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if ok else "bad")' "$bin" "$1" "$2"
}
r10=$(fleet_rss "$tmp/fleet10" 10) r1000=$(fleet_rss "$tmp/fleet1000" 1000)
[ "$r10" != bad ] && [ "$r1000" != bad ] && [ "$r1000" -lt $((r10 + 1024)) ] &&
	ok "report of 1000 recordings: counted, peak RSS ${r1000} KiB against ${r10} KiB for 10" ||
	not_ok "report of 1000 recordings: counted, peak RSS within 1 MiB of 10 recordings'" "10: $r10 KiB, 1000: $r1000 KiB"
# For CI servers: a test per recording's complete data, one per distinct finding.
# KCIDB tests belong to one build, one kernel: several recordings are refused.
run "report -f kcidb of several" 2 report -f kcidb "$o" "$rm_rec"
one_line_error "report -f kcidb of several" "report: -f kcidb takes one recording"
run "report -f junit of several" 1 report -f junit "$o" "$rm_rec" "$o" "$corpus/rec-killed-truncated.pdtrec"
python3 "$top/tests/host/junit_counts.py" "$tmp/out" >"$tmp/jc" 2>&1 &&
	xmllint --noout --schema "$top/tests/host/junit.xsd" "$tmp/out" >"$tmp/jx" 2>&1 &&
	grep -q '<testsuite name="pdtrace" tests="7" failures="4"' "$tmp/out" &&
	grep -q '<testcase classname="pdtrace.pdtfaultfs" name="leak orphaned 6ef505e98603fe00">' "$tmp/out" &&
	grep -q 'seen 2 times in 2 recordings' "$tmp/out" &&
	ok "report -f junit of several: valid, a case per recording and per signature" ||
	not_ok "report -f junit of several: valid, a case per recording and per signature" "$(cat "$tmp/jc" "$tmp/jx" "$tmp/out")"
run "report -f ktap of several" 1 report -f ktap "$o" "$rm_rec" "$o" "$corpus/rec-killed-truncated.pdtrec"
/usr/bin/python3 "$top/tests/host/ktap_check.py" "$kunit" "$tmp/out" >"$tmp/kc" 2>&1 &&
	[ "$(grep -c '^ok [0-9]* complete data: ' "$tmp/out")" = 3 ] &&
	grep -q '^not ok 4 complete data: .*rec-killed-truncated.pdtrec$' "$tmp/out" &&
	grep -q '^not ok 5 leak orphaned 6ef505e98603fe00$' "$tmp/out" &&
	[ "$(grep -c '^not ok ' "$tmp/out")" = 4 ] &&
	ok "report -f ktap of several: read by the kernel's parser, a test per recording and per signature" ||
	not_ok "report -f ktap of several: read by the kernel's parser, a test per recording and per signature" "$(cat "$tmp/kc" "$tmp/out")"
# A JUnit report of a finding whose path holds control bytes, XML's specials and bytes
# that are not UTF-8 (made by the unit test), against the Ant JUnit schema.
PDT_JUNIT_OUT="$tmp/h.xml" "$top/build/tests/test_report" >/dev/null 2>&1
xmllint --noout --schema "$top/tests/host/junit.xsd" "$tmp/h.xml" >"$tmp/hx" 2>&1 &&
	ok "JUnit with a hostile path: valid against the Ant JUnit schema" ||
	not_ok "JUnit with a hostile path: valid against the Ant JUnit schema" "$(cat "$tmp/hx")"
# A KTAP report whose names hold '#', a newline and control bytes (made by the unit
# test), through the kernel's KTAP parser.
PDT_KTAP_OUT="$tmp/h.ktap" "$top/build/tests/test_report" >/dev/null 2>&1
/usr/bin/python3 "$top/tests/host/ktap_check.py" "$kunit" "$tmp/h.ktap" >"$tmp/kc" 2>&1 &&
	grep -q '^not ok 2 tmpfs s\\x231 \\x23 SKIP$' "$tmp/h.ktap" &&
	ok "KTAP with hostile names: read by the kernel's parser, one failed test per superblock" ||
	not_ok "KTAP with hostile names: read by the kernel's parser, one failed test per superblock" "$(cat "$tmp/kc" "$tmp/h.ktap")"
# watch's Prometheus page with a hostile mountpoint (made by the unit test) through the
# Prometheus client's own parser (python3-prometheus-client, make deps installs it).
PDT_PROM_OUT="$tmp/p.prom" "$top/build/tests/test_watch" >/dev/null 2>&1
/usr/bin/python3 "$top/tests/host/prom_check.py" "$tmp/p.prom" >"$tmp/pc" 2>&1 &&
	ok "Prometheus page: UTF-8, read by the client's parser, the mountpoint label exact" ||
	not_ok "Prometheus page: UTF-8, read by the client's parser, the mountpoint label exact" "$(cat "$tmp/pc")"
run "report -o" 0 report -f json -o "$tmp/r.json" "$corpus/rec-tmpfs-clean.pdtrec"
grep -q '"made":5,"discarded":3,"unpinned_at_umount":2' "$tmp/r.json" && [ ! -s "$tmp/out" ] &&
	ok "report -o writes the report there" || not_ok "report -o writes the report there" "$(cat "$tmp/r.json")"
run "report of a truncated recording" 3 report "$corpus/rec-killed-truncated.pdtrec"
grep -q '^INCOMPLETE: the recording is truncated at byte' "$tmp/out" && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q '^pdtrace: report: .*: truncated at byte [0-9]*: no END block .*: data incomplete$' "$tmp/err" &&
	ok "a truncated recording is reported, and said on one stderr line" ||
	not_ok "a truncated recording is reported, and said on one stderr line" "$(cat "$tmp/err")"
# Cut here, through a pipe (no file size): still a clean prefix.
head -c 7000 "$corpus/rec-tmpfs-clean.pdtrec" >"$tmp/cut.pdtrec"
cat "$tmp/cut.pdtrec" | "$bin" report - >"$tmp/out" 2>"$tmp/err"
rc=${PIPESTATUS[1]}
[ "$rc" -eq 3 ] && grep -q 'truncated at byte [0-9]*: block [0-9]* (.*) of [0-9]* bytes is cut short' "$tmp/err" &&
	ok "report - on a cut pipe: exit 3, says where" || not_ok "report - on a cut pipe: exit $rc" "$(cat "$tmp/err")"
if command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ]; then
	cp "$corpus/rec-tmpfs-clean.pdtrec" "$tmp/nobody.pdtrec" && chmod 644 "$tmp/nobody.pdtrec" && chmod 755 "$tmp"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$bin" report "$tmp/nobody.pdtrec" >"$tmp/out" 2>"$tmp/err" &&
		ok "report runs unprivileged" || not_ok "report runs unprivileged" "$(cat "$tmp/err")"
fi

# One static file that can be copied to any x86-64 test machine.
if LC_ALL=C readelf -d "$bin" 2>/dev/null | grep -q NEEDED; then
	not_ok "pdtrace is statically linked" "$(readelf -d "$bin" | grep NEEDED)"
else
	ok "pdtrace is statically linked"
fi
# Nothing of the machine it was built on: no build directory in its debug information or
# its embedded BPF objects.
if grep -qF "$top" "$bin"; then
	not_ok "the binary holds no build directory" "$(strings "$bin" | grep -F "$top" | head -n 3)"
else
	ok "the binary holds no build directory"
fi

make -s -C "$top" install DESTDIR="$tmp/dest" PREFIX=/opt/pdt >/dev/null 2>&1
[ -x "$tmp/dest/opt/pdt/sbin/pdtrace" ] && ok "make install honours DESTDIR and PREFIX" || not_ok "make install honours DESTDIR and PREFIX"

# doctor on the host's own kernel. On a kernel without the API it must say so in one
# line and exit 2; whatever the kernel, the attach row and the problem lines agree.
"$bin" doctor >"$tmp/out" 2>"$tmp/err"
rc=$?
[ ! -s "$tmp/err" ] && ok "host doctor: no libbpf noise on stderr" || not_ok "host doctor: no libbpf noise on stderr" "$(cat "$tmp/err")"
if ! grep -qw d_make_persistent /proc/kallsyms 2>/dev/null; then
	[ "$rc" -eq 2 ] && ok "host doctor: exit 2 on a kernel without the API" || not_ok "host doctor: exit $rc on a kernel without the API, want 2"
	grep -q "^problem: kernel .* lacks the persistent-dentry API (missing from its BTF: d_make_persistent(), d_make_discardable(), DCACHE_PERSISTENT): pdtrace needs a kernel that has it, such as Debian's 7.2 (pdtrace's 'make demo' boots one in a VM)\$" "$tmp/out" &&
		ok "host doctor: one line says the kernel lacks the API" || not_ok "host doctor: one line says the kernel lacks the API" "$(cat "$tmp/out")"
else
	skip "host doctor: kernel without the API" "this host kernel has d_make_persistent"
	skip "host doctor: one line says the kernel lacks the API" "this host kernel has d_make_persistent"
fi
if grep -q '^fentry attach  *FAIL  *EPERM' "$tmp/out"; then
	grep -q '^problem: attaching fentry programs is not permitted here (EPERM' "$tmp/out" &&
		ok "host doctor: one line says attaching is not permitted" || not_ok "host doctor: one line says attaching is not permitted" "$(cat "$tmp/out")"
elif grep -q '^fentry attach  *ok ' "$tmp/out"; then
	skip "host doctor: attaching is not permitted" "this host lets fentry programs attach"
else
	not_ok "host doctor: attach row is ok or FAIL EPERM" "$(grep '^fentry attach' "$tmp/out")"
fi

# The host paths under AddressSanitizer+UBSan and under valgrind: same exit status, no
# report. (ASAN_OPTIONS: LeakSanitizer on; UBSan aborts on the first error.)
san=$top/build/san/pdtrace dyn=$top/build/dyn/pdtrace
for args in "--help" "--version" "--bogus" "frobnicate" "doctor" "doctor -x" \
	"stat --duration abc" "check -f yaml -- true" "check -- true" "check -o /nonexistent/x -- true" \
	"trace -f junit" "watch --sort bogus" "watch -i 0.01" "watch --fs ext4" "watch -f ktap" "stat -p -f yaml" \
	"check --ringbuf-pages 3 -- true" "watch --max-dentries 99999999999999999999999" \
	"record -o /nonexistent/x --ringbuf-pages" "trace --ringbuf-pages 1 --max-dentries 64"; do
	want=$("$bin" $args >/dev/null 2>&1; echo $?)
	ASAN_OPTIONS=detect_leaks=1:exitcode=98 UBSAN_OPTIONS=halt_on_error=1:exitcode=97 \
		"$san" $args >/dev/null 2>"$tmp/san.err"
	rc=$?
	if [ "$rc" -eq "$want" ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/san.err"; then
		ok "asan+ubsan: pdtrace $args"
	else
		not_ok "asan+ubsan: pdtrace $args: exit $rc, want $want" "$(head -5 "$tmp/san.err")"
	fi
	if command -v valgrind >/dev/null; then
		valgrind -q --suppressions="$top/tests/host/valgrind.supp" --error-exitcode=99 \
			--leak-check=full --errors-for-leak-kinds=definite "$dyn" $args >/dev/null 2>"$tmp/vg.err"
		rc=$?
		[ "$rc" -eq "$want" ] && ok "valgrind: pdtrace $args" ||
			not_ok "valgrind: pdtrace $args: exit $rc, want $want" "$(head -5 "$tmp/vg.err")"
	fi
done

# report's paths (the reader, replay, every format) and record's early errors, likewise.
for args in "report $corpus/rec-faultfs-removal.pdtrec" "report -f json $corpus/rec-faultfs-leak.pdtrec" \
	"report -f junit --show-addresses $corpus/rec-faultfs-orphan.pdtrec" "report -p $corpus/rec-faultfs-orphan.pdtrec" \
	"report $corpus/rec-killed-truncated.pdtrec" "report $tmp/bad.pdtrec" "report $tmp/cut.pdtrec" \
	"report $tmp/empty" "report $top/README.md" "record -o $tmp/v.pdtrec -- true" "record -- true"; do
	want=$("$bin" $args >/dev/null 2>&1; echo $?)
	ASAN_OPTIONS=detect_leaks=1:exitcode=98 UBSAN_OPTIONS=halt_on_error=1:exitcode=97 \
		"$san" $args >/dev/null 2>"$tmp/san.err"
	rc=$?
	[ "$rc" -eq "$want" ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/san.err" &&
		ok "asan+ubsan: pdtrace ${args//$top\//}" ||
		not_ok "asan+ubsan: pdtrace $args: exit $rc, want $want" "$(head -5 "$tmp/san.err")"
	if command -v valgrind >/dev/null; then
		valgrind -q --suppressions="$top/tests/host/valgrind.supp" --error-exitcode=99 \
			--leak-check=full --errors-for-leak-kinds=definite "$dyn" $args >/dev/null 2>"$tmp/vg.err"
		rc=$?
		[ "$rc" -eq "$want" ] && ok "valgrind: pdtrace ${args//$top\//}" ||
			not_ok "valgrind: pdtrace $args: exit $rc, want $want" "$(head -5 "$tmp/vg.err")"
	fi
done

if command -v clang-format >/dev/null; then
	make -s -C "$top" check-format >"$tmp/fmt" 2>&1 && ok "sources are clang-formatted" ||
		not_ok "sources are clang-formatted" "$(head -5 "$tmp/fmt")"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
