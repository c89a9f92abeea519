#!/usr/bin/env bash
# Refresh the real recordings in tests/fuzz/corpus: run the record-* scenarios in the VM;
# they print each recording gzipped and base64-encoded between "@@REC BEGIN name" and
# "@@REC END name" lines (emit in tests/vm/guest/lib.sh), decoded here.
# Usage: tests/fuzz/make-recordings.sh [SCENARIO...]
#   (default: record-tmpfs record-faultfs record-faultfs-leak)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUTPUT:-$top/build}/vm
[ $# -gt 0 ] || set -- record-tmpfs record-faultfs record-faultfs-leak
rm -f "$out"/boot-*.results # only this run's
"$top/tests/vm/run.sh" "$@"
for res in "$out"/boot-*.results; do
	awk -v dir="$top/tests/fuzz/corpus" '
		$1 == "@@REC" && $2 == "BEGIN" { name = $3; file = dir "/" name ".b64"; printf "" >file; next }
		$1 == "@@REC" && $2 == "END" { close(file); print file; name = ""; next }
		name != "" { print >>file }' "$res"
done | while read -r b64; do
	base64 -d "$b64" | gunzip >"${b64%.b64}"
	rm -f "$b64"
	echo "$(basename "${b64%.b64}"): $(stat -c %s "${b64%.b64}") bytes"
done
