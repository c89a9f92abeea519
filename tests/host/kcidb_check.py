#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kcidb_check.py KCIDB_FILE [JSON_REPORT]: KCIDB_FILE is valid KCIDB I/O data (v5.3:
tests/host/kcidb.schema.json, checked with python3-jsonschema, date-times and "no null
anywhere" checked here), its objects link up (each test's build, each build's checkout;
ids unique and starting with their origin), and, with JSON_REPORT (pdtrace's JSON report
of the same data), it says what pdtrace meant: the kernel release in every test's
environment, a complete-data test that passes exactly when the data is complete (ERROR
otherwise), one test per superblock in the report's order, named by its stable name and
failed exactly when a finding on it fails the gate, one per finding at
pdtrace.FSTYPE.KIND.RULE (FAIL when it fails the gate, DONE when suppressed or known),
one failed test for unlisted findings when there are any, and no device number in a
superblock's test. Exit 1 with the reason."""
import json
import os
import re
import sys

import jsonschema

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kcidb.schema.json")
DATE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def nulls(v, where="$"):
    if v is None:
        return [where]
    if isinstance(v, dict):
        return [n for k, x in v.items() for n in nulls(x, "%s.%s" % (where, k))]
    if isinstance(v, list):
        return [n for i, x in enumerate(v) for n in nulls(x, "%s[%d]" % (where, i))]
    return []


def part(s):
    return re.sub(r"[^a-zA-Z0-9_-]", "_", s) or "_"


def structure(data):
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=str)
    if errors:
        e = errors[0]
        return "schema: %s at %s" % (e.message, "/".join(str(p) for p in e.absolute_path))
    if nulls(data):
        return "null at %s (the schema allows none)" % nulls(data)[0]
    objs = [(kind, o) for kind in ("checkouts", "builds", "tests") for o in data.get(kind, [])]
    for kind, o in objs:
        if not o["id"].startswith(o["origin"] + ":"):
            return "%s id %r does not start with its origin %r" % (kind, o["id"], o["origin"])
        if "start_time" in o and not DATE_TIME.match(o["start_time"]):
            return "%s %s: start_time %r is not an RFC 3339 date-time" % (kind, o["id"], o["start_time"])
    for kind in ("checkouts", "builds", "tests"):
        ids = [o["id"] for o in data.get(kind, [])]
        if len(ids) != len(set(ids)):
            return "%s ids not unique" % kind
    checkouts = {o["id"] for o in data.get("checkouts", [])}
    builds = {o["id"] for o in data.get("builds", [])}
    for b in data.get("builds", []):
        if b["checkout_id"] not in checkouts:
            return "build %s: checkout %s not in the data" % (b["id"], b["checkout_id"])
    for t in data.get("tests", []):
        if t["build_id"] not in builds:
            return "test %s: build %s not in the data" % (t["id"], t["build_id"])
    return None


def meaning(data, report):
    tests = data["tests"]
    for o in data["checkouts"] + data["builds"] + [t["environment"] for t in tests]:
        if o.get("misc", {}).get("kernel_release") != report["kernel"] or report["kernel"] not in o.get("comment", ""):
            return "kernel release %r missing in %r" % (report["kernel"], o)
    want = [("pdtrace.complete_data", "PASS" if report["complete"] else "ERROR", None)]
    paths = set()
    for sb in report["superblocks"]:
        mine = [f for f in report["findings"] if f["dev"] == sb["dev"] and f["fs_type"] == sb["fs_type"]]
        fails = any(f["suppressed_by"] is None and not f["known"] for f in mine)
        place = sb["mountpoint"][1:] if sb["mountpoint"] else sb["s_id"]
        m = re.match(r"^.* \((\d+)\)$", sb["name"])
        path = "pdtrace.%s.superblock.%s%s" % (part(sb["fs_type"]), part(place), "-" + m.group(1) if m else "")
        if path in paths:
            return "two superblocks at %s" % path
        paths.add(path)
        want.append((path, "FAIL" if fails else "PASS", sb["name"]))
    for f in report["findings"]:
        passed = f["suppressed_by"] is not None or f["known"]
        want.append(("pdtrace.%s.%s.%s" % (part(f["fs_type"]), f["kind"], f["rule"]), "DONE" if passed else "FAIL", None))
    if report["unlisted_findings"]:
        want.append(("pdtrace.unlisted_findings", "FAIL", None))
    got = [(t["path"], t["status"], t.get("comment")) for t in tests]
    if len(got) != len(want):
        return "%d tests, want %d: %r" % (len(got), len(want), got)
    for (path, status, comment), (wpath, wstatus, wcomment) in zip(got, want):
        if (path, status) != (wpath, wstatus):
            return "test %s %s, want %s %s" % (path, status, wpath, wstatus)
        if wcomment is not None and comment != wcomment:
            return "test %s: comment %r, want the superblock's name %r" % (path, comment, wcomment)
    for sb in report["superblocks"]:
        if sb["dev"] in sb["name"].split():
            return "superblock name %r holds its device number" % sb["name"]
    return None


def main(path, report_path=None):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    why = structure(data)
    if why or report_path is None:
        return why
    with open(report_path, encoding="utf-8") as f:
        return meaning(data, json.load(f))


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: kcidb_check.py KCIDB_FILE [JSON_REPORT]")
    try:
        why = main(*sys.argv[1:])
    except (ValueError, KeyError) as e:
        why = "not KCIDB data as expected: %r" % e
    if why:
        print("kcidb_check: %s: %s" % (sys.argv[1], why))
        sys.exit(1)
