#!/usr/bin/env bash
# The CI recipes (docs/ci/gitlab-ci.yml, docs/ci/github-workflow.yml) run as written: the
# commands between their "pdtrace-ci: begin" and "pdtrace-ci: end" lines, in a project
# directory that holds the example scenarios (docs/ci/pdtrace) as ci/pdtrace, with
# PDTRACE_DIR this tree. Each must pass, and bring back a JUnit report valid against the
# Ant JUnit schema, with a test case for the configfs superblock and no failure.
# Prints TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"

# The recipe's commands: YAML list items ("- cmd", "- 'cmd'") or a block's lines.
commands() { # file
	awk '/pdtrace-ci: begin/ { on = 1; next } /pdtrace-ci: end/ { on = 0 } on' "$1" |
		sed -e 's/^ *- //' -e 's/^ *//' -e "s/^'\(.*\)'$/\1/"
}

for recipe in "$top"/docs/ci/gitlab-ci.yml "$top"/docs/ci/github-workflow.yml; do
	name=$(basename "$recipe")
	proj=$(mktemp -d)
	mkdir -p "$proj/ci"
	cp -r "$top/docs/ci/pdtrace" "$proj/ci/pdtrace"
	commands "$recipe" >"$proj/recipe.sh"
	[ "$(wc -l <"$proj/recipe.sh")" -ge 2 ] || { not_ok "$name: commands between the markers" "$(cat "$proj/recipe.sh")"; continue; }
	(cd "$proj" && PDTRACE_DIR=$top bash -e recipe.sh) >"$proj/log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then ok "$name: the recipe's commands pass"; else not_ok "$name: the recipe's commands pass (status $rc)" "$(tail -n 30 "$proj/log")"; fi
	x=$proj/pdtrace-results/pdtrace-nvmet.xml
	if [ -s "$x" ] && xmllint --noout --schema "$top/tests/host/junit.xsd" "$x" >"$proj/xl" 2>&1; then
		ok "$name: the JUnit report came back, valid against the Ant JUnit schema"
	else
		not_ok "$name: the JUnit report came back, valid against the Ant JUnit schema" "$(cat "$proj/xl" 2>/dev/null)" "$(tail -n 20 "$proj/log")"
	fi
	grep -q '<testsuite name="pdtrace" tests="[0-9]*" failures="0"' "$x" 2>/dev/null &&
		grep -q '<testcase classname="pdtrace.configfs" name="configfs /sys/kernel/config">' "$x" &&
		ok "$name: the report has the configfs superblock and no failure" ||
		not_ok "$name: the report has the configfs superblock and no failure" "$(cat "$x" 2>/dev/null)"
	rm -rf "$proj"
done
echo "1..$n"
[ "$failed" -eq 0 ]
