#!/usr/bin/env bash
# Host tests of the bash completion (completion/pdtrace): sourced in bash with
# bash-completion, driven through the function 'complete -p pdtrace' names with
# COMP_WORDS/COMP_CWORD/COMP_LINE set, COMPREPLY compared with what the binary's --help
# prints and the values it accepts; and installed where bash-completion loads it. TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
bin=$top/build/pdtrace
comp=$top/completion/pdtrace
bc=/usr/share/bash-completion/bash_completion
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


if [ ! -r "$bc" ]; then
	not_ok "bash-completion is installed (Debian package bash-completion; make deps)"
	echo "1..$n"
	exit 1
fi

# complete LINE: COMPREPLY for the command line LINE (the cursor at its end; a trailing
# space starts an empty word), one per line, sorted, from a fresh bash.
complete_line() {
	bash --norc --noprofile -c '
		source "$1" && source "$2" || exit 1
		fn=$(complete -p pdtrace | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
		[ -n "$fn" ] || exit 1
		COMP_LINE=$3 COMP_POINT=${#3}
		read -ra COMP_WORDS <<<"$3"
		[[ $3 == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=()
		"$fn" pdtrace "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
		printf "%s\n" "${COMPREPLY[@]}"' bash "$bc" "$comp" "$1" | grep . | sort -u
}
# expect LINE WANT...: COMPREPLY is exactly the words WANT.
expect() {
	local line=$1 got want
	shift
	got=$(complete_line "$line")
	want=$(printf '%s\n' "$@" | grep . | sort -u)
	[ "$got" = "$want" ]
	check $? "'$line<TAB>' offers: $(echo $want)" "got: $(echo $got)"
}
# The options 'pdtrace [COMMAND] --help' prints, one per line (as tests/host/man.sh).
help_opts() {
	"$bin" "$@" --help | grep -E '^ {2,6}-' | sed -E 's/^ +//; s/(=[A-Z,.]+)?  .*//' |
		grep -oE '(^|, )--?[a-zA-Z][a-zA-Z-]*' | sed 's/^, //' | sort -u
}

bash -n "$comp"
check $? "completion/pdtrace: bash -n"
got=$(bash --norc -c 'source "$1"; source "$2"; complete -p pdtrace' bash "$bc" "$comp" 2>&1)
[[ $got == "complete -F _pdtrace pdtrace" ]]
check $? "complete -p pdtrace names the completion function" "$got"

# Commands and options: what the binary's --help has.
commands=$(sed -n 's/^[[:space:]]*{ "\([a-z]*\)", cmd_[a-z]*,.*/\1/p' "$top/src/main.c")
[ "$(echo "$commands" | wc -l)" -ge 7 ]
check $? "the dispatch table has its commands" "$commands"
expect "pdtrace " $commands
expect "pdtrace -v " $commands
expect "pdtrace re" record report
expect "pdtrace -" $(help_opts)
for c in $commands; do
	extra=
	case $c in check | record | stat) extra=-- ;; esac
	expect "pdtrace $c -" $(help_opts "$c") $extra
done
expect "pdtrace check " $(help_opts check) --
expect "pdtrace -v trace --d" --debug --dput --duration
expect "pdtrace frobnicate -"

# Option values: each offered is one the binary takes (it goes on to the next option,
# which it does not know), and they are all the sources have.
accepts() { # ARGS...: the binary takes ARGS and stops at --bogus after them
	"$bin" "$@" --bogus >/dev/null 2>"$tmp/err"
	grep -q "unknown option '--bogus'" "$tmp/err"
}
expect "pdtrace check -f " text json junit ktap kcidb
expect "pdtrace report --format=" text json junit ktap kcidb
expect "pdtrace report --format=j" json junit
expect "pdtrace trace -f " text json
expect "pdtrace watch -f " text json
expect "pdtrace stat --format=" text json
expect "pdtrace doctor -f " text json
for c in check report trace watch stat doctor; do
	for v in $(complete_line "pdtrace $c -f "); do
		accepts $c -f "$v"
		check $? "$c takes the offered format $v" "$(cat "$tmp/err")"
	done
done
kinds=$(sed -n '/^const char \*pdt_kind_name/,/^}/p' "$top/src/core/rules.c" | grep -oE '"[a-z-]+"' | tr -d '"')
[ "$(echo "$kinds" | wc -w)" -eq 3 ]
check $? "the kinds of the rules engine (src/core/rules.c)" "$kinds"
expect "pdtrace check --fail-on " $kinds
expect "pdtrace check --fail-on=leak," leak,imbalance leak,illegal-removal
expect "pdtrace report --fail-on leak,illegal-removal," leak,illegal-removal,imbalance
accepts report --fail-on "$(echo $kinds | tr ' ' ,)"
check $? "report takes every kind offered to --fail-on at once" "$(cat "$tmp/err")"
fs=$(sed -n '/watch_is_tree_in_dcache/,/};/p' "$top/src/core/watch_seed.c" | grep -oE '"[a-z0-9_]+"' | tr -d '"')
[ "$(echo "$fs" | wc -w)" -ge 20 ]
check $? "the filesystem types watch knows (src/core/watch_seed.c)" "$fs"
expect "pdtrace watch --fs " $fs
expect "pdtrace watch --fs=tmpfs,de" tmpfs,debugfs tmpfs,devpts tmpfs,devtmpfs
for v in $(complete_line "pdtrace watch --fs "); do
	accepts watch --fs "$v" || echo "$v: $(cat "$tmp/err")"
done >"$tmp/fsbad"
[ ! -s "$tmp/fsbad" ]
check $? "watch takes every --fs type offered" "$(cat "$tmp/fsbad")"
# The names of its table (the old "fstype" is accepted, not offered).
sorts=$(sed -n '/^int watch_parse_sort/,/^}/p' "$top/src/core/watch_view.c" | sed -n '/names\[\] = {/,/};/p' | grep -oE '"[a-z]+"' | tr -d '"')
[ "$(echo "$sorts" | wc -w)" -eq 5 ]
check $? "the sort fields of watch (src/core/watch_view.c)" "$sorts"
expect "pdtrace watch --sort " $sorts
for v in $(complete_line "pdtrace watch --sort "); do
	accepts watch --sort "$v" || echo "$v: $(cat "$tmp/err")"
done >"$tmp/sortbad"
[ ! -s "$tmp/sortbad" ]
check $? "watch takes every --sort field offered" "$(cat "$tmp/sortbad")"
# Numbers: nothing to offer.
expect "pdtrace stat -d "
expect "pdtrace watch --ringbuf-pages "

# Files: report's recording, -o, --prometheus, doctor --config.
mkdir -p "$tmp/d/sub"
: >"$tmp/d/run.pdtrec"
: >"$tmp/d/report.json"
expect "pdtrace report $tmp/d/" "$tmp/d/run.pdtrec" "$tmp/d/report.json" "$tmp/d/sub"
expect "pdtrace report -f json $tmp/d/r" "$tmp/d/run.pdtrec" "$tmp/d/report.json"
expect "pdtrace check -o $tmp/d/rep" "$tmp/d/report.json"
expect "pdtrace record --output=$tmp/d/ru" "$tmp/d/run.pdtrec"
expect "pdtrace watch --prometheus $tmp/d/s" "$tmp/d/sub"
expect "pdtrace doctor --config $tmp/d/run" "$tmp/d/run.pdtrec"
# The COMMAND of check, record and stat: a command, as bash completes one.
for line in "pdtrace check -- ech" "pdtrace check -f json --fail-on leak ech" \
	"pdtrace record -o $tmp/d/run.pdtrec -- ech" "pdtrace stat -- ech"; do
	got=$(complete_line "$line")
	echo "$got" | grep -qx echo && ! echo "$got" | grep -q '^-'
	check $? "'$line<TAB>' offers commands (echo)" "got: $(echo $got)"
done

# make install puts it where bash-completion's loader looks for it.
make -s -C "$top" install DESTDIR="$tmp/dest" PREFIX=/usr >/dev/null 2>&1
f=$tmp/dest/usr/share/bash-completion/completions/pdtrace
[ -f "$f" ] && cmp -s "$comp" "$f"
check $? "make install: PREFIX/share/bash-completion/completions/pdtrace"
got=$(XDG_DATA_DIRS="$tmp/dest/usr/share" BASH_COMPLETION_USER_DIR="$tmp/none" bash --norc -c \
	'source "$1"; __load_completion pdtrace; complete -p pdtrace' bash "$bc" 2>&1)
[[ $got == "complete -F _pdtrace pdtrace" ]]
check $? "bash-completion loads it from there by the command's name" "$got"

echo "1..$n"
[ "$failed" -eq 0 ]
