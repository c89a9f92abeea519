# Helpers for scenarios (sourced by each scenario in the guest).
set -u
PDTRACE=/bin/pdtrace
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

expect_eq() { # actual expected what
	if [ "$1" = "$2" ]; then pass "$3 = $2"; else fail "$3: got '$1', want '$2'"; fi
}

expect_grep() { # pattern file what
	if grep -q -- "$1" "$2"; then pass "$3"; else fail "$3: no line matching '$1' in:"; cat "$2"; fi
}

# The major:minor of the filesystem mounted at DIR (as /proc/self/mountinfo has it).
dev_of() { awk -v m="$1" '$5 == m { print $3; exit }' /proc/self/mountinfo; }

# Column COL (PERSISTED=4, DISCARDED=5) of `pdtrace stat` output FILE for device DEV.
stat_col() { awk -v d="$2" -v c="$3" '$2 == d { print $c }' "$1"; }

finish() { [ "$failures" -eq 0 ]; exit $?; }
