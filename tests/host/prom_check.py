#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""prom_check.py FILE: FILE, watch's Prometheus page made by test_watch with a hostile
mountpoint, is UTF-8 and read by the Prometheus client's own text-format parser, which
gives back the mountpoint label as the exposition format defines it. Exit 1 with the reason."""
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


if __name__ == "__main__":
    try:
        err = main(sys.argv[1])
    except (UnicodeDecodeError, ValueError) as e:
        err = "not a valid page: %s" % e
    if err:
        print("%s: %s" % (sys.argv[1], err))
        sys.exit(1)
