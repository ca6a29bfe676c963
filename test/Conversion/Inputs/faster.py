"""Prints, for each pair of `tilekit sim --json` files, whether the second
is faster (fewer cycles) than the first."""
import json
import os
import sys

files = sys.argv[1:]
for before, after in zip(files[::2], files[1::2]):
    cycles = [json.load(open(path))["cycles"] for path in (before, after)]
    verdict = "faster" if cycles[1] < cycles[0] else "not faster"
    print(f"{os.path.basename(before)} -> {os.path.basename(after)}: "
          f"{verdict} ({cycles[0]} -> {cycles[1]} cycles)")
