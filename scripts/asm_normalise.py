#!/usr/bin/env python3
"""Host assembly without what changes when code does not: the compiler's local labels
(.LFB5902, .L123, ...) renumbered in the order they appear, and the .file, .loc and
.ident lines dropped. For scripts/emit_identical.sh."""
import re
import sys

label = re.compile(r"\.L([A-Za-z_]*)(\d+)\b")
names = {}


def rename(m):
    key = m.group(0)
    if key not in names:
        names[key] = ".L%s_%d" % (m.group(1), len(names))
    return names[key]


for line in sys.stdin:
    if re.match(r"^\s*\.(file|loc|ident)\b", line):
        continue
    sys.stdout.write(label.sub(rename, line))
