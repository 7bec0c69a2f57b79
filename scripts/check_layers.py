#!/usr/bin/env python3
"""Checks that every #include points down the house (docs/decisions.md, "The layout of
runtime/"): tools -> runtime's solve front -> its skeleton wings -> distributed ->
compile -> device -> core -> generator -> dsl. A file may include its own folder and any
folder below it; the three skeleton wings (ivm, ida, backtrack) are side by side and may
not include each other. templates/ holds the skeletons' device and host code and the ABI
headers the runtime shares with it. Prints each include that runs up or sideways and exits 1.

Usage: scripts/check_layers.py [ROOT]   (default: the repository holding this script)"""
import pathlib
import re
import sys

# Lowest first. A folder's rank is the first prefix that matches its path.
LEVELS = [
    ("dsl/", 0),
    ("generator/", 1),
    ("templates/", 2),
    ("runtime/core/", 3),
    ("runtime/device/", 4),
    ("runtime/compile/", 5),
    ("runtime/distributed/", 6),
    ("runtime/ivm/", 7),
    ("runtime/ida/", 7),
    ("runtime/backtrack/", 7),
    ("runtime/", 8),
    ("tools/", 9),
    ("python/", 10),
]


def place(path: str):
    for prefix, rank in LEVELS:
        if path.startswith(prefix):
            return prefix, rank
    return None, None


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    bad = []
    for top in ("dsl", "generator", "runtime", "tools", "python"):
        for f in sorted((root / top).rglob("*")):
            if f.suffix not in (".hpp", ".cpp", ".h", ".cuh"):
                continue
            rel = f.relative_to(root).as_posix()
            folder, rank = place(rel)
            if folder is None:
                continue
            text = f.read_text(encoding="utf-8", errors="replace")
            for m in include.finditer(text):
                target = m.group(1)
                tfolder, trank = place(target)
                if tfolder is None or tfolder == folder:
                    continue
                if trank > rank or (trank == rank and tfolder != folder):
                    line = text.count("\n", 0, m.start()) + 1
                    bad.append(f"{rel}:{line}: includes {target}, which is not below {folder}")
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} include(s) run up or sideways; see the docstring of {pathlib.Path(__file__).name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
