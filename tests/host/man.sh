#!/usr/bin/env bash
# Host tests of the man pages (man/*.8, mdoc): mandoc's and groff's linters, a page per
# command of the dispatch table, every option 'pdtrace COMMAND --help' prints on that
# command's page (and no other), the exit statuses of --help, the rule table, and
# make install. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
bin=$top/build/pdtrace
man=$top/man
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


# The options 'pdtrace [COMMAND] --help' prints, one per line (-f and --format apart):
# argp puts them two to six columns in, the descriptions further.
help_opts() {
	"$bin" "$@" --help | grep -E '^ {2,6}-' | sed -E 's/^ +//; s/(=[A-Z,.]+)?  .*//' |
		grep -oE '(^|, )--?[a-zA-Z][a-zA-Z-]*' | sed 's/^, //' | sort -u
}
# The options a page documents: the Fl arguments of the .It lines of its OPTIONS
# section ('.It Fl f Ar format , Fl \-format Ns = Ns Ar format' is -f and --format).
page_opts() {
	sed -n '/^\.Sh OPTIONS$/,/^\.Sh /{/^\.It /p}' "$1" | sed 's/\\-/-/g' |
		grep -oE '(^| )Fl [-a-zA-Z][-a-zA-Z]*' | sed -E 's/^ ?Fl /-/' | sort -u
}
# A section's text (mdoc source), from .Sh NAME to the next .Sh.
section() { sed -n "/^\\.Sh $2\$/,/^\\.Sh /p" "$1" | sed '1d;$d'; }

commands=$(sed -n 's/^[[:space:]]*{ "\([a-z]*\)", cmd_[a-z]*,.*/\1/p' "$top/src/main.c")
[ "$(echo "$commands" | wc -l)" -ge 7 ]
check $? "the dispatch table has its 7 commands" "$commands"
pages=$(cd "$man" && ls | sort)
want=$( (echo pdtrace.8; for c in $commands; do echo "pdtrace-$c.8"; done) | sort)
[ "$pages" = "$want" ]
check $? "man/ has pdtrace.8 and one page per command, nothing else" "man/: $(echo $pages)" "want: $(echo $want)"

if ! command -v mandoc >/dev/null; then
	not_ok "mandoc is installed (Debian package mandoc; make deps)"
fi
for p in $pages; do
	f=$man/$p
	name=${p%.8}
	# mandoc: nothing at warning level or above; at style level, nothing but the pages
	# this machine has not installed (the cross-references, checked below).
	mandoc -T lint -W warning "$f" >"$tmp/lint" 2>&1
	[ ! -s "$tmp/lint" ]
	check $? "$p: mandoc -T lint, no warning" "$(cat "$tmp/lint")"
	mandoc -T lint -W style "$f" 2>&1 | grep -v 'referenced manual not found\|outdated mandoc.db' >"$tmp/lint"
	[ ! -s "$tmp/lint" ]
	check $? "$p: mandoc -T lint, no style message" "$(cat "$tmp/lint")"
	# groff, which man-db renders with on Debian (lintian runs the same).
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$f" 2>"$tmp/groff" >"$tmp/render"
	[ $? -eq 0 ] && [ ! -s "$tmp/groff" ] && [ "$(wc -l <"$tmp/render")" -gt 20 ]
	check $? "$p: man --warnings renders it without a warning" "$(head -5 "$tmp/groff")"
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS 'EXIT STATUS' EXAMPLES 'SEE ALSO'; do
		grep -qx ".Sh $s" "$f" || echo "$s"
	done >"$tmp/miss"
	[ ! -s "$tmp/miss" ]
	check $? "$p: has NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS, EXAMPLES, SEE ALSO" "missing: $(cat "$tmp/miss")"
	grep -qx ".Dt $(echo "$name" | tr a-z A-Z) 8" "$f" && grep -qx ".Nm $name" "$f"
	check $? "$p: titled $name(8)" "$(grep '^\.Dt\|^\.Nm [a-z-]*$' "$f" | head -2)"
	# Cross-references to pdtrace's own pages name pages that exist.
	grep -oE '^\.Xr pdtrace[-a-z]* 8' "$f" | awk '{print $2 ".8"}' | sort -u |
		while read -r x; do [ -f "$man/$x" ] || echo "$x"; done >"$tmp/dangling"
	[ ! -s "$tmp/dangling" ]
	check $? "$p: every .Xr to a pdtrace page names one in man/" "dangling: $(cat "$tmp/dangling")"
	grep -q '/work/\|/home/\|/root/' "$f"
	[ $? -ne 0 ]
	check $? "$p: no build-machine path" "$(grep -n '/work/\|/home/\|/root/' "$f")"

	# Every option --help prints is on the page, and the page has no other.
	if [ "$name" = pdtrace ]; then args=(); else args=("${name#pdtrace-}"); fi
	help_opts "${args[@]}" >"$tmp/help"
	page_opts "$f" >"$tmp/page"
	[ "$(wc -l <"$tmp/help")" -ge 3 ] && diff "$tmp/help" "$tmp/page" >/dev/null
	check $? "$p: documents exactly the options 'pdtrace ${args[*]} --help' prints" \
		"missing from the page: $(comm -23 "$tmp/help" "$tmp/page" | tr '\n' ' ')" \
		"not in --help: $(comm -13 "$tmp/help" "$tmp/page" | tr '\n' ' ')"
	# The exit statuses the --help text names are the page's EXIT STATUS items.
	"$bin" "${args[@]}" --help | tr '\n' ' ' | grep -oE '(Exit status|exits)[: ].*' |
		grep -oE '(^| )[0-9]([ ,.]|$)' | tr -dc '0-9\n' | sort -u >"$tmp/hx"
	section "$f" 'EXIT STATUS' | sed -n 's/^\.It \([0-9]\)$/\1/p' | sort -u >"$tmp/px"
	[ -s "$tmp/hx" ] && diff "$tmp/hx" "$tmp/px" >/dev/null
	check $? "$p: EXIT STATUS lists the statuses --help names" "--help: $(echo $(cat "$tmp/hx"))" "page: $(echo $(cat "$tmp/px"))"
done

# The formats of each command that has --format, as its page lists them.
for c in check report; do
	for fmt in text json junit ktap; do
		"$bin" $c -f "$fmt" --bogus >/dev/null 2>"$tmp/err"
		grep -q "unknown option '--bogus'" "$tmp/err" &&
			sed -n '/^\.Sh OPTIONS$/,/^\.Sh /p' "$man/pdtrace-$c.8" | grep -q "^\.Cm $fmt\( [,.]\)\?$"
		check $? "pdtrace-$c.8: format $fmt, which $c accepts" "$(cat "$tmp/err")"
	done
done
# pdtrace(8) describes every command of the table, and no other.
listed=$(section "$man/pdtrace.8" DESCRIPTION | sed -n 's/^\.It Cm \([a-z]*\)$/\1/p' | sort)
[ "$listed" = "$(echo "$commands" | sort)" ]
check $? "pdtrace.8 describes every command of the table, and no other" "page: $(echo $listed)"
# pdtrace(8)'s findings are the rule table (src/core/rules.h), rule for rule.
rules_src=$(sed -n 's/^#define PDT_RULE_[A-Z_]* "\([a-z-]*\)"$/\1/p' "$top/src/core/rules.h" | sort)
rules_page=$(section "$man/pdtrace.8" FINDINGS | sed -n 's/^\.It Sy \([a-z-]*\)$/\1/p' | sort)
[ "$(echo "$rules_src" | wc -l)" -ge 11 ] && [ "$rules_src" = "$rules_page" ]
check $? "pdtrace.8 lists every rule of the table, and no other" "table: $(echo $rules_src)" "page: $(echo $rules_page)"
# watch's --fs types are the list watch knows (src/core/watch_seed.c).
fs_src=$(sed -n '/watch_is_tree_in_dcache/,/};/p' "$top/src/core/watch_seed.c" | grep -oE '"[a-z0-9_]+"' | tr -d '"' | sort)
fs_page=$(sed -n '/^\.It Fl \\-fs/,/^\.It /p' "$man/pdtrace-watch.8" | sed -n 's/^\.Cm //p' | tr -d ' .' | tr ',' '\n' | grep . | sort)
[ "$(echo "$fs_src" | wc -l)" -ge 20 ] && [ "$fs_src" = "$fs_page" ]
check $? "pdtrace-watch.8 lists the filesystem types --fs takes" "source: $(echo $fs_src)" "page: $(echo $fs_page)"

# make install puts them where man finds them.
make -s -C "$top" install DESTDIR="$tmp/dest" PREFIX=/usr >/dev/null 2>&1
for p in $pages; do
	[ -f "$tmp/dest/usr/share/man/man8/$p" ] && cmp -s "$man/$p" "$tmp/dest/usr/share/man/man8/$p"
	check $? "make install: $p in PREFIX/share/man/man8"
done
got=$(man -M "$tmp/dest/usr/share/man" -w pdtrace-check 2>&1)
[ "$got" = "$tmp/dest/usr/share/man/man8/pdtrace-check.8" ]
check $? "man -w finds pdtrace-check(8) where make install put it" "$got"

echo "1..$n"
[ "$failed" -eq 0 ]
