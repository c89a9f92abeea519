#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ktap_check.py KUNIT_DIR KTAP_FILE [JSON_REPORT]: the kernel's own KTAP parser
(kunit_parser.py, from KUNIT_DIR = a kernel source's tools/testing/kunit) reads
KTAP_FILE without an error, and what it reads is what pdtrace meant: with JSON_REPORT
(pdtrace's JSON report of the same data), one test for complete data, failed exactly
when the data is incomplete, then one per superblock in the report's order, named
as the JSON report's "name" says, which is "FSTYPE MOUNTPOINT" (or "FSTYPE S_ID"), " (N)"
after it for the Nth of one name, the same on every boot, failed exactly when it has findings, each finding's first line among
that test's diagnostics (a suppressed or known one after its "suppressed by 'NAME': " or
"known (in the baseline): "), failed only for findings that fail the gate, and one
failed test for unlisted findings when there are any.
Exit 1 with the reason."""
import json
import re
import sys


def passed_by(finding):
    """What a suppressed or known finding's line starts with; "" for one that fails."""
    if finding.get("suppressed_by") is not None:
        return "suppressed by '%s': " % finding["suppressed_by"]
    return "known (in the baseline): " if finding.get("known") else ""


def expected(report):
    tests = [("complete data", not report["complete"], [])]
    for i, sb in enumerate(report["superblocks"]):
        name = sb["name"]
        base = "%s %s" % (sb["fs_type"], sb["mountpoint"] or sb["s_id"])
        if name != base and not re.fullmatch(re.escape(base) + r" \([2-9][0-9]*\)", name):
            raise ValueError("superblock named %r, want %r" % (name, base))
        mine = [f for f in report["findings"] if f["dev"] == sb["dev"] and f["fs_type"] == sb["fs_type"]]
        firsts = [passed_by(f) + "%s: %s: %s %s " % (f["kind"], f["rule"], f["fs_type"], f["dev"])
                  for f in mine]
        tests.append((name, any(not passed_by(f) for f in mine), firsts))
    if report["unlisted_findings"]:
        tests.append(("unlisted findings", True, []))
    return tests


def main(kunit_dir, path, json_path=None):
    sys.path.insert(0, kunit_dir)
    import kunit_parser
    import kunit_printer

    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().splitlines(keepends=True)
    top = kunit_parser.parse_run_tests(lines, kunit_printer.null_printer)
    if top.counts.errors:
        return "kunit_parser found %d errors" % top.counts.errors
    if top.status == kunit_parser.TestStatus.FAILURE_TO_PARSE_TESTS:
        return "kunit_parser could not parse it"
    got = top.subtests
    failed = sum(1 for t in got if t.status == kunit_parser.TestStatus.FAILURE)
    if top.counts.failed != failed or top.counts.passed != len(got) - failed:
        return "counts %s for %d tests, %d failed" % (top.counts, len(got), failed)
    if json_path is None:
        return None
    with open(json_path, encoding="utf-8") as f:
        try:
            want = expected(json.load(f))
        except ValueError as e:
            return str(e)
    if len({n for n, _, _ in want}) != len(want):
        return "two tests of one name: %r" % [n for n, _, _ in want]
    if len(got) != len(want):
        return "%d tests, want %d" % (len(got), len(want))
    for t, (name, fails, firsts) in zip(got, want):
        # Names are escaped in KTAP ('#' as \x23); the JSON escapes what it must.
        if t.name.strip() != name.replace("#", "\\x23"):
            return "test named %r, want %r" % (t.name, name)
        if (t.status == kunit_parser.TestStatus.FAILURE) != fails:
            return "test %r: status %s, want %s" % (name, t.status, "failure" if fails else "success")
        log = [l.strip() for l in t.log]
        for first in firsts:
            if not any(l.startswith("# " + first) for l in log):
                return "test %r: no diagnostic line starting %r in %r" % (name, first, log)
    return None


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: ktap_check.py KUNIT_DIR KTAP_FILE [JSON_REPORT]")
    why = main(*sys.argv[1:])
    if why:
        print("ktap_check: %s: %s" % (sys.argv[2], why))
        sys.exit(1)
