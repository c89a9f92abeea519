#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""junit_counts.py FILE: FILE is well-formed XML (a real parser reads it) and its counts
mean what CI servers think they mean (the Ant JUnit schema Jenkins and GitLab read):
every <testsuite>'s tests and failures attributes count its <testcase> elements and
the cases that failed, and no case has more than one <failure>. Exit 1 with the reason."""
import sys
import xml.etree.ElementTree as ET


def main(path):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    if not suites:
        return "no <testsuite>"
    for suite in suites:
        cases = suite.findall("testcase")
        failed = 0
        for case in cases:
            n = len(case.findall("failure"))
            if n > 1:
                return "case %r has %d failures" % (case.get("name"), n)
            failed += n
        if int(suite.get("tests")) != len(cases):
            return "tests=%s but %d cases" % (suite.get("tests"), len(cases))
        if int(suite.get("failures")) != failed:
            return "failures=%s but %d failed cases" % (suite.get("failures"), failed)
    return None


if __name__ == "__main__":
    try:
        err = main(sys.argv[1])
    except ET.ParseError as e:
        err = "not well-formed: %s" % e
    if err:
        print("%s: %s" % (sys.argv[1], err))
        sys.exit(1)
