"""The floor for `check`: parse every record file under ROOT/records with PyYAML's C loader, nothing else.

Usage: python3 benchmarks/bare_parse.py ROOT   (run by hand; compare its time with `check` on the same ROOT)
"""
from __future__ import annotations

import os
import sys

import yaml


def files(folder: str) -> list[str]:
    out = []
    for entry in os.scandir(folder):
        if entry.is_dir():
            out += files(entry.path)
        elif entry.name.endswith(".yaml"):
            out.append(entry.path)
    return out


def parse_all(root: str) -> int:
    count = 0
    for path in sorted(files(os.path.join(root, "records"))):
        with open(path, "rb") as handle:
            yaml.load(handle.read(), Loader=yaml.CSafeLoader)
        count += 1
    return count


if __name__ == "__main__":  # no argparse: this is the floor `check` is measured against, and imports cost time
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: python3 benchmarks/bare_parse.py ROOT   (parses ROOT/records/**/*.yaml)")
    print(f"{parse_all(sys.argv[1])} files parsed")
