#!/usr/bin/env bash
# `make clienttest`: third-party clients under pdtrace check in the VM, from the cached
# Debian sid root (tests/bench/mkroot.sh, shared over 9p: "# root: sid"), the scenarios
# tests/vm/scenarios/client-*.sh ("# suite: clients", not in the default run). Prints
# their TAP and output (tests/vm/run.sh -v), keeps it in build/clienttest.log, and ends
# with the table of the scenarios' "client:" lines (Markdown), as README.md shows it.
#
# Usage: tests/vm/clients.sh [run.sh options] [SCENARIO...]   (default: every client-*)
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
log=${OUTPUT:-$top/build}/clienttest.log
opts=() scen=()
for a in "$@"; do
	case "$a" in -*) opts+=("$a") ;; *) scen+=("$a") ;; esac
done
if [ ${#scen[@]} -eq 0 ]; then
	for s in "$top"/tests/vm/scenarios/client-*.sh; do scen+=("$(basename "$s" .sh)"); done
fi
mkdir -p "$(dirname "$log")"
start=$(date +%s)
rc=0
"$top/tests/vm/run.sh" -v ${opts[@]+"${opts[@]}"} "${scen[@]}" | tee "$log" || rc=$?
echo
echo "| client | filesystem | operations (the client's own counts) | made | discarded | unpinned at umount | persistent now | findings | lost events | run time |"
echo "|---|---|---|---|---|---|---|---|---|---|"
# The clean runs first, then the run with faults (its rows say so, and its injector's).
sed -n 's/^#   client: \(.*\)$/| \1 |/p' "$log" | awk '/with faults|injector/ { f[++n] = $0; next } { print }
	END { for (i = 1; i <= n; i++) print f[i] }'
echo
echo "clienttest: $(($(date +%s) - start)) s, log in $log"
exit $rc
