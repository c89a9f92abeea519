#!/usr/bin/env bash
# Host tests of the pdtrace binary's command line: exit statuses, one-line errors,
# the static link, make install, and doctor on the host's own kernel. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/pdtrace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

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
run "--help" 0 --help
grep -q 'doctor' "$tmp/out" && grep -q 'stat' "$tmp/out" && ok "--help lists the commands" || not_ok "--help lists the commands"
run "doctor --help" 0 doctor --help

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
for bad in abc -1 0 1e99 5x ''; do
	run "stat --duration '$bad'" 2 stat --duration "$bad"
	one_line_error "stat --duration '$bad'" "stat: --duration expects a positive number of seconds"
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
run "trace extra argument" 2 trace foo
one_line_error "trace extra argument" "trace: unexpected argument 'foo'"
if ! grep -qw d_make_persistent /proc/kallsyms 2>/dev/null; then
	run "check on a kernel without the API" 2 check -- true
	one_line_error "check on a kernel without the API" "check: kernel .* lacks the persistent-dentry API: no BTF function d_make_persistent()"
fi

# One static file that can be copied to any x86-64 test machine.
if LC_ALL=C readelf -d "$bin" 2>/dev/null | grep -q NEEDED; then
	not_ok "pdtrace is statically linked" "$(readelf -d "$bin" | grep NEEDED)"
else
	ok "pdtrace is statically linked"
fi

make -s -C "$top" install DESTDIR="$tmp/dest" PREFIX=/opt/pdt >/dev/null 2>&1
[ -x "$tmp/dest/opt/pdt/bin/pdtrace" ] && ok "make install honours DESTDIR and PREFIX" || not_ok "make install honours DESTDIR and PREFIX"

# doctor on the host's own kernel. On a kernel without the API it must say so in one
# line and exit 2; whatever the kernel, the attach row and the problem lines agree.
"$bin" doctor >"$tmp/out" 2>"$tmp/err"
rc=$?
[ ! -s "$tmp/err" ] && ok "host doctor: no libbpf noise on stderr" || not_ok "host doctor: no libbpf noise on stderr" "$(cat "$tmp/err")"
if ! grep -qw d_make_persistent /proc/kallsyms 2>/dev/null; then
	[ "$rc" -eq 2 ] && ok "host doctor: exit 2 on a kernel without the API" || not_ok "host doctor: exit $rc on a kernel without the API, want 2"
	grep -q '^problem: kernel .* lacks the persistent-dentry API (missing from its BTF: d_make_persistent(), d_make_discardable(), DCACHE_PERSISTENT)$' "$tmp/out" &&
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
	"trace -f junit" "watch --sort bogus" "watch -i 0.01" "watch --fs ext4"; do
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

if command -v clang-format >/dev/null; then
	make -s -C "$top" check-format >"$tmp/fmt" 2>&1 && ok "sources are clang-formatted" ||
		not_ok "sources are clang-formatted" "$(head -5 "$tmp/fmt")"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
