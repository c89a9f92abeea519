#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""prom_check.py FILE: FILE, watch's Prometheus page made by test_watch with a hostile
mountpoint, is UTF-8 and read by the Prometheus client's own text-format parser, which
gives back the mountpoint label as the exposition format defines it.
prom_check.py --complete FILE: FILE, a page the watch service left, is UTF-8, read by that
parser, whole (every family watch writes, in its order, the last line ended), with a row
per superblock, no finding, no lost event and no full map.
Exit 1 with the reason."""
import sys

from prometheus_client.parser import text_string_to_metric_families

WANT = '/m\\n\nl"q\ttab\x1b[1m caf\u00e9 \ufffd\ufffd'


def main(path):
    text = open(path, "rb").read().decode("utf-8")  # strict: a byte that is not UTF-8 fails
    seen = 0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "pdtrace_persistent_dentries" and sample.labels.get("fs_type") == "tmpfs":
                if sample.labels.get("mountpoint") != WANT:
                    return "mountpoint label %r, want %r" % (sample.labels.get("mountpoint"), WANT)
                seen += 1
    return None if seen == 1 else "%d tmpfs samples of pdtrace_persistent_dentries, want 1" % seen


FAMILIES = ["pdtrace_persistent_dentries", "pdtrace_made_total", "pdtrace_discarded_total",
            "pdtrace_findings_total", "pdtrace_lost_events_total", "pdtrace_map_full_total"]


def complete(path):
    raw = open(path, "rb").read()
    text = raw.decode("utf-8")
    if not text.endswith("\n"):
        return "the last line is not ended: a file cut short"
    families = list(text_string_to_metric_families(text))
    names = [f.name + ("_total" if f.type == "counter" else "") for f in families]
    if names != FAMILIES:
        return "families %s, want %s" % (names, FAMILIES)
    samples = {f.name + ("_total" if f.type == "counter" else ""): f.samples for f in families}
    if not samples["pdtrace_persistent_dentries"]:
        return "no superblock in pdtrace_persistent_dentries"
    for name in ("pdtrace_findings_total", "pdtrace_lost_events_total", "pdtrace_map_full_total"):
        if not samples[name]:
            return "no sample of %s" % name
        for s in samples[name]:
            if s.value != 0:
                return "%s%s %s, want 0" % (name, s.labels or "", s.value)
    return None


if __name__ == "__main__":
    try:
        if sys.argv[1] == "--complete":
            sys.argv.pop(1)
            err = complete(sys.argv[1])
        else:
            err = main(sys.argv[1])
    except (UnicodeDecodeError, ValueError) as e:
        err = "not a valid page: %s" % e
    if err:
        print("%s: %s" % (sys.argv[1], err))
        sys.exit(1)
